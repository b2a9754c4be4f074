/// A file in the cache that no index row accounts for.
public struct LeftoverFile: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        /// In `tmp/`, left by a process that died while writing.
        case temporary
        /// In `photos/` without an index row: left by a process that died between renaming the
        /// file into place and inserting its row, or put there by hand.
        case orphan
    }

    /// Relative to the cache folder.
    public var path: String
    public var bytes: Int
    public var kind: Kind

    public init(path: String, bytes: Int, kind: Kind) {
        self.path = path
        self.bytes = bytes
        self.kind = kind
    }
}
