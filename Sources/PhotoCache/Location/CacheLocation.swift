import Foundation

/// Where the photo cache lives: `--cache-dir` > `PETSPOT_CACHE_DIR` > `$XDG_CACHE_HOME/petspot`
/// (only when absolute, as the XDG Base Directory spec requires) > `~/.cache/petspot`.
public struct CacheLocation: Sendable, Hashable {
    /// The cache's root folder.
    public let root: URL
    /// Which rule chose it, for `cache path` and messages.
    public let source: Source

    public enum Source: String, Sendable {
        case flag = "--cache-dir"
        case environment = "PETSPOT_CACHE_DIR"
        case xdg = "XDG_CACHE_HOME"
        case home = "~/.cache"
    }

    /// Resolves the folder from an explicit flag value and the environment.
    public static func resolve(flag: String? = nil,
                               environment: [String: String] = ProcessInfo.processInfo.environment) -> CacheLocation {
        if let flag, !flag.isEmpty {
            return CacheLocation(root: URL(fileURLWithPath: flag).standardizedFileURL, source: .flag)
        }
        if let dir = environment["PETSPOT_CACHE_DIR"], !dir.isEmpty {
            return CacheLocation(root: URL(fileURLWithPath: dir).standardizedFileURL, source: .environment)
        }
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return CacheLocation(root: URL(fileURLWithPath: xdg).appendingPathComponent("petspot"), source: .xdg)
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return CacheLocation(root: URL(fileURLWithPath: home).appendingPathComponent(".cache/petspot"), source: .home)
    }

    public init(root: URL, source: Source) {
        self.root = root
        self.source = source
    }
}
