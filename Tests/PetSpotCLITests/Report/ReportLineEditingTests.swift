import Foundation
import Testing

/// The wizard on a pseudo-terminal, typed into key by key (`scripts/pty-drive.py`): libedit's
/// Tab completion of the photo's path, Ctrl-C, a prompt-only terminal when stdout is a file, and
/// the draft's lock held while the questions wait.
@Suite struct ReportLineEditingTests {
    private static let needsDriver = Testing.ConditionTrait.enabled(
        if: PseudoTerminal.isAvailable, "python3 is needed to run petspot on a pseudo-terminal (scripts/pty-drive.py)")

    /// A folder with two photos and a file named like an answer, where the wizard runs.
    private func photosFolder(in sandbox: ReportSandbox) throws -> URL {
        let folder = sandbox.folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: PhotoFixtures.testImage("sample-photo.jpg"),
                                         toPath: folder.appendingPathComponent("rex-the-beagle.jpg").path)
        try FileManager.default.copyItem(atPath: PhotoFixtures.testImage("png-gray-alpha.png"),
                                         toPath: folder.appendingPathComponent("ralph.png").path)
        try FileManager.default.copyItem(atPath: PhotoFixtures.testImage("png-gray-alpha.png"),
                                         toPath: folder.appendingPathComponent("dog-photo.png").path)
        return folder
    }

    @Test(needsDriver)
    func tabCompletesThePhotosPathAndOnlyThere() async throws {
        try await ReportSandbox.with { sandbox in
            let folder = try photosFolder(in: sandbox)
            let session = try await PseudoTerminal.petspot(["report", "missing"], steps: [
                .expect("Microchip number"), .send("123456789\r"),
                // "rex" names one file of the folder: Tab completes it.
                .expect("Photo file"), .send("rex\t"), .expect("the-beagle.jpg"), .send("\r"),
                // "do" would complete to dog-photo.png if the species question completed file names.
                .expect("Species"), .send("do\t"), .send("g\r"),
                .expect("Breed"), .send("\u{04}"),
                .exit,
            ], sandbox: sandbox, in: folder)
            #expect(session.error == nil && session.status == 0, "\(session)")
            #expect(session.transcript.contains("Stopped at Step 3 of 4"), "\(session)")

            let draft = try await sandbox.show("missing").object("draft")
            let photo = draft.object("photo")
            #expect(photo["width"] as? Int == 1200 && photo["height"] as? Int == 1600,
                    "the draft holds rex-the-beagle.jpg (1200 × 1600), the file Tab completed: \(photo)")
            #expect(draft["microchip"] as? String == "123456789")
            #expect(draft.object("animal")["species"] as? String == "DOG", "Tab completed nothing at the species question")
        }
    }

    @Test(needsDriver)
    func ctrlCKeepsTheAnswersGivenAndSaysSo() async throws {
        try await ReportSandbox.with { sandbox in
            let session = try await PseudoTerminal.petspot(["report", "missing"], steps: [
                .expect("Microchip number"), .send("123456789\r"),
                .expect("Photo file"), .send("\r"),
                .expect("Species"), .send("cat\r"),
                // Half an answer, then Ctrl-C.
                .expect("Breed"), .send("Sia"), .expect("Sia"), .send("\u{03}"),
                .exit,
            ], sandbox: sandbox)
            #expect(session.error == nil, "\(session)")
            #expect(session.status == 130, "\(session)")
            #expect(session.transcript.contains("interrupted: every answer given so far is saved in "
                + sandbox.draftFile("missing").path), "\(session)")
            #expect(session.transcript.contains("run `petspot report missing` to continue"))
            #expect(session.leftCooked, "the terminal's settings are put back (echo, line by line)")

            let draft = try await sandbox.show("missing").object("draft")
            #expect(draft["microchip"] as? String == "123456789")
            #expect(draft.object("animal")["species"] as? String == "CAT")
            #expect((draft.object("animal")["breed"] as? String ?? "").isEmpty, "the answer being typed is not saved")
        }
    }

    @Test(needsDriver)
    func withStdoutInAFileTheQuestionsStayOnTheTerminal() async throws {
        try await ReportSandbox.with { sandbox in
            let output = sandbox.folder.appendingPathComponent("draft.json")
            let session = try await PseudoTerminal.petspot(["report", "missing", "--json"], steps: [
                .expect("Microchip number"), .send("123456789\r"),
                .expect("Photo file"), .send("\u{04}"),
                .exit,
            ], sandbox: sandbox, stdoutFile: output)
            #expect(session.error == nil && session.status == 0, "\(session)")
            #expect(session.transcript.contains("Step 1 of 4 · Chip number"))
            #expect(!session.transcript.contains("\"draft\""), "the JSON went to the file, not the terminal")
            let json = try CacheCLISupport.jsonObject(String(decoding: try Data(contentsOf: output), as: UTF8.self))
            #expect(json.object("draft")["microchip"] as? String == "123456789", "the file holds only the draft's JSON")
        }
    }

    @Test(needsDriver)
    func aCommandRunWhileTheWizardWaitsIsRefusedAndNothingIsLost() async throws {
        try await ReportSandbox.with { sandbox in
            let session = try await PseudoTerminal.petspot(["report", "missing"], steps: [
                .expect("Microchip number"), .send("123456789\r"),
                .expect("Photo file"),
                .petspot(["report", "missing", "--age", "3"]),
                .petspot(["report", "discard", "--flow", "missing"]),
                .send("\r"),
                .expect("Species"), .send("dog\r"),
                .expect("Breed"), .send("Beagle\r"),
                .expect("Sex"), .send("\u{04}"),
                .exit,
            ], sandbox: sandbox)
            #expect(session.error == nil && session.status == 0, "\(session)")
            let refused = try #require(session.runs.first)
            #expect(refused.status == 75, "\(session)")
            #expect(refused.seconds < 10, "refused at once, not after waiting for the wizard")
            #expect(refused.stderr.contains("is open in the questions of another petspot (process \(session.pid) on /dev/pts/"),
                    "\(refused.stderr)")
            #expect(refused.stderr.contains("nothing was changed"))
            // Discarding is refused too: the wizard's next save would bring the draft back.
            let discard = try #require(session.runs.dropFirst().first)
            #expect(discard.status == 75 && discard.stderr.contains("is open in the questions of another petspot"), "\(session)")

            // The wizard's answers are all there, and the refused value can now be given.
            let retried = try await sandbox.petspot(["report", "missing", "--age", "3"])
            #expect(retried.exitCode == 0, "\(retried)")
            let animal = try await sandbox.show("missing").object("draft").object("animal")
            #expect(animal["species"] as? String == "DOG")
            #expect(animal["breed"] as? String == "Beagle")
            #expect(animal["age"] as? Int == 3)
            #expect(try await sandbox.show("missing").object("draft")["microchip"] as? String == "123456789")
        }
    }
}
