import Foundation
import Synchronization

/// Fresh folders under the system's temporary directory for tests, removed when the test process
/// ends. Many outlive their test on purpose (a server's data directory while its process is being
/// killed, a file a multipart body still streams from), so they are not removed one by one: a
/// run used to leave a thousand of them in /tmp.
public enum ScratchFolder {
    private static let made = Mutex<[String]>([])
    private static let removedAtExit: Void = {
        atexit { ScratchFolder.removeAll() }
    }()

    /// A new folder named `petspot-<label>-<random>`.
    public static func make(_ label: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("petspot-\(label)-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        _ = removedAtExit
        made.withLock { $0.append(path) }
        return path
    }

    private static func removeAll() {
        for path in made.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) }
    }
}
