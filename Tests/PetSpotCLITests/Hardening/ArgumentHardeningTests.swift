import Foundation
import Testing

/// Options and arguments a new user gets wrong: each is a clear usage error (exit 64), never a
/// crash, never help printed with exit 0, and the exit status does not depend on argument order.
@Suite struct ArgumentHardeningTests {
    private let samplePhoto = PhotoFixtures.testImage("sample-photo.jpg")

    @Test(arguments: [
        (["--max-megapixels", "inf"], "--max-megapixels must be at most"),
        (["--max-megapixels", "1e13"], "--max-megapixels must be at most"),
        (["--max-megapixels", "nan"], "--max-megapixels must be at most"),
        (["--max-megapixels", "0"], "--max-megapixels must be > 0"),
        (["--decode-headroom", "inf"], "--decode-headroom must be at most"),
        (["--decode-headroom", "0.5"], "--decode-headroom must be 0 or ≥ 1"),
        (["--max-dimension", "-5"], "--max-dimension must be ≥ 1"),
        (["--max-dimension", "0"], "--max-dimension must be ≥ 1"),
        (["--max-dimension", "99999999"], "--max-dimension must be at most 65535"),
        (["--quality", "-1"], "--quality must be ≥ 1"),
        (["--quality", "101"], "--quality must be at most 100"),
        (["--jobs", "-2"], "--jobs must be ≥ 1"),
        (["--jobs", "0"], "--jobs must be ≥ 1"),
    ])
    func numericOptionsAreRangeCheckedWithAClearMessage(_ option: [String], message: String) async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let result = try await CLIRunner.petspot(["photo", "prepare", samplePhoto, "-o", "out.jpg"] + option, in: folder)

            #expect(result.exitCode == 64, "\(result)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
            #expect(!result.stderr.contains("Missing value"), "\(result.stderr)")
            #expect(try PhotoFixtures.contents(of: folder).isEmpty)
        }
    }

    @Test(arguments: [
        (["photo", "prepare", PhotoFixtures.testImage("sample-photo.jpg"), "-o", "x.jpg", "--max-bytes", "-5"], "--max-bytes '-5' is not a byte size"),
        (["cache", "list", "--limit", "-1"], "--limit must be ≥ 0 (got -1)"),
        (["cache", "prune", "--max-cache-age", "-3d"], "--max-cache-age '-3d' is not an age"),
        (["cache", "stats", "--max-cache-size", "-1MB"], "--max-cache-size '-1MB' is not a size"),
    ])
    func negativeValuesAreNamedNotMistakenForMissingValues(_ arguments: [String], message: String) async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let cacheDir = arguments[0] == "cache" ? ["--cache-dir", folder.appendingPathComponent("cache").path] : []
            let result = try await CLIRunner.petspot(arguments + cacheDir, in: folder)
            #expect(result.exitCode == 64, "\(result)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
            #expect(!result.stderr.contains("Missing value"), "\(result.stderr)")
        }
    }

    @Test(arguments: [["photo", "prepare", "-hamster.jpg"], ["photo", "inspect", "-cat.png"], ["photo", "prepare", "-h.webp", "-o", "x.jpg"]])
    func aFileNameStartingWithADashIsAnErrorWithAHint(_ arguments: [String]) async throws {
        let result = try await CLIRunner.petspot(arguments)

        #expect(result.exitCode == 64, "\(result)")
        #expect(result.stdout.isEmpty, "help must not be printed: \(result.stdout)")
        #expect(result.stderr.contains("./-"), "\(result.stderr)")
        #expect(result.stderr.contains("--"), "\(result.stderr)")
    }

    @Test func aDashedFileAfterDoubleDashIsReadAsAFile() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            try FileManager.default.copyItem(atPath: samplePhoto, toPath: folder.appendingPathComponent("-hamster.jpg").path)

            let result = try await CLIRunner.petspot(["photo", "inspect", "--", "-hamster.jpg"], in: folder)

            #expect(result.exitCode == 0, "\(result)")
            #expect(result.stdout.contains("1200"), "\(result.stdout)")
        }
    }

    @Test(arguments: [[String](), ["help", "bogus"], ["photo"], ["cache"], ["help", "photo", "bogus"]])
    func aMissingOrUnknownCommandIsAUsageError(_ arguments: [String]) async throws {
        let result = try await CLIRunner.petspot(arguments)

        #expect(result.exitCode == 64, "\(result)")
        #expect(result.stderr.contains("error:"), "\(result.stderr)")
    }

    @Test func helpForARealCommandStillWorks() async throws {
        let result = try await CLIRunner.petspot(["help", "photo", "prepare"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdout.contains("--force"))
    }

    @Test func theExitStatusDoesNotDependOnTheOrderOfTheArguments() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let missing = folder.appendingPathComponent("missing.jpg").path
            let notAnImage = PhotoFixtures.testImage("bad-not-an-image.jpg")
            for command in [["photo", "inspect"], ["photo", "prepare", "--out-dir", folder.path]] {
                let forward = try await CLIRunner.petspot(command + [missing, notAnImage])
                let backward = try await CLIRunner.petspot(command + [notAnImage, missing])

                #expect(forward.exitCode == 66, "\(command): \(forward)")
                #expect(backward.exitCode == 66, "\(command): \(backward)")
            }
        }
    }

    @Test func losslessOutputLinesDoNotClaimAQuality() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let result = try await CLIRunner.petspot(["photo", "prepare", samplePhoto, "-o", "out.webp", "--lossless",
                                                      "--max-dimension", "64"], in: folder)

            #expect(result.exitCode == 0, "\(result)")
            #expect(result.stdout.contains("out.webp"), "\(result.stdout)")
            #expect(!result.stdout.contains("q85"), "\(result.stdout)")
        }
    }

    @Test func anUnreachableJPEGBudgetDoesNotAdviseAgainstPNG() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let result = try await CLIRunner.petspot(["photo", "prepare", samplePhoto, "-o", "out.jpg", "--max-bytes", "1KB"], in: folder)

            #expect(result.exitCode == 65, "\(result)")
            #expect(result.stderr.contains("--max-bytes"), "\(result.stderr)")
            #expect(!result.stderr.contains("PNG"), "\(result.stderr)")
        }
    }

    @Test func controlCharactersInFileNamesAreEscapedWhenPrinted() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let name = "evil\u{1B}]0;owned\u{07}\u{1B}[2J.jpg"
            try FileManager.default.copyItem(atPath: samplePhoto, toPath: folder.appendingPathComponent(name).path)

            let inspected = try await CLIRunner.petspot(["photo", "inspect", name, "missing\u{1B}[31m.jpg"], in: folder)
            let prepared = try await CLIRunner.petspot(["photo", "prepare", name, "-o", "out.jpg"], in: folder)

            for result in [inspected, prepared] {
                #expect(!result.stdout.contains("\u{1B}") && !result.stderr.contains("\u{1B}") && !result.stdout.contains("\u{07}"),
                        "\(result)")
                #expect((result.stdout + result.stderr).contains("evil\\u{1B}]0;owned\\u{7}"), "\(result)")
            }
            #expect(inspected.stderr.contains("missing\\u{1B}[31m.jpg"), "\(inspected.stderr)")
        }
    }

    @Test func helpTextsMentionNoOutputFileForAddAndNoOriginalApp() async throws {
        let add = try await CLIRunner.petspot(["photo", "add", "--help"])
        #expect(add.exitCode == 0)
        #expect(!add.stdout.lowercased().contains("output file"), "\(add.stdout)")
        #expect(add.stdout.contains("--jobs") && add.stdout.contains("--quiet") && add.stdout.contains("--json"))
        for command in [["report", "discard"], ["report", "missing"], ["report", "found"], ["photo", "prepare"], ["cache", "prune"]] {
            let help = try await CLIRunner.petspot(command + ["--help"])
            #expect(!help.stdout.contains("original app"), "\(command): \(help.stdout)")
        }
    }

    @Test func quietPrintsNothingButErrors() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let ok = try await CLIRunner.petspot(["photo", "prepare", samplePhoto, "-o", "out.jpg", "-q"], in: folder)
            let failed = try await CLIRunner.petspot(["photo", "prepare", "missing.jpg", "-o", "other.jpg", "--quiet"], in: folder)

            #expect(ok.exitCode == 0 && ok.stdout.isEmpty && ok.stderr.isEmpty, "\(ok)")
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.jpg").path))
            #expect(failed.exitCode == 66 && failed.stdout.isEmpty && failed.stderr.contains("missing.jpg"), "\(failed)")
        }
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScriptsCoverTheCommands(_ shell: String) async throws {
        let result = try await CLIRunner.petspot(["--generate-completion-script", shell])
        #expect(result.exitCode == 0, "\(result)")
        for word in ["prepare", "inspect", "prune", "missing", "max-dimension", "force"] {
            #expect(result.stdout.contains(word), "\(shell) completion lacks \(word)")
        }
    }

    /// What the GenerateManual plugin reads to write the man page: the help of every command.
    @Test func theHelpDumpForTheManPageHasEveryCommand() async throws {
        let result = try await CLIRunner.petspot(["--experimental-dump-help"])
        #expect(result.exitCode == 0, "\(result)")
        let dump = try CacheCLISupport.jsonObject(result.stdout)
        let root = dump.object("command")
        #expect(root["commandName"] as? String == "petspot")
        let names = (root["subcommands"] as? [[String: Any]] ?? []).compactMap { $0["commandName"] as? String }
        #expect(Array(names.prefix(3)) == ["photo", "cache", "report"], "\(names)")
    }
}
