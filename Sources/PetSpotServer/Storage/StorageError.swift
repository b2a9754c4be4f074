import Foundation

/// What can go wrong below the routes, in storage the server owns.
public enum StorageError: Error, Sendable, CustomStringConvertible {
    /// The data directory cannot be created or written.
    case dataDirectory(path: String, reason: String)
    /// Another running server holds the data directory.
    case dataDirectoryInUse(path: String, holder: String)
    /// The storage cannot be written (full, read-only, failing): the server can answer reads
    /// but refuses writes with 503 until it can.
    case unavailable(path: String, reason: String)
    /// A stored row no longer parses (edited by hand, or written by a newer version).
    case damagedRow(String)
    /// A photo file cannot be written, read or removed.
    case photoIO(path: String, reason: String)
    /// The database or the object store does not answer now (down, restarting, unreachable):
    /// requests get 503 with a short Retry-After.
    case unreachable(what: String, reason: String)
    /// `--database-url` is not a usable PostgreSQL URL.
    case badDatabaseURL(String)
    /// The database was migrated by a newer petspot-server.
    case newerSchema(found: Int, known: Int)
    /// The password keys are missing or cannot be read; the whole sentence.
    case passwordKeys(String)

    public var description: String {
        switch self {
        case .dataDirectory(let path, let reason):
            "The data directory \(path) cannot be used: \(Self.clause(reason)). Choose another with --data-dir or fix its permissions."
        case .dataDirectoryInUse(let path, let holder):
            "The data directory \(path) is in use by another petspot-server (\(holder)). Two servers on one directory "
                + "would break each other's uploads: stop the other one, or give this one its own --data-dir."
        case .unavailable(let path, let reason):
            "The storage at \(path) cannot be written: \(Self.clause(reason)). Free space on the disk or fix the store, then try again."
        case .damagedRow(let id):
            "The stored announcement \(id.prefix(80)) cannot be read: the database was changed outside the server."
        case .photoIO(let path, let reason):
            "The photo file \(path) cannot be accessed: \(Self.clause(reason)). Check the disk and the data directory's permissions."
        case .unreachable(let what, let reason):
            "\(what.prefix(1).uppercased() + what.dropFirst()) does not answer: \(Self.clause(reason)). Check that it is running and reachable."
        case .badDatabaseURL(let reason):
            "The database URL cannot be used: \(Self.clause(reason))."
        case .newerSchema(let found, let known):
            "The database holds schema version \(found), newer than this petspot-server knows (\(known)): run the newer version, or restore a backup."
        case .passwordKeys(let sentence):
            sentence
        }
    }

    /// A reason from the system (often a whole sentence) inside a sentence of ours: no full
    /// stop of its own, so the message never says "permission..".
    static func clause(_ reason: String) -> String {
        var text = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        while text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
