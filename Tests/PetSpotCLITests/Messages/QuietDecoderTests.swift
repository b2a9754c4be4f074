import Foundation
import Testing

/// Decoding AVIF (libheif with libdav1d) and HEIC writes nothing of the libraries' own to
/// stderr: a prepare or inspect run prints only our lines.
@Suite(.enabled(if: PhotoFixtures.hasCorpus, "needs PETSPOT_CORPUS")) struct QuietDecoderTests {
    static func foreignLines(_ stderr: String) -> [Substring] {
        stderr.split(separator: "\n").filter { !$0.hasPrefix("error: ") }
    }

    @Test func heifFamilyFilesLeaveStderrEmpty() async throws {
        let folder = PhotoFixtures.corpusFile("heif")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
            .filter { $0.hasSuffix(".avif") || $0.hasSuffix(".heic") }.sorted()
        #expect(names.filter { $0.hasSuffix(".avif") }.count >= 3, "\(names)")
        try await PhotoFixtures.withScratchFolder { scratch in
            for name in names {
                let input = folder + "/" + name
                let out = scratch.appendingPathComponent("out.jpg").path
                // --json: our report goes to stdout and our refusals start "error: ", so any other
                // stderr line is a library's own.
                let prepared = try await CLIRunner.petspot(["photo", "prepare", input, "-o", out, "--force", "--json"])
                #expect(Self.foreignLines(prepared.stderr).isEmpty, "\(name): \(prepared.stderr)")
                let inspected = try await CLIRunner.petspot(["photo", "inspect", input, "--json"])
                #expect(Self.foreignLines(inspected.stderr).isEmpty, "\(name): \(inspected.stderr)")
            }
        }
    }
}
