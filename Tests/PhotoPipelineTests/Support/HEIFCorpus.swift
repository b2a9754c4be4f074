import Foundation
import PhotoPipeline
import Testing

/// `$PETSPOT_CORPUS/heif/`: HEIC/HEIF/AVIF cases, their upright reference PNGs and `expectations.json`.
enum HEIFCorpus {
    /// One entry of `heif/expectations.json`; `file` and `ref` are relative to `heif/`.
    struct Expectation: Decodable, Sendable, CustomTestStringConvertible {
        let file: String
        let outcome: String
        let width: Int?
        let height: Int?
        let ref: String?
        let ssim_min: Double?
        let reason: String?
        let reason_alternatives: [String]?
        let has_alpha: Bool?
        let bit_depth: Int?
        let top_level_images: Int?
        let colour_profile: String?
        let exif_orientation: Int?

        var testDescription: String { file }
        var path: String { "heif/" + file }
        var isOK: Bool { outcome == "ok" }

        /// Whether a pipeline error code matches `reason` or one of its alternatives.
        func accepts(_ code: String) -> Bool {
            ([reason].compactMap { $0 } + (reason_alternatives ?? [])).contains { reason in
                switch reason {
                case "too-large": code == "too-many-pixels" || code == "file-too-large"
                case "unsupported": code.hasPrefix("unsupported:")
                default: code == reason
                }
            }
        }
    }

    static let expectations: [Expectation] = {
        guard let root = Corpus.root else { return [] }
        guard let data = try? Data(contentsOf: root.appendingPathComponent("heif/expectations.json")),
              let list = try? JSONDecoder().decode([Expectation].self, from: data) else {
            fatalError("cannot read heif/expectations.json in \(root.path)")
        }
        return list
    }()

    /// Main-corpus entries refused only because HEIF input did not exist yet.
    static func supersedes(_ entry: Corpus.Expectation) -> Bool {
        ["image/heic", "image/heif", "image/avif"].contains(entry.mime ?? "")
            && (entry.error ?? "").hasPrefix("unsupported:image/")
    }
}
