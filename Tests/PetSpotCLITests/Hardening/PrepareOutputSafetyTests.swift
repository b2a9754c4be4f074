#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import PhotoPipeline
import Testing

/// `photo prepare` never destroys a file it should not: its input, an existing output without
/// `--force`, a device, a FIFO or a symbolic link; outputs follow the umask; `-` is stdin/stdout.
@Suite struct PrepareOutputSafetyTests {
    private let samplePhoto = PhotoFixtures.testImage("sample-photo.jpg")

    /// Runs `script` with `/bin/sh` in `folder`, `$PETSPOT` naming the binary.
    private func shell(_ script: String, in folder: URL, timeout: Duration = .seconds(60)) async throws -> CLIResult {
        try await CLIRunner.run(URL(fileURLWithPath: "/bin/sh"), ["-c", script], in: folder,
                                environment: ["PETSPOT": try CLIRunner.petspotURL().path], timeout: timeout)
    }

    private func fileType(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
    }

    private func permissions(_ path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
    }

    private func uprightSize(_ path: String) throws -> PixelSize {
        try PhotoPipeline.inspect(PhotoFixtures.bytes(path)).uprightSize
    }

    @Test(arguments: ["a", "b.jpg", "x"])
    func aBareOneLetterOutputNameIsWrittenInTheCurrentFolder(_ name: String) async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let result = try await CLIRunner.petspot(["photo", "prepare", samplePhoto, "-o", name], in: folder)

            #expect(result.exitCode == 0, "\(result)")
            #expect(try uprightSize(folder.appendingPathComponent(name).path) == PixelSize(width: 1200, height: 1600))
            #expect(try PhotoFixtures.contents(of: folder) == [name])
        }
    }

    @Test func aLongMultibyteOutputNameIsWritten() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let name = "a" + String(repeating: "é", count: 121) + ".jpg"  // 247 bytes: the temporary name cuts inside an é
            let result = try await CLIRunner.petspot(["photo", "prepare", samplePhoto, "-o", name], in: folder)

            #expect(result.exitCode == 0, "\(result)")
            #expect(try PhotoFixtures.contents(of: folder) == [name])
        }
    }

    @Test func dashOutputWritesThePhotoToStandardOutputAndTheReportToStandardError() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let result = try await shell("\"$PETSPOT\" photo prepare \(CLIRunner.shellQuoted(samplePhoto)) -o - > piped.jpg", in: folder)

            #expect(result.exitCode == 0, "\(result)")
            #expect(result.stderr.contains("Prepared 1 of 1 photo"), "\(result)")
            #expect(try uprightSize(folder.appendingPathComponent("piped.jpg").path) == PixelSize(width: 1200, height: 1600))
            #expect(try PhotoFixtures.contents(of: folder) == ["piped.jpg"], "no file named -")
        }
    }

    @Test func dashInputReadsStandardInputForPrepareAndInspect() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let quoted = CLIRunner.shellQuoted(samplePhoto)
            let prepared = try await shell("\"$PETSPOT\" photo prepare - -o out.webp < \(quoted)", in: folder)
            let inspected = try await shell("cat \(quoted) | \"$PETSPOT\" photo inspect - --json", in: folder)

            #expect(prepared.exitCode == 0, "\(prepared)")
            #expect(try PhotoPipeline.inspect(PhotoFixtures.bytes(folder.appendingPathComponent("out.webp").path)).type == .webp)
            #expect(inspected.exitCode == 0, "\(inspected)")
            let record = try #require(try inspected.jsonArray().first)
            #expect(record["file"] as? String == "-")
            #expect(record["width"] as? Int == 1200, "\(record)")
        }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "util-linux `script` gives a pty"))
    func imageBytesAreNotWrittenToATerminal() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let command = [try CLIRunner.petspotURL().path, "photo", "prepare", samplePhoto, "-o", "-"]
                .map(CLIRunner.shellQuoted).joined(separator: " ")
            let result = try await CLIRunner.run(URL(fileURLWithPath: "/usr/bin/script"), ["-qec", command, "/dev/null"],
                                                 in: folder, timeout: .seconds(30))

            #expect(result.exitCode == 64, "\(result)")
            #expect(result.stdout.contains("which is a terminal"), "\(result)")
            #expect(!result.stdout.contains("JFIF") && !result.stdout.contains("\u{FFFD}"), "image bytes reached the terminal")
        }
    }

    @Test func jsonWithStandardOutputAsTheOutputIsAUsageError() async throws {
        let result = try await CLIRunner.petspot(["photo", "prepare", samplePhoto, "-o", "-", "--json"])
        #expect(result.exitCode == 64, "\(result)")
        #expect(result.stdout.isEmpty)
    }

    @Test(arguments: [["-o", "orig.jpg"], ["--out-dir", "."], ["-o", "./orig.jpg", "--force"], ["-o", "hard.jpg", "--force"]])
    func theInputIsNeverOverwrittenEvenWithForce(_ outputArguments: [String]) async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let original = folder.appendingPathComponent("orig.jpg")
            try FileManager.default.copyItem(atPath: samplePhoto, toPath: original.path)
            try FileManager.default.linkItem(at: original, to: folder.appendingPathComponent("hard.jpg"))
            let before = try PhotoFixtures.bytes(original.path)

            let result = try await CLIRunner.petspot(["photo", "prepare", "orig.jpg"] + outputArguments, in: folder)

            #expect(result.exitCode == 73, "\(result)")
            #expect(result.stderr.contains("the input file itself"), "\(result.stderr)")
            #expect(try PhotoFixtures.bytes(original.path) == before, "the original was changed")
            #expect(try PhotoFixtures.temporaryFiles(in: folder).isEmpty)
        }
    }

    @Test func anotherInputOfTheBatchIsNeverOverwrittenEvenWithForce() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            try FileManager.default.copyItem(atPath: PhotoFixtures.testImage("png-rgba-alpha.png"),
                                             toPath: folder.appendingPathComponent("a.png").path)
            try FileManager.default.copyItem(atPath: samplePhoto, toPath: folder.appendingPathComponent("y.jpg").path)
            // a.png's output ./a.jpg is a link to the other input, y.jpg.
            try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("a.jpg").path, withDestinationPath: "y.jpg")
            let before = try PhotoFixtures.bytes(folder.appendingPathComponent("y.jpg").path)

            let result = try await CLIRunner.petspot(["photo", "prepare", "a.png", "y.jpg", "--out-dir", "out", "--force"], in: folder)
            let sameFolder = try await CLIRunner.petspot(["photo", "prepare", "a.png", "y.jpg", "--out-dir", ".", "--force"], in: folder)

            #expect(result.exitCode == 0, "\(result)")
            #expect(sameFolder.exitCode == 73, "\(sameFolder)")
            #expect(sameFolder.stderr.contains("a.jpg: it is the input file itself") || sameFolder.stderr.contains("Not writing ./a.jpg"),
                    "\(sameFolder.stderr)")
            #expect(try PhotoFixtures.bytes(folder.appendingPathComponent("y.jpg").path) == before)
        }
    }

    @Test func anExistingOutputIsKeptWithoutForceAndReplacedWithIt() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let out = folder.appendingPathComponent("out.jpg").path
            try Data("keep me".utf8).write(to: URL(fileURLWithPath: out))

            let refused = try await CLIRunner.petspot(["photo", "prepare", samplePhoto, "-o", out])
            #expect(refused.exitCode == 73, "\(refused)")
            #expect(refused.stderr.contains("--force"), "\(refused.stderr)")
            #expect(try String(contentsOfFile: out, encoding: .utf8) == "keep me")

            let forced = try await CLIRunner.petspot(["photo", "prepare", samplePhoto, "-o", out, "--force"])
            #expect(forced.exitCode == 0, "\(forced)")
            #expect(try uprightSize(out) == PixelSize(width: 1200, height: 1600))
        }
    }

    @Test func newOutputsFollowTheUmaskAndAnExistingFileKeepsItsMode() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let photo = CLIRunner.shellQuoted(samplePhoto)
            let created = try await shell("umask 027; exec \"$PETSPOT\" photo prepare \(photo) -o new.jpg", in: folder)
            let existing = folder.appendingPathComponent("private.jpg").path
            try Data("old".utf8).write(to: URL(fileURLWithPath: existing))
            chmod(existing, 0o600)
            let replaced = try await shell("umask 022; exec \"$PETSPOT\" photo prepare \(photo) -o private.jpg --force", in: folder)

            #expect(created.exitCode == 0, "\(created)")
            #expect(permissions(folder.appendingPathComponent("new.jpg").path) == 0o640)
            #expect(replaced.exitCode == 0, "\(replaced)")
            #expect(permissions(existing) == 0o600, "an existing 0600 file must stay 0600")
            #expect(try uprightSize(existing) == PixelSize(width: 1200, height: 1600))
        }
    }

    @Test func aCharacterDeviceIsWrittenThroughNotReplaced() async throws {
        let result = try await CLIRunner.petspot(["photo", "prepare", samplePhoto, "-o", "/dev/null"])

        #expect(result.exitCode == 0, "\(result)")
        #expect(fileType("/dev/null") == S_IFCHR, "/dev/null must stay a character device")
    }

    @Test func aFullDiskExits74AsTheHelpSays() async throws {
        let result = try await CLIRunner.petspot(["photo", "prepare", samplePhoto, "-o", "/dev/full"])

        #expect(result.exitCode == 74, "\(result)")
        #expect(result.stderr.contains("the disk is full"), "\(result.stderr)")
        #expect(fileType("/dev/full") == S_IFCHR)
    }

    @Test func aFIFOOutputIsWrittenToWhenSomeoneReadsAndRefusedWhenNobodyDoes() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let fifo = folder.appendingPathComponent("pipe").path
            #expect(mkfifo(fifo, 0o600) == 0)

            let unread = try await CLIRunner.petspot(["photo", "prepare", samplePhoto, "-o", fifo], timeout: .seconds(20))
            #expect(unread.exitCode == 73, "\(unread)")
            #expect(unread.stderr.contains("no program is reading"), "\(unread.stderr)")

            let reader = try RunningProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "cat pipe > captured.jpg"], in: folder)
            var written: CLIResult?
            for _ in 0..<50 where written?.exitCode != 0 {
                // The reader may not have opened the FIFO yet: then the write is refused, not blocked.
                written = try await CLIRunner.petspot(["photo", "prepare", samplePhoto, "-o", fifo], timeout: .seconds(20))
                if written?.exitCode != 0 { try await Task.sleep(for: .milliseconds(100)) }
            }
            let read = await reader.result(timeout: .seconds(20))

            #expect(written?.exitCode == 0, "\(String(describing: written))")
            #expect(read.exitCode == 0, "\(read)")
            #expect(fileType(fifo) == S_IFIFO, "the FIFO must stay a FIFO")
            #expect(try uprightSize(folder.appendingPathComponent("captured.jpg").path) == PixelSize(width: 1200, height: 1600))
        }
    }

    @Test func aSymbolicLinkStaysALinkAndItsTargetIsReplaced() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let target = folder.appendingPathComponent("target.jpg").path
            let link = folder.appendingPathComponent("link.jpg").path
            try FileManager.default.copyItem(atPath: PhotoFixtures.testImage("jpeg-baseline.jpg"), toPath: target)
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.jpg")
            let dangling = folder.appendingPathComponent("dangling.jpg").path
            try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "nowhere/missing.jpg")

            let refused = try await CLIRunner.petspot(["photo", "prepare", samplePhoto, "-o", link])
            let forced = try await CLIRunner.petspot(["photo", "prepare", samplePhoto, "-o", link, "--force"])
            let toNothing = try await CLIRunner.petspot(["photo", "prepare", samplePhoto, "-o", dangling])

            #expect(refused.exitCode == 73, "\(refused)")
            #expect(forced.exitCode == 0, "\(forced)")
            #expect(fileType(link) == S_IFLNK, "the link must stay a link")
            #expect(try uprightSize(target) == PixelSize(width: 1200, height: 1600))
            #expect(toNothing.exitCode == 73, "\(toNothing)")
            #expect(fileType(dangling) == S_IFLNK)
            #expect(try PhotoFixtures.temporaryFiles(in: folder).isEmpty)
        }
    }

    @Test(arguments: [["photo", "inspect"], ["photo", "prepare", "-o", "out.jpg"]])
    func aFIFOInputIsRefusedAtOnceInsteadOfWaitedOn(_ command: [String]) async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            #expect(mkfifo(folder.appendingPathComponent("in.jpg").path, 0o600) == 0)

            let result = try await CLIRunner.petspot(command + ["in.jpg"], in: folder, timeout: .seconds(20))

            #expect(result.exitCode == 66, "\(result)")
            #expect(result.stderr.contains("FIFO"), "\(result.stderr)")
        }
    }
}
