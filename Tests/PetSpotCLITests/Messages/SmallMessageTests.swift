import Foundation
import Testing

/// Messages that fit what happened: each checks the words a person reads.
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

/// Refusals that name what the file is, `inspect` that warns, completions that offer values.
@Suite struct RefusalMessageTests {
    static var corpus: URL? { PhotoFixtures.corpus }

    @Test(.enabled(if: PhotoFixtures.hasCorpus, "needs PETSPOT_CORPUS")) func refusalsSayWhatTheFileIs() async throws {
        let corpus = try #require(Self.corpus, "PETSPOT_CORPUS is not set")
        try await PhotoFixtures.withScratchFolder { folder in
            let html = folder.appendingPathComponent("page.jpg")
            try Data("<!DOCTYPE html><html><body>hi</body></html>".utf8).write(to: html)
            let cases: [(String, String)] = [
                (corpus.appendingPathComponent("heif/gen-mp4-isom-named.heic").path, "This is an MP4 video (video/mp4)"),
                (corpus.appendingPathComponent("heif/gen-bomb-ispe-100000x100000.heic").path, "The image is 100000×100000 pixels (10000.0 megapixels), more than the limit"),
                (corpus.appendingPathComponent("broken/truncated/jpeg-soi-only.jpg").path, "The JPEG image is cut short (the file holds only the start marker)"),
                (html.path, "This is an HTML page (text/html)"),
            ]
            for (file, words) in cases {
                let result = try await CLIRunner.petspot(["photo", "prepare", file, "-o", folder.appendingPathComponent("out.jpg").path])
                #expect(result.exitCode == 65, "\(file): \(result)")
                #expect(result.stderr.contains(words), "\(file): \(result.stderr)")
                #expect(!result.stderr.contains("not an image") && !result.stderr.contains("damaged"), "\(file): \(result.stderr)")
            }
        }
    }

    @Test(.enabled(if: PhotoFixtures.hasCorpus, "needs PETSPOT_CORPUS")) func inspectSaysWhenPrepareWillRefuseACutShortJPEG() async throws {
        let corpus = try #require(Self.corpus, "PETSPOT_CORPUS is not set")
        for name in ["jpeg-cut-at-50pct-mid-scan.jpg", "jpeg-missing-EOI-only.jpg"] {
            let file = corpus.appendingPathComponent("broken/truncated/\(name)").path
            let inspected = try await CLIRunner.petspot(["photo", "inspect", file])
            #expect(inspected.exitCode == 65, "\(inspected)")
            #expect(inspected.stdout.contains("640×480"), "\(inspected.stdout)")
            #expect(inspected.stderr.contains("`petspot photo prepare` will refuse it as cut short"), "\(inspected.stderr)")
            let prepared = try await CLIRunner.petspot(["photo", "prepare", file, "-o", "/dev/null"])
            #expect(prepared.stderr.contains("cut short"))
        }
        // Whole files, with an EXIF thumbnail's own end marker or progressive scans: no warning.
        for name in ["jpeg-gps-date.jpg", "jpeg-progressive.jpg", "sample-photo.jpg"] {
            let inspected = try await CLIRunner.petspot(["photo", "inspect", PhotoFixtures.testImage(name)])
            #expect(inspected.exitCode == 0 && !inspected.stderr.contains("warning"), "\(name): \(inspected)")
        }
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionOffersTheValuesOfSpeciesAndSex(shell: String) async throws {
        let script = try await CLIRunner.petspot(["--generate-completion-script", shell])
        #expect(script.exitCode == 0)
        for value in ["rabbit", "reptile", "female"] {
            #expect(script.stdout.contains(value), "\(shell) lacks \(value)")
        }
    }
}

/// Text over its cap is refused with its length, never cut to fit.
@Suite struct TextCapTests {
    @Test func aDescriptionOverItsCapIsRefusedNotShortened() async throws {
        try await ReportSandbox.with { sandbox in
            let long = String(repeating: "d", count: 600)
            let result = try await sandbox.petspot(["report", "missing", "--species", "dog", "--description", long])
            #expect(result.exitCode != 0, "\(result)")
            #expect(result.stderr.contains("Description must be at most 500 characters, and this text has 600"), "\(result.stderr)")
            #expect(!result.stderr.contains("kept the first"))
            let shown = try await sandbox.petspot(["report", "show", "--flow", "missing", "--json"])
            #expect(!shown.stdout.contains(String(repeating: "d", count: 500)), "nothing of it was saved")
            let reward = try await sandbox.petspot(["report", "missing", "--reward", String(repeating: "r", count: 121)])
            #expect(reward.stderr.contains("Reward must be at most 120 characters, and this text has 121"), "\(reward.stderr)")
        }
    }
}

/// Every problem of the flags at once, the good fields kept.
@Suite struct EveryProblemAtOnceTests {
    @Test func refusedValuesAndBrokenRulesAreListedTogetherAndTheRestIsKept() async throws {
        try await ReportSandbox.with { sandbox in
            let result = try await sandbox.petspot([
                "report", "missing", "--chip", "12a34", "--age", "41", "--email", "owner@@example", "--species", "dog",
                "--breed", "Labrador", "--description", String(repeating: "d", count: 600), "--lat", "north"])
            #expect(result.exitCode == 65, "\(result)")
            // Values that cannot be this field's: all of them, not the first only.
            #expect(result.stderr.contains("error: --chip: '12a34' cannot be a microchip number"), "\(result.stderr)")
            #expect(result.stderr.contains("error: --description: Description must be at most 500 characters, and this text has 600"), "\(result.stderr)")
            #expect(result.stderr.contains("error: --lat: 'north' is not a latitude"), "\(result.stderr)")
            // Values that parse but break a rule: listed with the steps.
            #expect(result.stdout.contains("Age"), "\(result.stdout)")
            #expect(result.stdout.contains("mail"), "\(result.stdout)")
            #expect(result.stderr.contains("The other fields were saved in the draft"), "\(result.stderr)")
            let shown = try await sandbox.show("missing")
            let animal = shown.object("draft").object("animal")
            #expect(animal["species"] as? String == "DOG" && animal["breed"] as? String == "Labrador", "\(animal)")
            #expect(animal["description"] == nil || (animal["description"] as? String)?.isEmpty == true)
        }
    }
}
