import Foundation
import TestProcesses

/// `../shared/tools/check-multipart.py`: Python's standard library and Werkzeug parse a body
/// written to disk; we read both parsers' results.
enum PythonChecker {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/tools/check-multipart.py")

    struct Report: Decodable {
        struct Part: Decodable, Equatable {
            var name: String?
            var filename: String?
            var content_type: String?
            var size: Int
            var sha256: String
        }

        var agree: Bool
        var results: [String: [Part]]
        var errors: [String: String]
    }

    /// Whether python3 with Werkzeug is there (CI installs it).
    static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: script.path) && run(["-c", "import werkzeug"]).status == 0
    }

    static func check(_ body: [UInt8], contentType: String) throws -> Report {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("petspot-multipart-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bodyFile = folder.appendingPathComponent("body.bin")
        try Data(body).write(to: bodyFile)
        let result = run([script.path, bodyFile.path, "--content-type", contentType, "--json"])
        return try JSONDecoder().decode(Report.self, from: result.stdout)
    }

    private static func run(_ arguments: [String]) -> (status: Int32, stdout: Data) {
        guard let process = try? ChildProcess("/usr/bin/env", ["python3"] + arguments, output: .pipe) else { return (127, Data()) }
        let data = process.standardOutput!.readDataToEndOfFile()
        return (process.waitForExit(), data)
    }
}
