import Foundation
import Testing

/// The wizard driven through a pseudo-terminal: util-linux `script` runs `petspot` on a pty whose
/// input is the answers below, so the command sees a terminal exactly as a person's shell gives it.
@Suite struct ReportTerminalTests {
    private static let scriptPath = "/usr/bin/script"
    private static let hasScript = FileManager.default.isExecutableFile(atPath: scriptPath)

    /// Runs `petspot arguments` on a pseudo-terminal, typing `answers` (one line each).
    private func onTerminal(_ sandbox: ReportSandbox, _ arguments: [String], answers: [String]) async throws -> CLIResult {
        let command = ([try CLIRunner.petspotURL().path] + arguments).map(CLIRunner.shellQuoted).joined(separator: " ")
        return try await CLIRunner.run(URL(fileURLWithPath: Self.scriptPath), ["-qec", command, "/dev/null"],
                                       environment: sandbox.environment,
                                       input: answers.map { $0 + "\n" }.joined(), timeout: .seconds(30))
    }

    @Test(.enabled(if: hasScript, "util-linux `script` is needed to run petspot under a pseudo-terminal"))
    func theWizardWalksTheStepsReAsksAndGoesBack() async throws {
        try await ReportSandbox.with { sandbox in
            let answers = [
                "12345",                                        // Step 1 · chip number: refused
                "123456789",                                    // Step 1 · chip number (an older 9-digit chip)
                PhotoFixtures.testImage("sample-photo.jpg"),    // Step 2 · photo
                "<",                                            // Step 3 · species: back to the photo
                "",                                             // Step 2 · photo: Enter keeps it
                "dog", "Beagle", "male", "", "2025-11-18", "52.23", "21.01", "",
                "123",                                          // Step 4 · phone: refused
                "+48 123 456 789", "a@b.co", "",
            ]
            let result = try await onTerminal(sandbox, ["report", "missing"], answers: answers)
            let output = result.stdout
            #expect(result.exitCode == 0, "\(result)")
            #expect(output.contains("Step 1 of 4 · Chip number"))
            #expect(output.components(separatedBy: "Step 2 of 4 · Photo").count - 1 == 2, "the photo step twice:\n\(output)")
            #expect(output.components(separatedBy: "Step 3 of 4 · Description").count - 1 == 2)
            #expect(output.contains("Step 4 of 4 · Contact details"))
            #expect(output.contains("Photo file (JPEG, PNG, WebP, HEIC or AVIF), optional [image/jpeg, 1200 × 1600]: "))
            #expect(output.contains("Enter at least 7 digits"))
            #expect(output.contains("Phone [123]: "), "the phone is asked again after the refused answer:\n\(output)")
            #expect(output.contains("cannot be a microchip number"), "the 5-digit chip number is refused:\n\(output)")
            #expect(output.contains("is complete: every step is valid") && !output.contains("ready to submit"))
            #expect(output.contains("Nov 18, 2025"), "the summary reads the date for people")

            let shown = try await sandbox.show("missing")
            let draft = shown.object("draft")
            #expect(shown["complete"] as? Bool == true)
            #expect(draft["microchip"] as? String == "123456789")
            #expect(draft.object("photo")["mime_type"] as? String == "image/jpeg")
            #expect(draft.object("animal")["breed"] as? String == "Beagle")
            #expect(draft.object("contact")["phone"] as? String == "+48 123 456 789")
        }
    }

    @Test(.enabled(if: hasScript, "util-linux `script` is needed to run petspot under a pseudo-terminal"))
    func ctrlDSavesWhatWasAnsweredAndStops() async throws {
        try await ReportSandbox.with { sandbox in
            let result = try await onTerminal(sandbox, ["report", "found", "--location-from-photo"], answers: [
                PhotoFixtures.testImage("jpeg-gps-date.jpg"), "", "cat", "\u{04}",
            ])
            #expect(result.exitCode == 0, "\(result)")
            #expect(result.stdout.contains("Step 1 of 3 · Photo"))
            #expect(result.stdout.contains("Took the location 52.23, 21.01"))
            #expect(result.stdout.contains("Stopped at Step 2 of 3 · Pet details"), "\(result.stdout)")

            let draft = try await sandbox.show("found").object("draft")
            #expect(draft.object("animal")["species"] as? String == "CAT")
            #expect(draft.object("animal")["latitude"] as? Double == 52.23)
            #expect(draft["step"] as? Int == 2)
        }
    }

    @Test(.enabled(if: hasScript, "util-linux `script` is needed to run petspot under a pseudo-terminal"))
    func flagsOnATerminalAskOnlyWhatIsStillMissing() async throws {
        try await ReportSandbox.with { sandbox in
            let result = try await onTerminal(sandbox, [
                "report", "missing", "--species", "dog", "--breed", "Beagle", "--sex", "male", "--date", "2025-11-18",
                "--lat", "52.23", "--lon", "21.01", "--email", "a@b.co",
            ], answers: ["1234567"])
            #expect(result.exitCode == 0, "\(result)")
            #expect(!result.stdout.contains("Step 3 of 4"), "complete steps are not asked:\n\(result.stdout)")
            #expect(result.stdout.contains("Step 4 of 4 · Contact details"))
            #expect(!result.stdout.contains("Email ["), "a valid field is not asked again")
            #expect(result.stdout.contains("is complete: every step is valid"))
            #expect(result.stdout.contains("petspot report submit --flow missing"))
        }
    }

    @Test(.enabled(if: hasScript, "util-linux `script` is needed to run petspot under a pseudo-terminal"))
    func noInputNeverAsksEvenOnATerminal() async throws {
        try await ReportSandbox.with { sandbox in
            let result = try await onTerminal(sandbox, ["report", "missing", "--no-input", "--species", "dog"], answers: [])
            #expect(result.exitCode == 0, "\(result)")
            #expect(!result.stdout.contains("Filling in"))
            #expect(result.stdout.contains("✗ Step 3 of 4 · Description"))
        }
    }
}
