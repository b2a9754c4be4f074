import Foundation

/// Where PetSpot keeps state that must outlive the cache (report drafts, later the submission
/// journal): `--state-dir` > `PETSPOT_STATE_DIR` > `$XDG_STATE_HOME/petspot` (only when absolute,
/// as the XDG Base Directory spec requires) > `~/.local/state/petspot`.
public struct StateLocation: Sendable, Hashable {
    /// The state's root folder.
    public let root: URL
    /// Which rule chose it, for messages.
    public let source: Source

    /// The rule that chose a location.
    public enum Source: String, Sendable {
        case flag = "--state-dir"
        case environment = "PETSPOT_STATE_DIR"
        case xdg = "XDG_STATE_HOME"
        case home = "~/.local/state"
    }

    /// Creates a location from a root folder.
    public init(root: URL, source: Source) {
        self.root = root
        self.source = source
    }

    /// Resolves the folder from an explicit flag value and the environment.
    /// - Parameters:
    ///   - flag: The `--state-dir` value, if given; empty counts as not given.
    ///   - environment: The process environment (`PETSPOT_STATE_DIR`, `XDG_STATE_HOME`, `HOME`).
    /// - Returns: The first rule that applies; a relative `XDG_STATE_HOME` is ignored.
    public static func resolve(flag: String? = nil,
                               environment: [String: String] = ProcessInfo.processInfo.environment) -> StateLocation {
        if let flag, !flag.isEmpty {
            return StateLocation(root: URL(fileURLWithPath: flag).standardizedFileURL, source: .flag)
        }
        if let dir = environment["PETSPOT_STATE_DIR"], !dir.isEmpty {
            return StateLocation(root: URL(fileURLWithPath: dir).standardizedFileURL, source: .environment)
        }
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
            return StateLocation(root: URL(fileURLWithPath: xdg).appendingPathComponent("petspot"), source: .xdg)
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return StateLocation(root: URL(fileURLWithPath: home).appendingPathComponent(".local/state/petspot"), source: .home)
    }

    /// The folder holding one draft file per flow: `<root>/drafts`.
    public var draftsFolder: URL { root.appendingPathComponent("drafts", isDirectory: true) }
}
