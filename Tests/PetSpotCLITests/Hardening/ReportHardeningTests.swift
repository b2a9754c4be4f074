#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import PetSpot
@testable import PetSpotCLI
@testable import PhotoCLI
import Testing

/// Drafts are never lost or filled with wrong answers: concurrent updates keep every field,
/// a chip number is refused rather than cut, piped stdin without flags writes no draft.
@Suite struct ReportHardeningTests {
    @Test(.timeLimit(.minutes(2)))
    func concurrentUpdatesOfOneDraftKeepEveryField() async throws {
        try await ReportSandbox.with { sandbox in
            for round in 0..<3 {
                let updates = [["--species", "dog"], ["--breed", "Beagle \(round)"], ["--phone", "+48 123 456 78\(round)"],
                               ["--email", "r\(round)@example.org"], ["--reward", "\(round)00 zł"], ["--sex", "female"]]
                let running = try updates.map { update in
                    try RunningProcess(try CLIRunner.petspotURL(), ["report", "missing", "--no-input"] + update,
                                       environment: sandbox.environment)
                }
                for process in running {
                    let result = await process.result(timeout: .seconds(60))
                    #expect(result.exitCode == 0, "\(result)")
                }

                let draft = try await sandbox.show("missing").object("draft")
                #expect(draft.object("animal")["species"] as? String == "DOG", "round \(round): \(draft)")
                #expect(draft.object("animal")["breed"] as? String == "Beagle \(round)", "round \(round): \(draft)")
                #expect(draft.object("animal")["gender"] as? String == "FEMALE", "round \(round): \(draft)")
                #expect(draft.object("contact")["phone"] as? String == "+48 123 456 78\(round)", "round \(round): \(draft)")
                #expect(draft.object("contact")["email"] as? String == "r\(round)@example.org", "round \(round): \(draft)")
                #expect(draft.object("contact")["reward"] as? String == "\(round)00 zł", "round \(round): \(draft)")
                _ = try await sandbox.petspot(["report", "discard", "--flow", "missing"])
            }
        }
    }

    @Test func pipedStdinWithoutFlagsWritesNoDraft() async throws {
        try await ReportSandbox.with { sandbox in
            let result = try await sandbox.petspot(["report", "missing"], input: "dog\n")

            #expect(result.exitCode == 64, "\(result)")
            #expect(result.stderr.contains("Nothing to fill in"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: sandbox.draftFile("missing").path))
        }
    }

    @Test(arguments: [
        ("1234567890123456", "15 digits"), ("123", "15 digits"), ("0A0139B8C2", "hexadecimal"), ("12a34b56789", "digits only"),
    ])
    func whatCannotBeAChipNumberIsRefusedNotCut(_ chip: String, reason: String) async throws {
        try await ReportSandbox.with { sandbox in
            let saved = try await sandbox.petspot(["report", "missing", "--chip", "985112003456789"])
            #expect(saved.exitCode == 0, "\(saved)")

            let result = try await sandbox.petspot(["report", "missing", "--chip", chip, "--breed", "Beagle"])

            #expect(result.exitCode == 65, "\(result)")
            #expect(result.stderr.contains("cannot be a microchip number"), "\(result.stderr)")
            #expect(result.stderr.contains(reason), "\(result.stderr)")
            let draft = try await sandbox.show("missing").object("draft")
            #expect(draft["microchip"] as? String == "985112003456789", "the saved chip number must be unchanged, never cut")
            #expect(draft.object("animal")["breed"] as? String == "Beagle", "the fields that were fine are kept")
        }
    }

    @Test(arguments: ["123456789", "1234567890", "98511 20034 56789"])
    func olderAndISOChipNumbersAreAccepted(_ chip: String) async throws {
        try await ReportSandbox.with { sandbox in
            let result = try await sandbox.petspot(["report", "missing", "--chip", chip])
            #expect(result.exitCode == 0, "\(result)")
            #expect(try await sandbox.show("missing").object("draft")["microchip"] as? String == chip.filter(\.isNumber))
        }
    }

    @Test func aPhoneWithTooManyDigitsSaysSo() async throws {
        try await ReportSandbox.with { sandbox in
            let result = try await sandbox.petspot(["report", "missing", "--phone", "1234567890123456"])
            #expect(result.exitCode == 0, "\(result)")
            #expect(result.stdout.contains("Phone: Enter at most 15 digits (--phone)"), "\(result.stdout)")
            #expect(!result.stdout.contains("at least 7"), "\(result.stdout)")
        }
    }

    @Test func reportFillingPrintsJSONWhenAsked() async throws {
        try await ReportSandbox.with { sandbox in
            let result = try await sandbox.petspot(["report", "found", "--species", "cat", "--json"])
            #expect(result.exitCode == 0, "\(result)")
            let record = try CacheCLISupport.jsonObject(result.stdout)
            #expect(record["flow"] as? String == "found")
            #expect(record["saved"] as? Bool == true)
            #expect(record.object("draft").object("animal")["species"] as? String == "CAT")
        }
    }

    /// Whether this process may mount a small tmpfs (root in a container that allows it), to fill a disk for real.
    static let canMountTmpfs: Bool = {
        guard getuid() == 0 else { return false }
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("petspot-mount-probe-\(getpid())").path
        guard mkdir(probe, 0o700) == 0 else { return false }
        defer { rmdir(probe) }
        guard mount("tmpfs", probe, "tmpfs", 0, "size=64k") == 0 else { return false }
        umount(probe)
        return true
    }()

    @Test(.enabled(if: canMountTmpfs, "needs root and permission to mount a tmpfs"))
    func aDraftSaveOnAFullDiskExits74AndKeepsThePreviousDraft() async throws {
        try await ReportSandbox.with { sandbox in
            let disk = sandbox.folder.appendingPathComponent("small-disk")
            try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
            #expect(mount("tmpfs", disk.path, "tmpfs", 0, "size=256k") == 0)
            defer { umount(disk.path) }
            var environment = sandbox.environment
            environment["PETSPOT_STATE_DIR"] = disk.appendingPathComponent("state").path
            let draft = disk.appendingPathComponent("state/drafts/missing.json")

            let first = try await CLIRunner.petspot(["report", "missing", "--chip", "985112003456789"], environment: environment)
            #expect(first.exitCode == 0, "\(first)")
            let before = try PhotoFixtures.bytes(draft.path)
            let filled = try await CLIRunner.run(URL(fileURLWithPath: "/bin/dd"),
                                                 ["if=/dev/zero", "of=\(disk.path)/filler", "bs=4096"])
            #expect(filled.stderr.contains("No space left"), "\(filled)")

            let second = try await CLIRunner.petspot(["report", "missing", "--breed", String(repeating: "Beagle ", count: 20)],
                                                     environment: environment)

            #expect(second.exitCode == 74, "\(second)")
            #expect(second.stderr.contains("the disk is full"), "\(second.stderr)")
            #expect(try PhotoFixtures.bytes(draft.path) == before, "the previous draft must be unchanged")
            #expect(try PhotoFixtures.temporaryFiles(in: draft.deletingLastPathComponent()).isEmpty)
        }
    }

    @Test func aDraftSaveOnAFullDiskMapsTo74() {
        #expect(ExitStatus.of(DraftStoreError.diskFull(path: "/x/drafts/missing.json")) == .ioError)
        #expect(DraftStoreError.diskFull(path: "/x").description.contains("disk is full"))
    }
}
