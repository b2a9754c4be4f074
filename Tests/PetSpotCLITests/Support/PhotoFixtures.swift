import Foundation

/// Where the photo commands' test inputs live, and scratch folders for their outputs.
enum PhotoFixtures {
    /// The package root, found from this file's place in `Tests/PetSpotCLITests/Support/`.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The path of a file in `TestImages/`.
    static func testImage(_ name: String) -> String {
        packageRoot.appendingPathComponent("TestImages").appendingPathComponent(name).path
    }

    /// The shared third-party corpus (`$PETSPOT_CORPUS`, relative paths taken from the package root),
    /// or `nil` when the variable is unset.
    static var corpus: URL? {
        guard let value = ProcessInfo.processInfo.environment["PETSPOT_CORPUS"], !value.isEmpty else { return nil }
        return value.hasPrefix("/") ? URL(fileURLWithPath: value) : packageRoot.appendingPathComponent(value).standardizedFileURL
    }

    static var hasCorpus: Bool { corpus != nil }

    /// The path of a file in the corpus; call only from tests enabled by ``hasCorpus``.
    static func corpusFile(_ relativePath: String) -> String {
        (corpus ?? packageRoot).appendingPathComponent(relativePath).path
    }

    /// The whole content of a file.
    static func bytes(_ path: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Runs `body` with a new empty folder under the temporary directory, removed afterwards.
    static func withScratchFolder<T>(_ body: (URL) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("petspot-cli-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await body(folder)
    }

    /// The names in `folder`, hidden ones included, sorted.
    static func contents(of folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    /// Whether `name` is the temporary file of an atomic write (`.NAME.tmp-XXXXXX`, see `FileIO.writeAtomically`).
    static func isTemporaryWrite(_ name: String) -> Bool {
        name.hasPrefix(".") && name.contains(".tmp-")
    }

    /// Leftovers of atomic writes in `folder`.
    static func temporaryFiles(in folder: URL) throws -> [String] {
        try contents(of: folder).filter(isTemporaryWrite)
    }
}
