import Foundation
import Hummingbird
import Logging
import Mail
import NIOCore
import ServiceLifecycle
import Synchronization

/// Builds the reference backend: storage opened and swept, routes registered, the database
/// closed after the last request on shutdown.
public enum PetSpotServerApp {
    /// A ready-to-run application.
    /// - Parameters:
    ///   - onListening: called once the socket is bound with the address it listens on
    ///     (`http://host:port`; `--port 0` learns its port here) and the public URL handed out.
    /// - Throws: ``StorageError`` when the data directory or the database cannot be used.
    ///   - services: more services to run beside the server (the metrics listener).
    public static func make(configuration: ServerConfiguration, logger: Logger, services extraServices: [any Service] = [],
                            onListening: @escaping @Sendable (_ listening: String, _ publicURL: String) async -> Void = { _, _ in }) async throws -> some ApplicationProtocol {
        let directory = DataDirectory(root: configuration.dataDirectory)
        let lock = try directory.prepare(embeddedDatabase: configuration.databaseURL == nil)
        let keyring: PasswordKeyring
        if let given = configuration.passwordKeys {
            keyring = given
        } else if configuration.databaseURL != nil {
            throw StorageError.passwordKeys(
                "A server on PostgreSQL needs the password key its replicas share, and none was given: set "
                + "PETSPOT_PASSWORD_KEY or pass --password-key-file FILE (one line v1:KEY, KEY from `openssl rand -base64 32`; "
                + "an installation moved with `migrate` keeps the keys of its data directory's password-keys file).")
        } else {
            // Inside the data directory's lock: one process makes the file.
            do { keyring = try PasswordKeyring.embedded(at: directory.root + "/password-keys") } catch {
                throw StorageError.passwordKeys(error.description)
            }
        }
        var backgroundServices: [any Service] = []
        var startup: [@Sendable () async throws -> Void] = []
        let store: any AnnouncementStoring
        var closeStore: (@Sendable () throws -> Void)?
        if let url = configuration.databaseURL {
            let postgres = PostgresAnnouncementStore(url: url, maxConnections: configuration.databaseConnections,
                                                     leaseTimeout: configuration.databaseTimeout, logger: logger)
            store = postgres
            backgroundServices.append(postgres.client)  // the pool runs (and closes) as a service
            startup.append {
                let applied = try await postgres.migrate()
                logger.notice(applied.isEmpty ? "database \(url) is up to date" : "database \(url) migrated to version \(applied.last ?? 0)")
            }
        } else {
            let sqlite = try SQLiteAnnouncementStore(path: directory.databasePath)
            store = sqlite
            closeStore = { try sqlite.close() }
        }
        let throttleWindow = configuration.authThrottle.longestWindow
        startup.append {
            // bcrypt hashes written by earlier servers: sealed under the key, so that the
            // database alone can no longer test a password against them.
            let sealed = try await store.rewritePasswordHashes { keyring.sealBcrypt(id: $0, $1) }
            if sealed > 0 { logger.notice("sealed \(sealed) bcrypt password hash(es) under password key v\(keyring.writeKey.version)") }
        }
        startup.append {
            let now = Date()
            try await store.purge(idempotencyBefore: now.addingTimeInterval(-24 * 3600), failuresBefore: now.addingTimeInterval(-throttleWindow))
        }
        let photos: any PhotoStoring
        var bucket: S3PhotoStore?
        switch configuration.photoStore {
        case .disk:
            let disk = try DiskPhotoStore(root: directory.photosPath)
            if configuration.databaseURL != nil {
                logger.warning("photos are kept in \(directory.photosPath) on this machine: other replicas on the same database cannot serve them (use --photo-store s3://…)")
            }
            startup.append {
                // One process owns the data directory (its lock), so the sweep can run before requests.
                let referenced = try await store.referencedPhotoKeys()
                let swept = disk.sweep(keeping: referenced, olderThan: Date().addingTimeInterval(-DataDirectory.sweepGrace))
                if swept > 0 { logger.notice("removed \(swept) unreferenced or partial photo file(s) left by an earlier run") }
            }
            photos = disk
        case .s3(let location, let credentials):
            let store = S3PhotoStore(location: location, credentials: credentials, timeout: configuration.s3Timeout, logger: logger)
            // Before taking requests: a store that cannot be reached or refuses these
            // credentials stops the start with its reason. The sweep runs in the background.
            startup.append { try await store.checkAvailable() }
            photos = store
            bucket = store
        }

        backgroundServices.append(MaintenanceService(store: store, bucket: bucket, throttleWindow: throttleWindow, logger: logger, photos: photos))

        let publicURL = PublicURL(configured: configuration.publicURL)
        let processor = PhotoProcessor(maxPhotoBytes: configuration.maxPhotoBytes, maxPixels: configuration.maxPhotoPixels,
                                       concurrency: configuration.processingConcurrency, pixelBudget: configuration.decodePixelBudget)
        var services = ServerServices(
            store: store, photos: photos, keyring: keyring,
            throttle: AuthThrottle(policy: configuration.authThrottle, store: store),
            clientAddress: ClientAddress(trustedProxies: configuration.trustedProxies),
            processor: processor, variants: PhotoVariants(photos: photos, processor: processor),
            uploadDirectory: directory.uploadsPath, publicURL: publicURL, maxPhotoBytes: configuration.maxPhotoBytes,
            now: { Date() })
        services.rateLimiter = RateLimiter(limits: configuration.rateLimits)
        if let places = store as? any PlaceStoring {
            services.gazetteer = Gazetteer(store: places)
            startup.append {
                let count = try await places.placeCount()
                logger.notice(count > 0
                    ? "places: \(count) loaded (GeoNames, CC BY 4.0): announcements are shown with place names"
                    : "places: none loaded (petspot-server places import FILE): announcements are shown with coordinates")
            }
        }
        services.uploadAdmission = UploadAdmission(limit: configuration.maxUploadsInFlight)
        if let mail = configuration.mail, let outbox = store as? any OutboxStoring {
            let transport: SMTPTransport
            do { transport = try SMTPTransport(relay: mail.relay, heloDomain: mail.sender.domain) } catch {
                throw StorageError.unreachable(what: "the mail relay", reason: error.description)
            }
            let mailer = Mailer(settings: mail, keyring: keyring, publicURL: publicURL)
            services.mail = mailer
            // After the store's own services: on shutdown it stops first, the pool last.
            backgroundServices.append(DeliveryWorker(services: services, outbox: outbox, mailer: mailer, transport: transport, logger: logger))
            startup.append {
                logger.notice("mail: to \(mail.relay) from \(mail.sender.address)")
                if configuration.publicURL == nil {
                    logger.warning("mail: no --public-url: the links in mail name this server's own address, which readers may not reach")
                } else if configuration.publicURL?.hasPrefix("https://") != true {
                    logger.warning("mail: --public-url is not https: mail programs offer one-click unsubscribe (RFC 8058) only for an https link")
                }
            }
        }
        let limits = configuration.connectionLimits
        var app = Application(
            router: makeRouter(services: services),
            server: .http1(configuration: .init(
                additionalChannelHandlers: [ConnectionGuard(limits: limits, logger: logger)],
                idleTimeout: nil,  // ConnectionGuard keeps the time
                httpDecoderConfiguration: .init(maxHeaderFieldSize: limits.maxHeaderBytes, maxHeaderListSize: limits.maxHeaderBytes,
                                                maxHeaderFieldCount: 200))),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "petspot-server",
                                 availableConnectionsDelegate: ConnectionCap(limit: limits.maxConnections, logger: logger)),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? configuration.port
                let listening = PublicURL.base(host: configuration.host, port: port)
                await onListening(listening, publicURL.resolve(host: configuration.host, port: port))
            },
            logger: logger)
        app.addServices(backgroundServices + extraServices)
        app.addServices(StoreShutdownService(close: closeStore, lock: lock, logger: logger))
        for step in startup { app.beforeServerStarts(perform: step) }
        return app
    }

    /// The routes over `services`, behind the request-log/error middleware.
    static func makeRouter(services: ServerServices) -> Router<ServerRequestContext> {
        let router = Router(context: ServerRequestContext.self)
        router.add(middleware: RequestBoundaryMiddleware(clientAddress: services.clientAddress))
        AnnouncementRoutes(services: services).register(on: router)
        AnnouncementLifecycleRoutes(services: services).register(on: router)
        PhotoUploadRoute(services: services).register(on: router)
        PhotoFileRoutes(services: services).register(on: router)
        PageRoutes(services: services).register(on: router)
        ReportRoutes(services: services).register(on: router)
        ManageRoutes(services: services).register(on: router)
        ShareRoutes(services: services).register(on: router)
        PlacesRoute(services: services).register(on: router)
        AtomFeedRoute(services: services).register(on: router)
        MatchesRoute(services: services).register(on: router)
        MailLinkRoutes(services: services).register(on: router)
        SignInLinkRoutes(services: services).register(on: router)
        AreaAlertRoutes(services: services).register(on: router)
        HealthRoute(services: services).register(on: router)
        return router
    }
}

/// The base of handed-out URLs: configured, or learned once the socket is bound.
final class PublicURL: Sendable {
    private let value: Mutex<String?>

    init(configured: String?) {
        value = Mutex(configured.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 })
    }

    var current: String { value.withLock { $0 ?? "" } }

    /// The configured URL, or `http://host:port` from the bound socket.
    func resolve(host: String, port: Int) -> String {
        value.withLock { url in
            if url == nil { url = Self.base(host: host, port: port) }
            return url!
        }
    }

    /// `http://host:port`, with brackets around an IPv6 host.
    static func base(host: String, port: Int) -> String {
        "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }
}
