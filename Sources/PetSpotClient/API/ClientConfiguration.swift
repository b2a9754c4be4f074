import Foundation
import PetSpot
import PetSpotVersion

/// Where the client talks to and how patiently.
public struct ClientConfiguration: Sendable, Hashable {
    /// Used when neither `--server` nor `PETSPOT_SERVER` says otherwise: the reference server's
    /// own default address (`petspot-server` with no options).
    public static let defaultServer = "http://127.0.0.1:8080"

    /// The server's base URL, without a trailing slash.
    public var server: String
    /// Time to establish a connection.
    public var connectTimeout: Duration
    /// Longest silence while waiting for the server's answer.
    public var readTimeout: Duration
    /// Retries of the photo step, and of the create step (which always carries its key).
    public var retry: RetryPolicy
    /// `petspot/<version>`.
    public var userAgent: String

    public init(server: String, connectTimeout: Duration = .seconds(10), readTimeout: Duration = .seconds(60),
                retry: RetryPolicy = .default, userAgent: String = "petspot/\(PetSpotVersion.current)") {
        self.server = server.hasSuffix("/") ? String(server.dropLast()) : server
        self.connectTimeout = connectTimeout
        self.readTimeout = readTimeout
        self.retry = retry
        self.userAgent = userAgent
    }

    /// `--server`, then `$PETSPOT_SERVER`, then ``defaultServer``; checked to be an http(s) URL.
    public static func resolveServer(flag: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws(SubmissionError) -> String {
        let fromFlag = flag != nil
        let chosen = flag ?? environment["PETSPOT_SERVER"].flatMap { $0.isEmpty ? nil : $0 } ?? defaultServer
        let source = fromFlag ? "--server" : "PETSPOT_SERVER"
        let shown = chosen.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : String($0) }.joined().prefix(200)
        if !chosen.contains("://") {
            // "127.0.0.1:8080", "pets.example.org": a host without a scheme.
            let looksLikeHost = !chosen.isEmpty && chosen.allSatisfy { $0.isLetter || $0.isNumber || ".-:[]".contains($0) }
            throw .configuration(looksLikeHost
                ? "The server URL \"\(shown)\" (\(source)) has no scheme: add http:// or https://, e.g. http://\(shown)."
                : "The server URL \"\(shown)\" (\(source)) is not a URL; give one such as \(defaultServer).")
        }
        guard let url = URL(string: chosen), let scheme = url.scheme?.lowercased() else {
            throw .configuration("The server URL \"\(shown)\" (\(source)) is not a URL; give one such as \(defaultServer).")
        }
        guard scheme == "http" || scheme == "https" else {
            throw .configuration("The server URL \"\(shown)\" (\(source)) uses \(scheme)://; PetSpot servers speak http:// or https://.")
        }
        guard let host = url.host, !host.isEmpty else {
            throw .configuration("The server URL \"\(shown)\" (\(source)) names no host; give one such as \(defaultServer).")
        }
        return withoutAPIPath(chosen)
    }

    /// The server's address without the API's own path: "http://host:8080/api/v1" (what the
    /// API's documentation shows) is the server at "http://host:8080", so requests never go to
    /// `/api/v1/api/v1/…`.
    static func withoutAPIPath(_ url: String) -> String {
        var base = url
        while base.hasSuffix("/") { base.removeLast() }
        for suffix in ["/api/v1", "/api"] where base.lowercased().hasSuffix(suffix) {
            return String(base.dropLast(suffix.count))
        }
        return base
    }
}
