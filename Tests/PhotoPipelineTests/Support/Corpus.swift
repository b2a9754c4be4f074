import Foundation
import PhotoPipeline
import Testing

/// The shared third-party corpus (`$PETSPOT_CORPUS`, else `../shared/corpus` beside the package).
enum Corpus {
    static let root: URL? = {
        if let path = ProcessInfo.processInfo.environment["PETSPOT_CORPUS"], !path.isEmpty {
            let url = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            return url.standardizedFileURL
        }
        let sibling = Fixtures.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        return FileManager.default.fileExists(atPath: sibling.path) ? sibling : nil
    }()

    static var isAvailable: Bool { root != nil }

    static func url(_ relative: String) -> URL {
        root!.appendingPathComponent(relative)
    }

    static func bytes(_ relative: String) throws -> [UInt8] {
        try FileIO.read(url(relative).path)
    }

    /// One entry of `expectations.json`.
    struct Expectation: Decodable, Sendable, CustomTestStringConvertible {
        let path: String
        var valid: Bool
        let mime: String?
        let width: Int?
        let height: Int?
        let orientation: Int?
        let has_alpha: Bool?
        let animated: Bool?
        let has_gps: Bool?
        var error: String?
        var error_alternatives: [String]?
        let gps: GPS?
        let datetime_original: String?
        let has_icc: Bool?
        let extension_mismatch: Bool?
        let reference_upright: String?
        let stored_width: Int?
        let stored_height: Int?

        struct GPS: Decodable, Sendable { let lat: Double; let lon: Double }

        var testDescription: String { path }
        var acceptedErrors: [String] { [error].compactMap { $0 } + (error_alternatives ?? []) }
    }

    private struct File: Decodable { let files: [Expectation] }

    /// Entries where the pipeline's verdict differs from `expectations.json` on purpose, with the
    /// evidence; the corpus owner should update the file, then the entry goes.
    /// - `pillow-hopper_bad_exif.jpg`: marked valid because djpeg's *first* warning is the tolerated
    ///   "extraneous bytes"; `djpeg -verbose -verbose -verbose` shows 8 × "bad Huffman code" and 2 ×
    ///   "premature end of data segment" after it, and the decoded 500×500 picture is horizontal
    ///   streaks of garbage. Policy: damaged scan data is refused like truncation.
    static let disputed: [String: (error: String, alternatives: [String])] = [
        "camera-exif/pillow-hopper_bad_exif.jpg": ("corrupt", ["truncated"]),
    ]

    static let expectations: [Expectation] = {
        guard let root else { return [] }
        guard let data = try? Data(contentsOf: root.appendingPathComponent("expectations.json")),
              let file = try? JSONDecoder().decode(File.self, from: data) else {
            fatalError("cannot read expectations.json in \(root.path)")
        }
        // With libheif, heif/expectations.json decides HEIC/HEIF/AVIF files (see HEIFCorpus).
        return file.files.filter { !HEIFCorpus.supersedes($0) }.map { entry in
            guard let verdict = disputed[entry.path] else { return entry }
            var changed = entry
            (changed.valid, changed.error, changed.error_alternatives) = (false, verdict.error, verdict.alternatives)
            return changed
        }
    }()

    /// The main entries for HEIC/HEIF/AVIF content, which `heif/expectations.json` supersedes.
    static let heifEntries: [Expectation] = {
        guard let root, let data = try? Data(contentsOf: root.appendingPathComponent("expectations.json")),
              let file = try? JSONDecoder().decode(File.self, from: data) else { return [] }
        return file.files.filter(HEIFCorpus.supersedes)
    }()
}

/// The project's own samples in `TestImages/`.
enum Fixtures {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func url(_ name: String) -> URL {
        packageRoot.appendingPathComponent("TestImages").appendingPathComponent(name)
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        try FileIO.read(url(name).path)
    }
}
