import Foundation
import Testing

/// `petspot report missing | found | show | validate | discard`, run as the built binary without a terminal.
@Suite struct ReportCommandsTests {
    private static let completeMissing = [
        "--chip", "123456789012345", "--species", "dog", "--breed", "Beagle", "--sex", "male", "--date", "2025-11-18",
        "--lat", "52.23", "--lon", "21.01", "--phone", "+48 123 456 789", "--email", "a@b.co",
    ]

    @Test func aDraftFilledOverSeveralProcessesKeepsEveryField() async throws {
        try await ReportSandbox.with { sandbox in
            let first = try await sandbox.petspot(["report", "missing", "--chip", "12345-67890-12345", "--species", "dog"])
            #expect(first.exitCode == 0, "\(first)")
            #expect(first.stdout.contains("✗ Step 3 of 4 · Description"))
            #expect(first.stdout.contains("Breed/race: Please enter the animal's breed/race (--breed)"))

            let second = try await sandbox.petspot(["report", "missing", "--breed", "Beagle", "--phone", "+48 123 456 789"])
            #expect(second.exitCode == 0, "\(second)")

            let shown = try await sandbox.show("missing")
            let draft = shown.object("draft")
            #expect(shown["saved"] as? Bool == true)
            #expect(draft["microchip"] as? String == "123456789012345")
            #expect(draft.object("animal")["species"] as? String == "DOG")
            #expect(draft.object("animal")["breed"] as? String == "Beagle")
            #expect(draft.object("contact")["phone"] as? String == "+48 123 456 789")
            #expect(shown["complete"] as? Bool == false)
            #expect(shown["step"] as? Int == 3, "the draft waits on the first step with a problem")
        }
    }

    @Test func theFlagsOfTheExampleFillACompleteDraft() async throws {
        try await ReportSandbox.with { sandbox in
            let result = try await sandbox.petspot(["report", "missing"] + Self.completeMissing
                + ["--photo", PhotoFixtures.testImage("sample-photo.jpg")])
            #expect(result.exitCode == 0, "\(result)")
            #expect(result.stdout.contains("✓ Step 4 of 4 · Contact details"))
            #expect(result.stdout.contains("is complete: every step is valid"))
            #expect(result.stdout.contains("report submit"), "the complete draft says how to send it")
            let validate = try await sandbox.petspot(["report", "validate", "--flow", "missing", "--json"])
            #expect(validate.exitCode == 0, "\(validate)")
            #expect(try validate.jsonArray().isEmpty)
        }
    }

    @Test func validateListsEveryProblemAndExits65() async throws {
        try await ReportSandbox.with { sandbox in
            let saved = try await sandbox.petspot(["report", "missing", "--phone", "123", "--age", "41"])
            #expect(saved.exitCode == 0, "an incomplete draft is still saved: \(saved)")

            let human = try await sandbox.petspot(["report", "validate", "--flow", "missing"])
            #expect(human.exitCode == 65, "\(human)")
            for line in ["Species: Please select a species (--species)", "Breed/race: Please enter the animal's breed/race (--breed)",
                         "Sex: Please select the sex (--sex)", "Age: Age must be between 0 and 40 (--age)",
                         "Last seen date: Please select a date (--date)", "Latitude: Fill in latitude (--lat)",
                         "Longitude: Fill in longitude (--lon)", "Phone: Enter at least 7 digits (--phone)",
                         "Email: Enter a valid email address (--email)"] {
                #expect(human.stdout.contains(line), "missing \(line) in\n\(human.stdout)")
            }
            #expect(human.stderr.contains("error: the missing-pet report draft has 9 problems"))

            let json = try await sandbox.petspot(["report", "validate", "--flow", "missing", "--json"])
            #expect(json.exitCode == 65)
            let problems = try json.jsonArray()
            #expect(problems.compactMap { $0["field"] as? String }
                == ["species", "breed", "gender", "age", "lastSeenDate", "latitude", "longitude", "phone", "email"])
            #expect(problems.allSatisfy { Set($0.keys) == ["field", "message"] })
        }
    }

    @Test func theFoundFlowNeedsAPhotoAndALocation() async throws {
        try await ReportSandbox.with { sandbox in
            let saved = try await sandbox.petspot([
                "report", "found", "--species", "cat", "--sex", "female", "--date", "2025-11-17",
                "--phone", "0412345678", "--email", "finder@example.org", "--caregiver-phone", "123",
            ])
            #expect(saved.exitCode == 0, "\(saved)")
            #expect(saved.stdout.contains("✗ Step 1 of 3 · Photo"))

            let json = try await sandbox.petspot(["report", "validate", "--flow", "found", "--json"])
            #expect(json.exitCode == 65)
            let problems = try json.jsonArray().map { "\($0["field"] ?? ""): \($0["message"] ?? "")" }
            #expect(problems == ["photo: Photo is mandatory", "latitude: Fill in latitude", "longitude: Fill in longitude",
                                 "caregiverPhone: Enter at least 7 digits"])

            // The caregiver's phone and the address never leave this machine, and `report show` says so.
            _ = try await sandbox.petspot(["report", "found", "--caregiver-phone", "0498765432", "--address", "12 Elm Street"])
            let shown = try await sandbox.petspot(["report", "show", "--flow", "found"])
            let lines = shown.stdout.split(separator: "\n").filter { $0.contains("(stays on this machine, not sent)") }
            #expect(lines.count == 2 && lines[0].contains("0498765432") && lines[1].contains("12 Elm Street"), "\(shown.stdout)")
            #expect(!shown.stdout.contains("Breed/race:") || !(shown.stdout.split(separator: "\n").first { $0.contains("Breed/race:") }?
                .contains("not sent") ?? false), "breed is sent now")
        }
    }

    @Test func thePhotoIsTheFlowsPinAndOutlivesCacheClear() async throws {
        try await ReportSandbox.with { sandbox in
            let filled = try await sandbox.petspot(["report", "missing", "--photo", PhotoFixtures.testImage("sample-photo.jpg")])
            #expect(filled.exitCode == 0, "\(filled)")
            #expect(filled.stderr.contains("Attached the photo"))

            let list = try await sandbox.petspot(["cache", "list", "--json"])
            let entry = try #require(try list.jsonArray().first)
            #expect(entry["pins"] as? [String] == ["missing"])

            let clear = try await sandbox.petspot(["cache", "clear"])
            #expect(clear.exitCode == 0, "\(clear)")
            #expect(clear.stdout.contains("Kept 1 pinned photo"))

            let shown = try await sandbox.show("missing")
            let photo = shown.object("draft").object("photo")
            #expect(photo["cache_key"] as? String == entry["key"] as? String)
            let path = try #require(photo["path"] as? String)
            #expect(FileManager.default.fileExists(atPath: path))
        }
    }

    @Test func discardRemovesTheDraftAndReleasesThePhoto() async throws {
        try await ReportSandbox.with { sandbox in
            _ = try await sandbox.petspot(["report", "found", "--photo", PhotoFixtures.testImage("jpeg-baseline.jpg"), "--species", "cat"])
            #expect(FileManager.default.fileExists(atPath: sandbox.draftFile("found").path))

            let discard = try await sandbox.petspot(["report", "discard", "--flow", "found", "--json"])
            #expect(discard.exitCode == 0, "\(discard)")
            let record = try CacheCLISupport.jsonObject(discard.stdout)
            #expect(record["draft_removed"] as? Bool == true)
            #expect(record["photo_released"] as? Bool == true)
            #expect(!FileManager.default.fileExists(atPath: sandbox.draftFile("found").path))

            let clear = try await sandbox.petspot(["cache", "clear"])
            #expect(clear.exitCode == 0, "\(clear)")
            let stats = try await sandbox.petspot(["cache", "stats", "--json"])
            #expect(try CacheCLISupport.jsonObject(stats.stdout)["entries"] as? Int == 0)

            let again = try await sandbox.petspot(["report", "discard", "--flow", "found"])
            #expect(again.exitCode == 0)
            #expect(again.stdout.contains("nothing to discard"))
            let shown = try await sandbox.show("found")
            #expect(shown["saved"] as? Bool == false)
        }
    }

    @Test func aPhotoClearedFromTheCacheLeavesTheDraft() async throws {
        try await ReportSandbox.with { sandbox in
            _ = try await sandbox.petspot(["report", "found", "--photo", PhotoFixtures.testImage("jpeg-baseline.jpg")])
            _ = try await sandbox.petspot(["cache", "clear", "--include-pinned"])
            let validate = try await sandbox.petspot(["report", "validate", "--flow", "found", "--json"])
            #expect(validate.exitCode == 65)
            #expect(validate.stderr.contains("no longer in the photo cache"))
            let problems = try validate.jsonArray()
            #expect(problems.filter { $0["field"] as? String == "photo" }.count == 1)
            #expect((problems.first?["message"] as? String)?.hasPrefix("The draft's photo is gone from the photo cache") == true)
        }
    }

    @Test func aMissingReportWhosePhotoWasClearedIsNotCompleteUntilSaidSo() async throws {
        try await ReportSandbox.with { sandbox in
            _ = try await sandbox.petspot(["report", "missing", "--photo", PhotoFixtures.testImage("jpeg-baseline.jpg")])
            _ = try await sandbox.petspot(["cache", "clear", "--include-pinned"])
            let validate = try await sandbox.petspot(["report", "validate", "--flow", "missing"])
            #expect(validate.exitCode == 65, "\(validate)")
            #expect(validate.stdout.contains("The draft's photo is gone from the photo cache"), "\(validate.stdout)")
            #expect(validate.stdout.contains("--without-photo"))
            let submit = try await sandbox.petspot(["report", "submit", "--flow", "missing", "--server", "http://127.0.0.1:9", "--max-attempts", "1"])
            #expect(submit.exitCode == 65 && submit.stdout.contains("gone from the photo cache"), "\(submit)")
        }
    }

    @Test(arguments: [true, false])
    func theLocationComesFromThePhotosGPSOnlyWhenAsked(asked: Bool) async throws {
        try await ReportSandbox.with { sandbox in
            let result = try await sandbox.petspot(["report", "found", "--photo", PhotoFixtures.testImage("jpeg-gps-date.jpg")]
                + (asked ? ["--location-from-photo"] : []))
            #expect(result.exitCode == 0, "\(result)")
            let animal = try await sandbox.show("found").object("draft").object("animal")
            if asked {
                let latitude = try #require(animal["latitude"] as? Double)
                let longitude = try #require(animal["longitude"] as? Double)
                #expect(abs(latitude - 52.23) < 1e-6 && abs(longitude - 21.01) < 1e-6)
                #expect(result.stderr.contains("Took the location 52.23, 21.01"))
            } else {
                #expect(animal["latitude"] == nil && animal["longitude"] == nil)
            }
        }
    }

    @Test func aPhotoWithoutGPSLeavesTheLocationAlone() async throws {
        try await ReportSandbox.with { sandbox in
            let result = try await sandbox.petspot(["report", "missing", "--photo", PhotoFixtures.testImage("jpeg-baseline.jpg"),
                                                    "--location-from-photo"])
            #expect(result.exitCode == 0, "\(result)")
            #expect(result.stderr.contains("no GPS position"))
        }
    }

    /// A value that cannot be its field's is a form problem (exit 65) listed with the others; the
    /// other fields of the command are kept.
    @Test(arguments: [
        (["--species", "dragon"], "--species: 'dragon' is not a species"),
        (["--date", "18/11/2025"], "--date: '18/11/2025' is not a date"),
        (["--age", "four"], "--age: 'four' is not a whole number"),
        (["--lat", "1e999"], "--lat: '1e999' is not a latitude"),
    ])
    func valuesOfTheWrongKindAreFormProblemsAndTheRestIsKept(arguments: [String], message: String) async throws {
        try await ReportSandbox.with { sandbox in
            let result = try await sandbox.petspot(["report", "missing", "--breed", "Beagle"] + arguments)
            #expect(result.exitCode == 65, "\(result)")
            #expect(result.stderr.contains("error: " + message), "\(result.stderr)")
            let draft = try await sandbox.show("missing").object("draft")
            #expect(draft.object("animal")["breed"] as? String == "Beagle", "the field that was fine is kept")
        }
    }

    @Test(arguments: [
        (["--location-from-photo"], "--location-from-photo reads the GPS position"),
        (["--location-from-photo", "--photo", "x.jpg", "--lat", "1"], "Give the location one way: --lat/--lon or --location-from-photo, not several"),
        (["--caregiver-phone", "123456789"], "Unknown option '--caregiver-phone'"),
    ])
    func valuesOfTheWrongKindAreUsageErrors(arguments: [String], message: String) async throws {
        try await ReportSandbox.with { sandbox in
            let result = try await sandbox.petspot(["report", "missing"] + arguments)
            #expect(result.exitCode == 64, "\(result)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: sandbox.draftFile("missing").path))
        }
    }

    @Test func aRefusedPhotoKeepsTheOtherFields() async throws {
        try await ReportSandbox.with { sandbox in
            let result = try await sandbox.petspot(["report", "missing", "--breed", "Beagle",
                                                    "--photo", PhotoFixtures.testImage("bad-not-an-image.jpg")])
            #expect(result.exitCode == 65, "\(result)")
            #expect(result.stderr.contains("PetSpot accepts JPEG, PNG, WebP, HEIC or AVIF"))
            #expect(result.stderr.contains("The other fields were saved"))
            let shown = try await sandbox.show("missing")
            #expect(shown.object("draft").object("animal")["breed"] as? String == "Beagle")
        }
    }

    @Test(arguments: [
        ("relative/state", false),
        ("ABSOLUTE", true),
    ])
    func aRelativeXDGStateHomeIsIgnored(xdg: String, used: Bool) async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let home = folder.appendingPathComponent("home")
            let absolute = folder.appendingPathComponent("xdg-state")
            let value = xdg == "ABSOLUTE" ? absolute.path : xdg
            let result = try await CLIRunner.petspot(
                ["report", "missing", "--species", "cat"], in: folder,
                environment: ["PETSPOT_STATE_DIR": "", "XDG_STATE_HOME": value, "HOME": home.path,
                              "PETSPOT_CACHE_DIR": folder.appendingPathComponent("cache").path])
            #expect(result.exitCode == 0, "\(result)")
            let expected = used ? absolute.appendingPathComponent("petspot/drafts/missing.json")
                                : home.appendingPathComponent(".local/state/petspot/drafts/missing.json")
            #expect(FileManager.default.fileExists(atPath: expected.path), "\(result.stdout)")
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("relative").path))
        }
    }

    @Test func theStateDirFlagWinsOverTheEnvironment() async throws {
        try await ReportSandbox.with { sandbox in
            let elsewhere = sandbox.folder.appendingPathComponent("elsewhere")
            let result = try await sandbox.petspot(["report", "found", "--species", "cat", "--state-dir", elsewhere.path])
            #expect(result.exitCode == 0, "\(result)")
            #expect(FileManager.default.fileExists(atPath: elsewhere.appendingPathComponent("drafts/found.json").path))
            #expect(!FileManager.default.fileExists(atPath: sandbox.draftFile("found").path))
        }
    }

    @Test func savingManyTimesLeavesNoTemporaryFiles() async throws {
        try await ReportSandbox.with { sandbox in
            for value in ["dog", "cat", "bird"] {
                let result = try await sandbox.petspot(["report", "missing", "--species", value])
                #expect(result.exitCode == 0, "\(result)")
            }
            #expect(try PhotoFixtures.contents(of: sandbox.draftsFolder) == ["missing.json", "missing.lock"])
        }
    }

    @Test func aDamagedDraftIsADataErrorThatNamesTheWayOut() async throws {
        try await ReportSandbox.with { sandbox in
            try FileManager.default.createDirectory(at: sandbox.draftsFolder, withIntermediateDirectories: true)
            try Data("{".utf8).write(to: sandbox.draftFile("missing"))
            let result = try await sandbox.petspot(["report", "show", "--flow", "missing"])
            #expect(result.exitCode == 65, "\(result)")
            #expect(result.stderr.contains("petspot report discard"))
            let discard = try await sandbox.petspot(["report", "discard", "--flow", "missing"])
            #expect(discard.exitCode == 0, "\(discard)")
        }
    }

    @Test func withoutATerminalNothingIsAsked() async throws {
        try await ReportSandbox.with { sandbox in
            let result = try await sandbox.petspot(["report", "missing", "--species", "dog"], input: "cat\n")
            #expect(result.exitCode == 0, "\(result)")
            #expect(!result.stderr.contains("Step 1 of 4"))
            #expect(result.stdout.contains("✗ Step 3 of 4 · Description"))
            #expect(try await sandbox.show("missing").object("draft").object("animal")["species"] as? String == "DOG")
        }
    }
}
