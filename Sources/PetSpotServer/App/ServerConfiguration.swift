import Foundation

/// Everything `petspot-server` can be told on its command line.
public struct ServerConfiguration: Sendable {
    public var host: String
    /// 0 picks a free port.
    public var port: Int
    /// Holds `petspot-server.sqlite`, `photos/` and `tmp/`.
    public var dataDirectory: String
    /// The base of the photo URLs handed out; `http://host:port` when `nil`.
    public var publicURL: String?
    /// The largest photo part accepted, in bytes.
    public var maxPhotoBytes: Int
    /// The largest declared pixel count decoded.
    public var maxPhotoPixels: Int
    /// Photos decoded at once.
    public var processingConcurrency: Int
    /// The keys management passwords are checked with (``PasswordKeyring``); `nil`: the
    /// embedded installation's own, `password-keys` in the data directory (made at first start).
    /// A server on PostgreSQL must be given them: every replica needs the same.
    public var passwordKeys: PasswordKeyring?
    /// How many wrong passwords are checked before 429.
    public var authThrottle = AuthThrottlePolicy()
    /// Proxies whose `X-Forwarded-For` names the client (exact IP addresses).
    public var trustedProxies: [String] = []
    /// PostgreSQL for announcements, idempotency records and password attempts; `nil`: the
    /// embedded SQLite file in the data directory.
    public var databaseURL: DatabaseURL?
    /// Connections this replica's pool opens to PostgreSQL at most.
    public var databaseConnections = 16
    /// How long a request waits for a database connection before it is answered 503.
    public var databaseTimeout: Duration = .seconds(5)
    /// How long one request to the S3 store may take before it is retried.
    public var s3Timeout: Duration = .seconds(10)
    /// Where photos are kept: the data directory (default) or an S3-compatible bucket.
    public var photoStore = PhotoStoreChoice.disk
    /// Timeouts, rates and counts per connection.
    public var connectionLimits = ConnectionLimits()

    /// Declared pixels decoded at once over all uploads (about 4 bytes of memory each).
    public var decodePixelBudget = defaultDecodePixelBudget
    /// Per-client request rates.
    public var rateLimits = RateLimits()
    /// Photo uploads received or processed at once; beyond it, 503 with Retry-After at once.
    public var maxUploadsInFlight = 32
    /// The relay and sender of the server's mail; `nil`: no mail (the pages say what needs it).
    public var mail: MailSettings?

    public static let defaultMaxPhotoBytes = 20_000_000
    public static let defaultDecodePixelBudget = 64_000_000

    public init(host: String = "127.0.0.1", port: Int = 8080, dataDirectory: String,
                publicURL: String? = nil, maxPhotoBytes: Int = defaultMaxPhotoBytes,
                maxPhotoPixels: Int = 50_000_000,
                processingConcurrency: Int = ProcessInfo.processInfo.activeProcessorCount,
                passwordKeys: PasswordKeyring? = nil) {
        self.host = host
        self.port = port
        self.dataDirectory = dataDirectory
        self.publicURL = publicURL
        self.maxPhotoBytes = maxPhotoBytes
        self.maxPhotoPixels = maxPhotoPixels
        self.processingConcurrency = processingConcurrency
        self.passwordKeys = passwordKeys
    }

    /// `$XDG_DATA_HOME/petspot-server` when that is absolute, else `~/.local/share/petspot-server`.
    public static func defaultDataDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return xdg + "/petspot-server"
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/petspot-server"
    }
}

/// Where `petspot-server` keeps photos.
public enum PhotoStoreChoice: Sendable {
    /// `photos/` in the data directory.
    case disk
    /// A bucket (and prefix) on an S3-compatible store.
    case s3(S3Location, AWSCredentials)
}
