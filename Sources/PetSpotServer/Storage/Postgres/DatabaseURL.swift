import Foundation
import PostgresNIO

/// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require]` as a
/// PostgresNIO client configuration. `description` never shows the password.
public struct DatabaseURL: Sendable, CustomStringConvertible {
    public let host: String
    public let port: Int
    public let username: String
    let password: String?
    public let database: String
    public let tlsMode: String

    /// - Throws: ``StorageError/badDatabaseURL(_:)`` naming what is wrong (never the password).
    public init(_ text: String) throws {
        guard let components = URLComponents(string: text),
              let scheme = components.scheme, ["postgres", "postgresql"].contains(scheme.lowercased()) else {
            throw StorageError.badDatabaseURL("it must start with postgres:// (postgres://USER:PASSWORD@HOST:PORT/DATABASE)")
        }
        guard let host = components.host, !host.isEmpty else {
            throw StorageError.badDatabaseURL("it names no host (postgres://USER:PASSWORD@HOST:PORT/DATABASE)")
        }
        guard let user = components.user, !user.isEmpty else {
            throw StorageError.badDatabaseURL("it names no user (postgres://USER:PASSWORD@HOST:PORT/DATABASE)")
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else {
            throw StorageError.badDatabaseURL("it names no database after the host (postgres://USER:PASSWORD@HOST:PORT/DATABASE)")
        }
        let mode = components.queryItems?.first(where: { $0.name == "sslmode" })?.value ?? "prefer"
        guard ["disable", "prefer", "require"].contains(mode) else {
            throw StorageError.badDatabaseURL("sslmode must be disable, prefer or require (got \(mode.prefix(20)))")
        }
        self.host = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        self.port = components.port ?? 5432
        // URLComponents has decoded them already (%40 is "@").
        self.username = user
        self.password = components.password
        self.database = database
        self.tlsMode = mode
    }

    public var description: String {
        "postgres://\(username)\(password == nil ? "" : ":***")@\(host):\(port)/\(database)"
    }

    /// The client configuration, with a pool of at most `maxConnections`.
    func clientConfiguration(maxConnections: Int) -> PostgresClient.Configuration {
        let tls: PostgresClient.Configuration.TLS = switch tlsMode {
        case "disable": .disable
        case "require": .require(.makeClientConfiguration())
        default: .prefer(.makeClientConfiguration())
        }
        var configuration = PostgresClient.Configuration(host: host, port: port, username: username,
                                                         password: password, database: database, tls: tls)
        configuration.options.maximumConnections = maxConnections
        configuration.options.connectTimeout = .seconds(5)
        // The locks that keep replicas correct need READ COMMITTED (a later snapshot sees what
        // the previous lock holder committed), whatever the database's default; and nothing may
        // wait for ever: a lock held by a frozen replica, a statement, a transaction left open.
        // A photo's transaction includes its S3 PUT (at most three 10 s attempts).
        configuration.options.additionalStartupParameters = [
            ("application_name", "petspot-server"),
            ("default_transaction_isolation", "read committed"),
            ("lock_timeout", "45s"),
            ("statement_timeout", "60s"),
            ("idle_in_transaction_session_timeout", "60s"),
        ]
        return configuration
    }
}
