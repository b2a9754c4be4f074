import Foundation

/// A fresh folder under /tmp for one test, removed by ``remove()``.
struct TemporaryDirectory {
    let url: URL
    var path: String { url.path }

    init(_ label: String = "cache") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("petspot-\(label)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A path inside the folder.
    func path(_ relative: String) -> String {
        url.appendingPathComponent(relative).path
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
