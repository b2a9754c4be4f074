import Foundation
import Testing

/// What a newcomer meets first, through the built `petspot`: help that puts the commands first
/// and each command's own exit codes last, folders of photos, a found pet of unknown sex, an
/// international phone number, a misspelt variable.
@Suite struct FrontDoorTests {
    @Test func helpListsTheCommandsFirstAndEachCommandsOwnExitCodesLast() async throws {
        let root = try await CLIRunner.petspot(["--help"])
        #expect(root.exitCode == 0, "\(root)")
        let subcommands = try #require(root.stdout.range(of: "SUBCOMMANDS:"), "\(root.stdout)")
        let codes = try #require(root.stdout.range(of: "EXIT CODES"), "\(root.stdout)")
        #expect(subcommands.lowerBound < codes.lowerBound && root.stdout.hasPrefix("OVERVIEW:"), "\(root.stdout)")

        // `photo inspect` reads headers only: it cannot fail to write, so 73 and 74 are not listed.
        for arguments in [["photo", "inspect", "--help"], ["help", "photo", "inspect"]] {
            let inspect = try await CLIRunner.petspot(arguments)
            #expect(inspect.exitCode == 0, "\(inspect)")
            let listed = Self.exitCodes(inspect.stdout)
            #expect(listed == [0, 64, 65, 66], "\(arguments): \(listed)\n\(inspect.stdout)")
            #expect(inspect.stdout.range(of: "OPTIONS:")!.lowerBound < inspect.stdout.range(of: "EXIT CODES")!.lowerBound)
        }
        let prepare = try await CLIRunner.petspot(["photo", "prepare", "--help"])
        #expect(Self.exitCodes(prepare.stdout) == [0, 64, 65, 66, 70, 73, 74], "\(prepare.stdout)")
        let show = try await CLIRunner.petspot(["pet", "show", "--help"])
        #expect(Self.exitCodes(show.stdout).contains(69) && !Self.exitCodes(show.stdout).contains(73), "\(show.stdout)")
    }

    /// The codes an `EXIT CODES` block lists, in order.
    static func exitCodes(_ help: String) -> [Int] {
        guard let start = help.range(of: "EXIT CODES") else { return [] }
        return help[start.upperBound...].split(separator: "\n").compactMap { line in
            line.hasPrefix("  ") && !line.hasPrefix("      ") ? Int(line.split(separator: " ").first ?? "") : nil
        }
    }

    @Test func aFolderIsPreparedPhotoByPhotoSkippingWhatIsNotAPhoto() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let input = folder.appendingPathComponent("in"), sub = input.appendingPathComponent("sub")
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
            // Types found by their bytes, whatever the names say; a text file; a GIF; a hidden file.
            try FileManager.default.copyItem(atPath: PhotoFixtures.testImage("png-palette.png"), toPath: input.appendingPathComponent("b.png").path)
            try FileManager.default.copyItem(atPath: PhotoFixtures.testImage("webp-lossy.webp"), toPath: input.appendingPathComponent("c").path)
            try FileManager.default.copyItem(atPath: PhotoFixtures.testImage("jpeg-baseline.jpg"), toPath: sub.appendingPathComponent("b.jpg").path)
            try FileManager.default.copyItem(atPath: PhotoFixtures.testImage("heif-rgba-alpha.avif"), toPath: sub.appendingPathComponent("d.avif").path)
            try Data("not a photo".utf8).write(to: input.appendingPathComponent("notes.txt"))
            try Data("GIF89a\u{1}\u{0}\u{1}\u{0}".utf8).write(to: input.appendingPathComponent("e.gif"))
            try FileManager.default.copyItem(atPath: PhotoFixtures.testImage("jpeg-baseline.jpg"), toPath: input.appendingPathComponent(".hidden.jpg").path)
            let out = folder.appendingPathComponent("out")

            let flat = try await CLIRunner.petspot(["photo", "prepare", input.path, "--out-dir", out.path, "--max-dimension", "64"])
            #expect(flat.exitCode == 0, "\(flat)")
            #expect(try PhotoFixtures.contents(of: out) == ["b.jpg", "c.jpg"])
            #expect(flat.stderr.contains("skipped \(input.path)/notes.txt: not a photo (text/plain)"), "\(flat.stderr)")
            #expect(flat.stderr.contains("skipped \(input.path)/e.gif: an image of a type PetSpot does not take (image/gif)"), "\(flat.stderr)")
            #expect(flat.stderr.contains("skipped \(input.path)/sub/: a folder (add --recursive"), "\(flat.stderr)")
            #expect(!flat.stderr.contains(".hidden"), "\(flat.stderr)")

            try FileManager.default.removeItem(at: out)
            let deep = try await CLIRunner.petspot(["photo", "prepare", input.path, "--out-dir", out.path, "--max-dimension", "64",
                                                    "--recursive", "--format", "png"])
            #expect(deep.exitCode == 0, "\(deep)")
            // Two b's, kept apart by their subfolders.
            #expect(try PhotoFixtures.contents(of: out) == ["b.png", "c.png", "sub"])
            #expect(try PhotoFixtures.contents(of: out.appendingPathComponent("sub")) == ["b.png", "d.png"])
            #expect(try PhotoFixtures.bytes(out.appendingPathComponent("sub/d.png").path).prefix(4) == [0x89, 0x50, 0x4E, 0x47])

            // An output folder inside the folder read: a second run does not prepare the first's outputs.
            let inside = input.appendingPathComponent("prepared")
            for _ in 0..<2 {
                let run = try await CLIRunner.petspot(["photo", "prepare", input.path, "--out-dir", inside.path, "--recursive",
                                                       "--max-dimension", "64", "--force", "--json"])
                #expect(try run.exitCode == 0 && run.jsonArray().count == 4, "\(run)")
            }
            #expect(!FileManager.default.fileExists(atPath: inside.appendingPathComponent("prepared").path))
            try FileManager.default.removeItem(at: inside)

            // Nothing to write: the output folder is not made.
            let empty = folder.appendingPathComponent("empty"), broken = folder.appendingPathComponent("broken")
            try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: PhotoFixtures.testImage("bad-truncated.jpg"), toPath: broken.appendingPathComponent("x.jpg").path)
            let none = try await CLIRunner.petspot(["photo", "prepare", empty.path, "--out-dir", folder.appendingPathComponent("o1").path])
            #expect(none.exitCode == 66 && none.stderr.contains("holds no photo"), "\(none)")
            let failed = try await CLIRunner.petspot(["photo", "prepare", broken.path, "--out-dir", folder.appendingPathComponent("o2").path])
            #expect(failed.exitCode == 65, "\(failed)")
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("o1").path))
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("o2").path))

            let single = try await CLIRunner.petspot(["photo", "prepare", input.path, "-o", folder.appendingPathComponent("x.jpg").path])
            #expect(single.exitCode == 64 && single.stderr.contains("is a folder") && single.stderr.contains("--out-dir"), "\(single)")
        }
    }

    @Test func aFoundPetsSexMayBeUnknownAMissingOnesMayNot() async throws {
        try await ReportSandbox.with { sandbox in
            let found = try await sandbox.petspot(["report", "found", "--sex", "unknown"])
            #expect(found.exitCode == 0, "\(found)")
            #expect(!found.stdout.contains("Sex:"), "\(found.stdout)")
            #expect(try await sandbox.show("found").object("draft").object("animal")["gender"] as? String == "UNKNOWN")

            let missing = try await sandbox.petspot(["report", "missing", "--sex", "unknown"])
            #expect(missing.stdout.contains("Sex: Please select the sex (--sex)"), "\(missing.stdout)")
            let typo = try await sandbox.petspot(["report", "missing", "--sex", "mael"])
            #expect(typo.exitCode != 0 && typo.stderr.contains("'mael' is not a sex; choose male or female (or unknown, for a found pet)"),
                    "\(typo)")
            #expect(!typo.stderr.lowercased().contains("gender") && !missing.stdout.lowercased().contains("gender"))
        }
    }

    @Test func anInternationalNumberOfUpToFifteenDigitsIsAccepted() async throws {
        try await ReportSandbox.with { sandbox in
            let uk = try await sandbox.petspot(["report", "missing", "--phone", "+44 20 7946 0958"])
            #expect(uk.exitCode == 0 && !uk.stdout.contains("Phone:"), "\(uk)")
            let long = try await sandbox.petspot(["report", "missing", "--phone", "+86 138 0013 8000 1234"])
            #expect(long.stdout.contains("Phone: Enter at most 15 digits (--phone)"), "\(long.stdout)")
        }
    }

    @Test func aMisspeltVariableIsNamedAndOthersAreLeftAlone() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let result = try await CLIRunner.petspot(["cache", "path"], environment: [
                "PETSPOT_SEVER": "http://example.org", "PETSPOT_CACHE_DIR": folder.path, "PETSPOT_SOMETHING_ELSE": "x"])
            #expect(result.exitCode == 0, "\(result)")
            #expect(result.stderr.contains("warning: petspot does not read PETSPOT_SEVER; did you mean PETSPOT_SERVER?"), "\(result.stderr)")
            #expect(!result.stderr.contains("PETSPOT_SOMETHING_ELSE"), "\(result.stderr)")
        }
    }
}
