import Foundation
import Testing

/// The wizard driven through a pseudo-terminal, so the command sees a terminal exactly as a
/// person's shell gives it. Answers are typed once their question shows (`scripts/pty-drive.py`),
/// as the line editor needs; util-linux `script` runs the command that asks nothing.
@Suite struct ReportTerminalTests {
    private static let scriptPath = "/usr/bin/script"
    private static let hasScript = FileManager.default.isExecutableFile(atPath: scriptPath)
    private static let needsDriver = Testing.ConditionTrait.enabled(
        if: PseudoTerminal.isAvailable, "python3 is needed to run petspot on a pseudo-terminal (scripts/pty-drive.py)")

    /// Runs `petspot arguments` on a pseudo-terminal, typing nothing.
    private func onTerminal(_ sandbox: ReportSandbox, _ arguments: [String]) async throws -> CLIResult {
        let command = ([try CLIRunner.petspotURL().path] + arguments).map(CLIRunner.shellQuoted).joined(separator: " ")
        return try await CLIRunner.run(URL(fileURLWithPath: Self.scriptPath), ["-qec", command, "/dev/null"],
                                       environment: sandbox.environment, input: "", timeout: .seconds(30))
    }

    /// Runs `petspot arguments` on a pseudo-terminal, answering each question (a prompt's
    /// beginning) in turn, then waits for the end.
    private func answering(_ sandbox: ReportSandbox, _ arguments: [String],
                           _ answers: [(question: String, answer: String)]) async throws -> PseudoTerminal.Session {
        let steps = answers.flatMap { [PseudoTerminal.Step.expect($0.question), .send($0.answer)] } + [.exit]
        return try await PseudoTerminal.petspot(arguments, steps: steps, sandbox: sandbox)
    }

    @Test(needsDriver)
    func theWizardWalksTheStepsReAsksAndGoesBack() async throws {
        try await ReportSandbox.with { sandbox in
            let session = try await answering(sandbox, ["report", "missing"], [
                ("Microchip number", "12345\r"),                                  // Step 1 · chip number: refused
                ("Microchip number", "123456789\r"),                              // an older 9-digit chip
                ("Photo file", PhotoFixtures.testImage("sample-photo.jpg") + "\r"), // Step 2 · photo
                ("Species", "<\r"),                                               // Step 3: back to the photo
                ("Photo file", "\r"),                                             // Step 2 · photo: Enter keeps it
                ("Species", "dog\r"), ("Breed", "Beagle\r"), ("Sex", "male\r"), ("Age", "\r"),
                ("Last seen date", "2025-11-18\r"), ("Latitude", "52.23\r"), ("Longitude", "21.01\r"),
                ("Description", "\r"), ("Pet's name", "Rex\r"),
                ("Phone", "123\r"),                                               // Step 4 · phone: refused
                ("Phone", "+48 123 456 789\r"), ("Email", "a@b.co\r"), ("Reward", "\r"),
            ])
            let output = session.transcript
            #expect(session.error == nil && session.status == 0, "\(session)")
            #expect(output.contains("Step 1 of 4 · Chip number"))
            #expect(output.components(separatedBy: "Step 2 of 4 · Photo").count - 1 == 2, "the photo step twice:\n\(output)")
            #expect(output.components(separatedBy: "Step 3 of 4 · Description").count - 1 == 2)
            #expect(output.contains("Step 4 of 4 · Contact details"))
            #expect(output.contains("Photo file (JPEG, PNG, WebP, HEIC or AVIF), optional [image/jpeg, 1200 × 1600]: "))
            #expect(output.contains("Enter at least 7 digits"))
            // Asked again without the refused value as its default.
            #expect(output.contains("Phone: 123") && output.contains("Phone: +48 123 456 789") && !output.contains("Phone ["),
                    "the phone is asked again after the refused answer, with no default:\n\(output)")
            #expect(output.contains("cannot be a microchip number"), "the 5-digit chip number is refused:\n\(output)")
            #expect(output.contains("is complete: every step is valid") && !output.contains("ready to submit"))
            #expect(output.contains("Nov 18, 2025"), "the summary reads the date for people")

            let shown = try await sandbox.show("missing")
            let draft = shown.object("draft")
            #expect(shown["complete"] as? Bool == true)
            #expect(draft["microchip"] as? String == "123456789")
            #expect(draft.object("photo")["mime_type"] as? String == "image/jpeg")
            #expect(draft.object("animal")["breed"] as? String == "Beagle")
            #expect(draft.object("animal")["name"] as? String == "Rex", "the wizard asks the pet's name")
            #expect(output.contains("Pet's name, optional: "))
            #expect(draft.object("contact")["phone"] as? String == "+48 123 456 789")
        }
    }

    @Test(needsDriver)
    func ctrlDSavesWhatWasAnsweredAndStops() async throws {
        try await ReportSandbox.with { sandbox in
            let session = try await answering(sandbox, ["report", "found", "--location-from-photo"], [
                ("Photo file", PhotoFixtures.testImage("jpeg-gps-date.jpg") + "\r"), ("Microchip number", "\r"),
                ("Species", "cat\r"), ("Breed", "\u{04}"),
            ])
            #expect(session.error == nil && session.status == 0, "\(session)")
            #expect(session.transcript.contains("Step 1 of 3 · Photo"))
            #expect(session.transcript.contains("Took the location 52.23, 21.01"))
            #expect(session.transcript.contains("Stopped at Step 2 of 3 · Pet details"), "\(session)")

            let draft = try await sandbox.show("found").object("draft")
            #expect(draft.object("animal")["species"] as? String == "CAT")
            #expect(draft.object("animal")["latitude"] as? Double == 52.23)
            #expect(draft["step"] as? Int == 2)
        }
    }

    @Test(needsDriver)
    func flagsOnATerminalAskOnlyWhatIsStillMissing() async throws {
        try await ReportSandbox.with { sandbox in
            let session = try await answering(sandbox, [
                "report", "missing", "--species", "dog", "--breed", "Beagle", "--sex", "male", "--date", "2025-11-18",
                "--lat", "52.23", "--lon", "21.01", "--email", "a@b.co",
            ], [("Phone", "1234567\r")])
            let output = session.transcript
            #expect(session.error == nil && session.status == 0, "\(session)")
            #expect(!output.contains("Step 3 of 4"), "complete steps are not asked:\n\(output)")
            #expect(output.contains("Step 4 of 4 · Contact details"))
            #expect(!output.contains("Email ["), "a valid field is not asked again")
            #expect(output.contains("is complete: every step is valid"))
            #expect(output.contains("petspot report submit --flow missing"))
        }
    }

    @Test(.enabled(if: hasScript, "util-linux `script` is needed to run petspot under a pseudo-terminal"))
    func noInputNeverAsksEvenOnATerminal() async throws {
        try await ReportSandbox.with { sandbox in
            let result = try await onTerminal(sandbox, ["report", "missing", "--no-input", "--species", "dog"])
            #expect(result.exitCode == 0, "\(result)")
            #expect(!result.stdout.contains("Filling in"))
            #expect(result.stdout.contains("✗ Step 3 of 4 · Description"))
        }
    }
}
