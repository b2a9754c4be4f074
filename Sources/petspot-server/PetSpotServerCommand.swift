import ArgumentParser
import Foundation
import Hummingbird
import Logging
import PetSpotServer

/// `petspot-server`: the reference backend of the PetSpot announcements API.
@main
struct PetSpotServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "petspot-server",
        abstract: "The reference backend of the PetSpot announcements API (SQLite + photos on disk).",
        discussion: """
            Serves POST/GET /api/v1/announcements, POST /api/v1/announcements/{id}/photos, \
            GET /photos/{key} and GET /health (openapi.yaml describes them). Stops gracefully on \
            SIGTERM or SIGINT: requests in flight finish, then the database is closed.
            """)

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one (the address is printed).")
    var port = 8080

    @Option(name: .customLong("data-dir"), help: ArgumentHelp(
        "Where the database and photos live.", discussion: "Default: $XDG_DATA_HOME/petspot-server, else ~/.local/share/petspot-server."))
    var dataDirectory: String?

    @Option(name: .customLong("public-url"), help: "The base of the photo URLs handed out, e.g. https://pets.example.org (default: http://HOST:PORT).")
    var publicURL: String?

    @Option(name: .customLong("max-photo-bytes"), help: "The largest photo upload accepted, in bytes.")
    var maxPhotoBytes = ServerConfiguration.defaultMaxPhotoBytes

    @Option(name: .customLong("auth-attempts-per-client"), help: ArgumentHelp(
        "Password attempts one address gets per announcement within 15 minutes.", discussion: "A right password uses none."))
    var authAttemptsPerClient = AuthThrottlePolicy().perClient

    @Option(name: .customLong("auth-attempts-per-announcement"), help: ArgumentHelp(
        "Password attempts all addresses together get per announcement within 24 hours.",
        discussion: "The address that created the announcement, and any that gave its right password, are not held by this ceiling."))
    var authAttemptsPerAnnouncement = AuthThrottlePolicy().perAnnouncement

    @Option(name: .customLong("trusted-proxy"), parsing: .singleValue, help: ArgumentHelp(
        "A proxy's IP address whose X-Forwarded-For names the client (repeatable).",
        discussion: "Without one, X-Forwarded-For is ignored: the client is the TCP peer."))
    var trustedProxies: [String] = []

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535 (got \(port)).") }
        guard maxPhotoBytes >= 1024 else { throw ValidationError("--max-photo-bytes must be at least 1024 (got \(maxPhotoBytes)).") }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")) (got \(logLevel)).")
        }
        if let publicURL, URL(string: publicURL)?.scheme == nil {
            throw ValidationError("--public-url must be an absolute URL such as https://pets.example.org (got \(publicURL)).")
        }
        if let dataDirectory, dataDirectory.isEmpty { throw ValidationError("--data-dir must not be empty.") }
        guard authAttemptsPerClient >= 1, authAttemptsPerAnnouncement >= authAttemptsPerClient else {
            throw ValidationError("--auth-attempts-per-client must be at least 1 and --auth-attempts-per-announcement at least as large (got \(authAttemptsPerClient) and \(authAttemptsPerAnnouncement)).")
        }
        for proxy in trustedProxies where !ClientAddress.isPlausibleIP(ClientAddress.normalise(proxy)) {
            throw ValidationError("--trusted-proxy takes an IP address such as 127.0.0.1 or ::1 (got \(proxy)).")
        }
    }

    func run() async throws {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "petspot-server")
        var configuration = ServerConfiguration(
            host: host, port: port,
            dataDirectory: dataDirectory ?? ServerConfiguration.defaultDataDirectory(),
            publicURL: publicURL, maxPhotoBytes: maxPhotoBytes)
        configuration.authThrottle.perClient = authAttemptsPerClient
        configuration.authThrottle.perAnnouncement = authAttemptsPerAnnouncement
        configuration.trustedProxies = trustedProxies
        let settings = configuration
        do {
            let app = try await PetSpotServerApp.make(configuration: settings, logger: logger) { listening, publicURL in
                // Unbuffered: a script waiting for this line must see it at once.
                FileHandle.standardOutput.write(Data("petspot-server listening on \(listening) (public URL \(publicURL), data in \(settings.dataDirectory))\n".utf8))
            }
            try await app.runService()
        } catch let error as StorageError {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(73)
        }
    }
}
