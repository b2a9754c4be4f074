import ArgumentParser
import Foundation
import Hummingbird
import Logging
import PetSpotServer
import PhotoPipeline
import ServiceLifecycle

/// `petspot-server [serve]`: runs the server.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the server (the default command).",
        discussion: """
            Serves POST/GET /api/v1/announcements, POST /api/v1/announcements/{id}/photos, \
            GET /photos/{key} and its sizes GET /photos/{digest}/{w320|w640|w1200|full}.{jpg|webp}, \
            GET /health (openapi.yaml describes them), and the public pages GET / and GET /pets/{id}. With --smtp-url and \
            --mail-from it also sends mail through that relay (possible matches, report confirmations, area alerts). Stops gracefully on \
            SIGTERM or SIGINT: requests in flight get --shutdown-grace seconds to finish and are \
            then cut; the database is closed and the exit status is 0. \
            Every option can also be set in the environment as PETSPOT_<OPTION> \
            (PETSPOT_DATABASE_URL, PETSPOT_PORT, …; a list such as PETSPOT_TRUSTED_PROXY is comma-separated); \
            the command line wins.
            """)

    @Option(name: .customLong("database-url"), help: ArgumentHelp(
        "Keep announcements in PostgreSQL: postgres://USER:PASSWORD@HOST:PORT/DATABASE[?sslmode=disable|prefer|require] (default: SQLite in the data directory).",
        discussion: "Migrations are applied at start under an advisory lock, so replicas starting together migrate once. Prefer PETSPOT_DATABASE_URL: a command line is visible to every user of the machine."))
    var databaseURL: String?

    @Option(name: .customLong("database-connections"), help: "Connections this server opens to PostgreSQL at most.")
    var databaseConnections = 16

    @Option(name: .customLong("database-timeout"), help: ArgumentHelp(
        "Seconds a request waits for a database connection before it is answered 503 with Retry-After.",
        discussion: "While PostgreSQL restarts, the pool reconnects on its own; requests in that moment wait at most this long. A request's queries, once it has a connection, get ten times as long before the same 503."))
    var databaseTimeout = 5

    @Option(name: .customLong("metrics-port"), help: ArgumentHelp(
        "Serve Prometheus metrics at http://HOST:PORT/metrics on this port (default: no metrics).",
        discussion: "Never on the public port: give a port that only the monitoring can reach; 0 picks a free one."))
    var metricsPort: Int?

    @Option(name: .customLong("log-format"), help: "text, or json (one JSON object per line, for log shippers).")
    var logFormat = LogFormat.text

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one (the address is printed).")
    var port = 8080

    @Option(name: .customLong("data-dir"), help: ArgumentHelp(
        "Where the database and photos live.", discussion: "Default: $XDG_DATA_HOME/petspot-server, else ~/.local/share/petspot-server."))
    var dataDirectory: String?

    @Option(name: .customLong("public-url"), help: "The base of the photo URLs handed out, e.g. https://pets.example.org (default: http://HOST:PORT).")
    var publicURL: String?

    @OptionGroup var store: PhotoStoreOptions

    @OptionGroup(title: "Mail") var mail: MailOptions

    @Option(name: .customLong("s3-timeout"), help: "Seconds one request to the store may take; three attempts in all, then 503.")
    var s3Timeout = 10

    @Option(name: .customLong("max-photo-bytes"), help: "The largest photo upload accepted: 20MB, 512KiB, 1048576 …")
    var maxPhotoBytes = ByteCountOption(ServerConfiguration.defaultMaxPhotoBytes)

    @Option(name: .customLong("auth-attempts-per-client"), help: ArgumentHelp(
        "Password attempts one address gets per announcement within 15 minutes.", discussion: "A right password uses none."))
    var authAttemptsPerClient = AuthThrottlePolicy().perClient

    @Option(name: .customLong("auth-attempts-per-announcement"), help: ArgumentHelp(
        "Password attempts all addresses together get per announcement within 24 hours.",
        discussion: "The address that created the announcement, and any that gave its right password, are not held by this ceiling."))
    var authAttemptsPerAnnouncement = AuthThrottlePolicy().perAnnouncement

    @Option(name: .customLong("auth-attempts-per-address"), help: ArgumentHelp(
        "Failed password checks one address gets over every announcement together within 24 hours.",
        discussion: "Guesses spread over many announcements stop here; an address is not held by it on an announcement it created or opened."))
    var authAttemptsPerAddress = AuthThrottlePolicy().perAddress

    @Option(name: .customLong("trusted-proxy"), parsing: .singleValue, help: ArgumentHelp(
        "A proxy's IP address whose X-Forwarded-For names the client (repeatable).",
        discussion: "Without one, X-Forwarded-For is ignored: the client is the TCP peer."))
    var trustedProxies: [String] = []

    @Option(name: .customLong("create-rate"), help: ArgumentHelp(
        "Announcements one address may create: N per minute, or N/hour (N is also its burst).",
        discussion: "Past it: 429 with Retry-After."))
    var createRate = RateOption(RateLimits().creates)

    @Option(name: .customLong("upload-rate"), help: "Photo uploads one address may send: N per minute, or N/hour (N is also its burst).")
    var uploadRate = RateOption(RateLimits().uploads)

    @Option(name: .customLong("list-rate"), help: ArgumentHelp(
        "List pages one address may fetch: N per minute, or N/hour.", discussion: "Its burst is half of N."))
    var listRate = RateOption(RateLimits().listPages)

    @Option(name: .customLong("detail-rate"), help: ArgumentHelp(
        "Announcement reads one address may make (the API's GET /api/v1/announcements/{id} and the /pets/{id} page; photos not counted): N per minute, or N/hour.",
        discussion: "N is also its burst. The default, 300/hour, is far more than a person browses and far less than a scraper wants."))
    var detailRate = RateOption(count: Double(RateLimits().detailReads.burst), minutes: 60)

    @Option(name: .customLong("max-uploads-in-flight"), help: ArgumentHelp(
        "Photo uploads received or processed at once.", discussion: "Past it: 503 with Retry-After at once (clients retry)."))
    var maxUploadsInFlight = ServerConfiguration(dataDirectory: "").maxUploadsInFlight

    @Option(name: .customLong("decode-pixel-budget"), help: ArgumentHelp(
        "Declared pixels decoded at once over all uploads (about 4 bytes of memory each).",
        discussion: "A photo larger than the budget is decoded alone."))
    var decodePixelBudget = ServerConfiguration.defaultDecodePixelBudget

    @Option(name: .customLong("max-connections"), help: ArgumentHelp(
        "Connections open at once; beyond it new ones wait in the listen queue.",
        discussion: "Each connection uses a file descriptor: keep it well under the open-files limit (ulimit -n), which the server raises to its hard limit at start."))
    var maxConnections = ConnectionLimits().maxConnections

    @Option(name: .customLong("request-head-timeout"), help: "Seconds a client has to send a whole request head.")
    var requestHeadTimeout = Int(ConnectionLimits().requestHeadTimeout.nanoseconds / 1_000_000_000)

    @Option(name: .customLong("keep-alive-timeout"), help: "Seconds an idle keep-alive connection stays open.")
    var keepAliveTimeout = Int(ConnectionLimits().keepAliveTimeout.nanoseconds / 1_000_000_000)

    @Option(name: .customLong("min-body-rate"), help: ArgumentHelp(
        "Bytes per second a request body must arrive at, measured over 10 s of waiting for it; 0 turns the floor off."))
    var minBodyRate = ByteCountOption(ConnectionLimits().minimumBodyRate)

    @Option(name: .customLong("shutdown-grace"), help: "Seconds requests in flight get to finish after SIGTERM or SIGINT.")
    var shutdownGrace = 30

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    @Option(name: .customLong("password-key"), help: ArgumentHelp(
        "The keys management passwords are checked with: v1:BASE64[,v2:BASE64…] (set PETSPOT_PASSWORD_KEY rather than this: a command line is visible to every user).",
        discussion: "Required on PostgreSQL, the same on every replica; the newest version signs new rows, older ones are still read (and rewritten on a successful check). Without it and without --password-key-file, the embedded installation keeps its own in DATA_DIR/password-keys, made at first start (0600)."))
    var passwordKey: String?

    @Option(name: .customLong("password-key-file"), help: "A file holding the password keys, one vN:BASE64 per line (# comments allowed).")
    var passwordKeyFile: String?

    @Option(name: .customLong("password-key-version"), help: ArgumentHelp(
        "The key version new rows are written with (default: the highest given).",
        discussion: "A rotation gives every replica the new key first while they all still write with the old one, then switches this: a replica that cannot read a row's version would refuse its owner."))
    var passwordKeyVersion: Int?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535 (got \(port)).") }
        if let metricsPort, !(0...65535).contains(metricsPort) || (metricsPort == port && port != 0) {
            throw ValidationError("--metrics-port must be between 0 and 65535 and not the public --port (got \(metricsPort)).")
        }
        guard (1...300).contains(databaseTimeout) else {
            throw ValidationError("--database-timeout must be 1 to 300 seconds (got \(databaseTimeout)).")
        }
        guard (1...300).contains(s3Timeout) else { throw ValidationError("--s3-timeout must be 1 to 300 seconds (got \(s3Timeout)).") }
        guard (1...1000).contains(databaseConnections) else {
            throw ValidationError("--database-connections must be between 1 and 1000 (got \(databaseConnections)).")
        }
        guard maxPhotoBytes.bytes >= 1024 else { throw ValidationError("--max-photo-bytes must be at least 1024 bytes (got \(maxPhotoBytes.bytes)).") }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")) (got \(logLevel)).")
        }
        if let publicURL, URL(string: publicURL)?.scheme == nil {
            throw ValidationError("--public-url must be an absolute URL such as https://pets.example.org (got \(publicURL)).")
        }
        if let dataDirectory, dataDirectory.isEmpty { throw ValidationError("--data-dir must not be empty.") }
        guard authAttemptsPerAddress >= 1 else {
            throw ValidationError("--auth-attempts-per-address must be at least 1 (got \(authAttemptsPerAddress)).")
        }
        guard authAttemptsPerClient >= 1, authAttemptsPerAnnouncement >= authAttemptsPerClient else {
            throw ValidationError("--auth-attempts-per-client must be at least 1 and --auth-attempts-per-announcement at least as large (got \(authAttemptsPerClient) and \(authAttemptsPerAnnouncement)).")
        }
        guard maxUploadsInFlight >= 1 else { throw ValidationError("--max-uploads-in-flight must be at least 1 (got \(maxUploadsInFlight)).") }
        guard decodePixelBudget >= 1_000_000 else {
            throw ValidationError("--decode-pixel-budget must be at least 1000000 (got \(decodePixelBudget)).")
        }
        guard maxConnections >= 1 else { throw ValidationError("--max-connections must be at least 1 (got \(maxConnections)).") }
        guard requestHeadTimeout >= 1, keepAliveTimeout >= 1 else {
            throw ValidationError("--request-head-timeout and --keep-alive-timeout must be at least 1 second.")
        }
        guard minBodyRate.bytes >= 0 else { throw ValidationError("--min-body-rate must be 0 or more (got \(minBodyRate.bytes)).") }
        guard shutdownGrace >= 0 else { throw ValidationError("--shutdown-grace must be 0 or more seconds (got \(shutdownGrace)).") }
        for proxy in trustedProxies where !ClientAddress.isPlausibleIP(ClientAddress.normalise(proxy)) {
            throw ValidationError("--trusted-proxy takes an IP address such as 127.0.0.1 or ::1 (got \(proxy)).")
        }
    }

    func run() async throws {
        // The codec libraries load on first use; a server checks them now, not on its first photo.
        if let problem = CodecLibraries.loadAll() {
            FileHandle.standardError.write(Data("petspot-server: the image codec library \(problem).\n".utf8))
            throw ExitCode(70)
        }
        // Before anything is created: a port in use is said as such.
        try ListenCheck.ensureFree(host: host, port: port, option: "--port")
        if let metricsPort { try ListenCheck.ensureFree(host: host, port: metricsPort, option: "--metrics-port") }
        LogSetup.bootstrap(format: logFormat, level: Logger.Level(rawValue: logLevel) ?? .info)
        let logger = Logger(label: "petspot-server")
        let registry = metricsPort.map { _ in LogSetup.bootstrapMetrics() }
        var configuration = ServerConfiguration(
            host: host, port: port,
            dataDirectory: dataDirectory ?? ServerConfiguration.defaultDataDirectory(),
            publicURL: publicURL, maxPhotoBytes: maxPhotoBytes.bytes)
        configuration.authThrottle.perClient = authAttemptsPerClient
        configuration.authThrottle.perAnnouncement = authAttemptsPerAnnouncement
        configuration.authThrottle.perAddress = authAttemptsPerAddress
        configuration.trustedProxies = trustedProxies
        configuration.databaseURL = try databaseURL.map(ConfigurationFailure.databaseURL)
        configuration.passwordKeys = try ConfigurationFailure.passwordKeys(text: passwordKey, file: passwordKeyFile,
                                                                           writing: passwordKeyVersion)
        configuration.databaseConnections = databaseConnections
        configuration.databaseTimeout = .seconds(databaseTimeout)
        configuration.s3Timeout = .seconds(s3Timeout)
        if let bucket = try store.bucket() {
            configuration.photoStore = .s3(bucket.location, bucket.credentials)
        }
        configuration.mail = try mail.settings()
        configuration.rateLimits.creates = createRate.rate(burstFraction: 1)
        configuration.rateLimits.uploads = uploadRate.rate(burstFraction: 1)
        configuration.rateLimits.listPages = listRate.rate(burstFraction: 0.5)
        configuration.rateLimits.detailReads = detailRate.rate(burstFraction: 1)
        configuration.maxUploadsInFlight = maxUploadsInFlight
        configuration.decodePixelBudget = decodePixelBudget
        configuration.connectionLimits.maxConnections = maxConnections
        configuration.connectionLimits.requestHeadTimeout = .seconds(Int64(requestHeadTimeout))
        configuration.connectionLimits.keepAliveTimeout = .seconds(Int64(keepAliveTimeout))
        configuration.connectionLimits.minimumBodyRate = minBodyRate.bytes
        ProcessLimits.raiseOpenFileLimit(toFit: maxConnections, uploads: maxUploadsInFlight, logger: logger)
        ProcessLimits.returnFreedBuffersToTheSystem()
        let settings = configuration
        do {
            var extra: [any Service] = []
            if let registry, let metricsPort {
                extra.append(MetricsEndpoint.make(registry: registry, host: host, port: metricsPort, logger: logger) { url in
                    FileHandle.standardOutput.write(Data("petspot-server metrics on \(url)\n".utf8))
                })
            }
            let storage = settings.databaseURL.map { "database \($0)" } ?? "data in \(settings.dataDirectory)"
            let app = try await PetSpotServerApp.make(configuration: settings, logger: logger, services: extra) { listening, publicURL in
                // Unbuffered: a script waiting for this line must see it at once.
                FileHandle.standardOutput.write(Data("petspot-server listening on \(listening) (public URL \(publicURL), \(storage))\n".utf8))
            }
            try await GracefulShutdown.run(app, grace: shutdownGrace, logger: logger)
        } catch let error as StorageError {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(73)
        } catch let error where ListenCheck.bindErrno(error) != nil {
            throw ListenCheck.report(ListenCheck.bindErrno(error)!, host: host, port: port, option: "--port")
        }
    }
}
