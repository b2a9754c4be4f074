/// An index row whose file does not match it.
public struct VerifyIssue: Sendable, Hashable, CustomStringConvertible {
    public enum Problem: Sendable, Hashable {
        /// The file is gone.
        case missingFile
        /// The file has another size than the index says (cut short, or replaced).
        case sizeMismatch(expected: Int, actual: Int)
        /// The file has the right size but other bytes (damaged on disk, or edited).
        case contentMismatch
        /// The file cannot be read.
        case unreadable(reason: String)
    }

    public var key: String
    /// Relative to the cache folder.
    public var path: String
    public var problem: Problem

    public init(key: String, path: String, problem: Problem) {
        self.key = key
        self.path = path
        self.problem = problem
    }

    /// Whether the row points at no file at all.
    public var isMissing: Bool { problem == .missingFile }

    public var description: String {
        switch problem {
        case .missingFile:
            "\(path): the file is missing"
        case .sizeMismatch(let expected, let actual):
            "\(path): the file has \(actual) bytes, the index says \(expected)"
        case .contentMismatch:
            "\(path): the file's bytes do not match its SHA-256 in the index (damaged or changed)"
        case .unreadable(let reason):
            "\(path): the file cannot be read (\(reason))"
        }
    }
}

/// What `cache verify` found (and, with repair, fixed).
public struct VerifyReport: Sendable, Hashable {
    /// Index rows whose file was re-hashed.
    public var checkedEntries: Int
    /// Rows whose file is missing, damaged or unreadable.
    public var issues: [VerifyIssue]
    /// Leftovers of interrupted writes: temporary files and files without a row.
    public var leftovers: [LeftoverFile]
    /// The problems above were fixed: bad rows dropped, bad files and leftovers removed.
    public var repaired: Bool
    /// Set when the index was rebuilt from the files first.
    public var indexRebuild: IndexRebuild?

    public init(checkedEntries: Int, issues: [VerifyIssue], leftovers: [LeftoverFile], repaired: Bool,
                indexRebuild: IndexRebuild? = nil) {
        self.checkedEntries = checkedEntries
        self.issues = issues
        self.leftovers = leftovers
        self.repaired = repaired
        self.indexRebuild = indexRebuild
    }

    /// Every row points at its complete, unchanged file (leftovers aside).
    public var isConsistent: Bool { issues.isEmpty }
    /// Consistent, and nothing left over either.
    public var isClean: Bool { issues.isEmpty && leftovers.isEmpty }
    /// Rows whose file matched.
    public var intactEntries: Int { checkedEntries - issues.count }
}
