import Foundation
import PhotoPipeline
import Testing
import TestProcesses

/// What the built `petspot photo prepare` writes for every corpus photo is a JPEG that every
/// decoder reads to the same picture: our libjpeg-turbo decode (which refuses damaged data), then
/// Pillow and headless Chromium against it (`scripts/decode-check.py`), at the default settings,
/// at a low quality at 1024 px, and progressive at a high quality.
@Suite struct PreparedJPEGDecodersTests {
    static let corpus = ProcessInfo.processInfo.environment["PETSPOT_CORPUS"] ?? "../shared/corpus"

    @Test(.enabled(if: FileManager.default.fileExists(atPath: corpus + "/photos"), "set PETSPOT_CORPUS to the shared corpus"))
    func everyCorpusPhotoDecodesInLibjpegPillowAndChromium() async throws {
        let folder = try makeTemporaryDirectory("decoders")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let petspot = try BuiltProduct.existing("petspot").path
        let settings: [(name: String, arguments: [String])] = [
            ("default", []),
            ("small", ["--max-dimension", "1024", "--quality", "60"]),
            ("progressive", ["--progressive", "--quality", "95"]),
        ]
        var pairs: [String] = []
        for setting in settings {
            let out = folder + "/" + setting.name
            _ = try await runProcess(petspot, ["photo", "prepare", Self.corpus + "/photos", "--out-dir", out, "--format", "jpeg",
                                               "--quiet"] + setting.arguments)
            let outputs = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".jpg") }.sorted()
            #expect(outputs.count == 9, "\(setting.name): \(outputs)")
            for name in outputs {
                let path = out + "/" + name
                let pixels = try PhotoPipeline.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
                let reference = try PipelineStages.encode(pixels, options: EncodingOptions(format: .png), iccProfile: nil)
                try Data(reference).write(to: URL(fileURLWithPath: path + ".png"))
                pairs.append(path + "=" + path + ".png")
            }
        }
        let (status, printed) = try await runProcessToEnd("/usr/bin/env", [
            "python3", PublicPagesBrowserTests.scripts.appendingPathComponent("decode-check.py").path] + pairs)
        try #require(status == 0 || status == 1, "decode-check.py exited \(status) (chromium and Pillow installed? scripts/install-test-deps.sh): \(printed)")
        let report = try JSONDecoder().decode(Report.self, from: Data(printed.split(separator: "\n").last.map(String.init)?.utf8 ?? "".utf8))
        #expect(report.files.count == pairs.count)
        for file in report.files {
            #expect(file.error == nil, "\(file.file): \(file.error ?? "")")
        }
        #expect(status == 0)
    }

    struct Report: Decodable {
        var files: [File]
    }

    struct File: Decodable {
        var file: String
        var error: String?
    }
}
