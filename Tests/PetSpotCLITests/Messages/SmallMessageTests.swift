import Foundation
import Testing

/// Messages that fit what happened (issue 25 §5): each checks the words a person reads.
@Suite struct SmallMessageTests {
    @Test func zeroCacheLimitsSayMoreThanZeroAndByteBudgetsGetPhotoSizedExamples() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            for (flag, value, words) in [("--max-cache-age", "0d", "--max-cache-age must be more than 0 (got '0d')"),
                                         ("--max-cache-age", "0s", "--max-cache-age must be more than 0 (got '0s')"),
                                         ("--max-cache-size", "0", "--max-cache-size must be more than 0 bytes (got '0')")] {
                let result = try await CLIRunner.petspot(["cache", "stats", "--cache-dir", folder.path, flag, value])
                #expect(result.exitCode == 64 && result.stderr.contains(words), "\(result)")
                #expect(!result.stderr.contains("is not a"), "\(result)")
            }
            let budget = try await CLIRunner.petspot(["photo", "prepare", PhotoFixtures.testImage("jpeg-baseline.jpg"), "--max-bytes", "5XB",
                                                      "-o", folder.appendingPathComponent("o.jpg").path])
            #expect(budget.exitCode == 64 && budget.stderr.contains("use e.g. 500KB, 1MiB or 750000"), "\(budget)")
            #expect(!budget.stderr.contains("1.2GiB"))
        }
    }

    @Test func aLimitIsEchoedAsItWasGiven() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            for (given, shown) in [("1MB", "1 MB"), ("512MiB", "512 MiB"), ("1.2GiB", "1.2 GiB"), ("1500000", "1.5 MB")] {
                let stats = try await CLIRunner.petspot(["cache", "stats", "--cache-dir", folder.path, "--max-cache-size", given])
                #expect(stats.stdout.contains("of \(shown) ("), "\(given): \(stats.stdout)")
                let prune = try await CLIRunner.petspot(["cache", "prune", "--cache-dir", folder.path, "--max-cache-size", given])
                #expect(prune.stdout.contains("beyond \(shown) or"), "\(given): \(prune.stdout)")
            }
        }
    }

    @Test func aUsageErrorFoundWhileRunningShowsTheSubcommandsUsage() async throws {
        try await ReportSandbox.with { sandbox in
            for (arguments, usage) in [(["report", "missing"], "Usage: petspot report missing"),
                                       (["pet", "show", "../../etc"], "Usage: petspot pet show <id>")] {
                let result = try await sandbox.petspot(arguments)
                #expect(result.exitCode == 64, "\(result)")
                #expect(result.stderr.contains(usage), "\(result.stderr)")
                #expect(!result.stderr.contains("Usage: petspot <subcommand>"), "\(result.stderr)")
            }
        }
    }

    @Test func showValidateAndDiscardWorkOutTheOnlyDraft() async throws {
        try await ReportSandbox.with { sandbox in
            let none = try await sandbox.petspot(["report", "show"])
            #expect(none.exitCode == 64 && none.stderr.contains("There is no report draft"), "\(none)")
            _ = try await sandbox.petspot(["report", "found", "--species", "cat"])
            let shown = try await sandbox.petspot(["report", "show"])
            #expect(shown.exitCode == 0 && shown.stdout.contains("found"), "\(shown)")
            let validated = try await sandbox.petspot(["report", "validate"])
            #expect(validated.exitCode == 65 && validated.stderr.contains("found-pet report draft has"), "\(validated)")
            _ = try await sandbox.petspot(["report", "missing", "--species", "dog"])
            let both = try await sandbox.petspot(["report", "show"])
            #expect(both.exitCode == 64 && both.stderr.contains("Both reports have drafts"), "\(both)")
            #expect(both.stderr.contains("Usage: petspot report show"), "\(both.stderr)")
            let discarded = try await sandbox.petspot(["report", "discard", "--flow", "missing"])
            #expect(discarded.exitCode == 0)
            let onlyFound = try await sandbox.petspot(["report", "discard"])
            #expect(onlyFound.exitCode == 0 && onlyFound.stdout.contains("found"), "\(onlyFound)")
        }
    }

    @Test func foldersStandardInputAndMissingFilesAreSaidPlainly() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let images = (PhotoFixtures.testImage("jpeg-baseline.jpg") as NSString).deletingLastPathComponent
            let asFolder = try await CLIRunner.petspot(["photo", "add", images, "--cache-dir", folder.path])
            #expect(asFolder.stderr.contains("\(images) is a folder, not a photo: give the photos in it, e.g. \(images)/*.jpg."), "\(asFolder)")
            let stdin = try await CLIRunner.petspot(["photo", "add", "-", "--cache-dir", folder.path])
            #expect(stdin.stderr.contains("Standard input (-) is not read here"), "\(stdin)")
            #expect(!stdin.stderr.contains("No such file"))
            let missing = try await CLIRunner.petspot(["photo", "add", "nope.jpg", "--cache-dir", folder.path])
            #expect(missing.stderr.hasPrefix("error: Cannot read nope.jpg: No such file or directory."), "\(missing)")
            // A dangling link as the output: its own fix, no advice about disk space.
            let link = folder.appendingPathComponent("out.jpg").path
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folder.appendingPathComponent("nowhere").path)
            let dangling = try await CLIRunner.petspot(["photo", "prepare", PhotoFixtures.testImage("jpeg-baseline.jpg"), "-o", link])
            #expect(dangling.stderr.contains("symbolic link to a file that does not exist; remove the link or name another output."), "\(dangling)")
            #expect(!dangling.stderr.contains("disk has space"), "\(dangling)")
        }
    }
}
