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

    public var description: String {
        switch self {
        case .dataDirectory(let path, let reason):
            "The data directory \(path) cannot be used: \(reason). Choose another with --data-dir or fix its permissions."
        case .dataDirectoryInUse(let path, let holder):
            "The data directory \(path) is in use by another petspot-server (\(holder)). Two servers on one directory "
                + "would break each other's uploads: stop the other one, or give this one its own --data-dir."
        case .unavailable(let path, let reason):
            "The storage at \(path) cannot be written: \(reason). Free space on the disk or fix the store, then try again."
        case .damagedRow(let id):
            "The stored announcement \(id.prefix(80)) cannot be read: the database was changed outside the server."
        case .photoIO(let path, let reason):
            "The photo file \(path) cannot be accessed: \(reason). Check the disk and the data directory's permissions."
        }
    }
}
