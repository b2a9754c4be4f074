import Foundation
import Testing

/// `photo prepare DIR --out-dir D` run again after an interruption carries on: what the first
/// run finished from the same photo and options is skipped and counted as such, the rest is
/// prepared; `--force` prepares everything again; an output the command did not make, or made
/// from other options, is still never overwritten without `--force`. The built binary.
@Suite struct PrepareRerunTests {
    @Test func aRerunSkipsWhatWasFinishedAndForceRedoesAll() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let input = folder.appendingPathComponent("in"), out = folder.appendingPathComponent("out")
            try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
            for name in ["a", "b", "c", "d"] {
                try FileManager.default.copyItem(atPath: PhotoFixtures.testImage("jpeg-baseline.jpg"),
                                                 toPath: input.appendingPathComponent("\(name).jpg").path)
            }
            let command = ["photo", "prepare", input.path, "--out-dir", out.path, "--max-dimension", "64"]
            let state = ["PETSPOT_STATE_DIR": folder.appendingPathComponent("state").path]
            let first = try await CLIRunner.petspot(command, environment: state)
            #expect(first.exitCode == 0, "\(first)")
            // As if the first run had been stopped after two photos.
            try FileManager.default.removeItem(at: out.appendingPathComponent("c.jpg"))
            try FileManager.default.removeItem(at: out.appendingPathComponent("d.jpg"))
            let kept = try PhotoFixtures.bytes(out.appendingPathComponent("a.jpg").path)

            let again = try await CLIRunner.petspot(command, environment: state)
            #expect(again.exitCode == 0, "\(again)")
            #expect(again.stdout.contains("Prepared 2 of 4 photos (2 done already by an earlier run, skipped)"), "\(again.stdout)")
            #expect(again.stdout.contains("skip   \(input.path)/a.jpg → \(out.path)/a.jpg"), "\(again.stdout)")
            #expect(try PhotoFixtures.contents(of: out) == ["a.jpg", "b.jpg", "c.jpg", "d.jpg"], "the output folder holds the photos only")
            #expect(try PhotoFixtures.bytes(out.appendingPathComponent("a.jpg").path) == kept)
            let json = try await CLIRunner.petspot(command + ["--json"], environment: state)
            #expect(try json.jsonArray().filter { $0["skipped"] as? Bool == true }.count == 4, "\(json)")

            // Other options: the outputs are not theirs, so not overwritten without --force.
            let other = try await CLIRunner.petspot(["photo", "prepare", input.path, "--out-dir", out.path, "--max-dimension", "32"], environment: state)
            #expect(other.exitCode == 73 && (other.stdout + other.stderr).contains("the file exists already"), "\(other)")
            // A changed source is prepared again only with --force too: its output is not from it.
            try FileManager.default.copyItem(atPath: PhotoFixtures.testImage("sample-photo.jpg"), toPath: input.appendingPathComponent("e.jpg").path)
            try Data("mine".utf8).write(to: out.appendingPathComponent("e.jpg"))
            let mine = try await CLIRunner.petspot(command, environment: state)
            let left = String(decoding: try PhotoFixtures.bytes(out.appendingPathComponent("e.jpg").path), as: UTF8.self)
            #expect(mine.exitCode == 73 && left == "mine", "a file the command did not make is never overwritten: \(mine)")

            let forced = try await CLIRunner.petspot(command + ["--force"], environment: state)
            #expect(forced.exitCode == 0 && forced.stdout.contains("Prepared 5 of 5 photos in"), "\(forced)")
        }
    }
}
