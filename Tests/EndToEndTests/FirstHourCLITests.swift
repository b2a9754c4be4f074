import Foundation
import PetSpot
import TestProcesses
import Testing

/// The first hour of a new user of `petspot`, the built binary against the built server: place
/// names for a pet's location (a misspelling offered, a far place confirmed, nothing sent for a
/// name no place has), the server named the way people write it, the journal found whatever
/// the server's spelling, advice that follows the cause of a failed upload, retries that outlast
/// a server restart with a countdown, and a found report's summary saying only what is true.
@Suite struct FirstHourCLITests {
    typealias Home = ReportSubmitCLITests.Home

    static let places = URL(fileURLWithPath: PlacesImportTests.sample).deletingLastPathComponent().appendingPathComponent("places-cities.json").path

    /// The announcement's location as `pet show` prints it.
    static func location(_ home: Home, _ id: String) throws -> String {
        let shown = try home.run(["pet", "show", id])
        return shown.stdout.split(separator: "\n").first { $0.hasPrefix("Location") }.map(String.init) ?? shown.stdout
    }

    /// Runs `petspot arguments` on a pseudo-terminal (`scripts/pty-drive.py`), answering one
    /// question; the terminal's transcript.
    static func onTerminal(_ home: Home, _ arguments: [String], answering: (question: String, answer: String)) throws -> String {
        let driver = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/pty-drive.py").path
        let steps = home.folder + "/steps.json", result = home.folder + "/terminal.json"
        let conversation: [[String: Any]] = [["expect": answering.question], ["send": answering.answer], ["expect_exit": true]]
        try JSONSerialization.data(withJSONObject: conversation).write(to: URL(fileURLWithPath: steps))
        let command = (["python3", driver, "--timeout", "60", "--", ReportSubmitCLITests.petspot.path] + arguments)
            .map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let process = try ChildProcess("/bin/sh", ["-c", "\(command) < '\(steps)' > '\(result)'"], environment: home.environment)
        #expect(process.waitForExit() == 0)
        let answer = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: result))) as? [String: Any]
        #expect(answer?["status"] as? Int == 0 && answer?["error"] is NSNull, "\(String(describing: answer))")
        return answer?["transcript"] as? String ?? ""
    }

    @Test func placeNamesAreLookedUpFromWhereThePetIsAndNeverGuessed() async throws {
        let home = try Home("first-hour-places", places: Self.places)
        defer { home.remove() }
        try home.fillMissingReport()
        #expect(try home.run(["report", "submit"]).status == 0)
        let id = try #require(try await home.announcements().first?["id"] as? String)
        let before = try Self.location(home, id)
        #expect(before.contains("Warsaw, Poland"), "\(before)")

        let typo = try home.run(["pet", "edit", id, "--place", "Mokotuw"])
        #expect(typo.status == 65, "\(typo.stderr)")
        #expect(typo.stderr.contains("knows no place named \"Mokotuw\"; nothing was changed. Did you mean \"Mokotów, Warsaw, Poland\"?"),
                "\(typo.stderr)")
        let unknown = try home.run(["pet", "edit", id, "--place", "Zzyzxville"])
        #expect(unknown.status == 65 && unknown.stderr.contains("knows no place named \"Zzyzxville\""), "\(unknown.stderr)")
        // 1,370 km from the pet: not taken without asking.
        let far = try home.run(["pet", "edit", id, "--place", "Paris"])
        #expect(far.status == 65, "\(far.stderr)")
        #expect(far.stderr.contains("--place \"Paris\" is Paris, France, 1,3") && far.stderr.contains("km from the announcement's location"),
                "\(far.stderr)")
        #expect(try Self.location(home, id) == before, "nothing was sent")
        // Near names come first: Warsaw's Praga, not Prague.
        let praga = try home.run(["pet", "edit", id, "--place", "Praga"])
        #expect(praga.status == 0, "\(praga.stderr)")
        let inPraga = try Self.location(home, id)
        #expect(inPraga.contains("In Praga"), "\(inPraga)")
        let near = try home.run(["pet", "edit", id, "--place", "Ursynów"])
        #expect(near.status == 0, "\(near.stderr)")
        let inUrsynow = try Self.location(home, id)
        #expect(inUrsynow.hasSuffix("In Ursynów, Warsaw, Poland"), "\(inUrsynow)")
        // On a terminal, a far place is asked about and taken when confirmed.
        let transcript = try Self.onTerminal(home, ["pet", "edit", id, "--place", "Paris"], answering: ("Move the pet there? [y/N]", "y\r"))
        #expect(transcript.contains("--place \"Paris\" is Paris, France, 1,3"), "\(transcript)")
        let inParis = try Self.location(home, id)
        #expect(inParis.hasSuffix("In Paris, France"), "\(inParis)")
        let draft = try home.run(["report", "missing", "--place", "Mokotuw", "--no-input"])
        #expect(draft.status == 65 && draft.stderr.contains("Did you mean \"Mokotów, Warsaw, Poland\"?"), "\(draft.stderr)")
    }

    @Test func theServerIsFoundHoweverItIsWritten() async throws {
        let home = try Home("first-hour-server")
        defer { home.remove() }
        try home.fillMissingReport()
        #expect(try home.run(["report", "submit"]).status == 0)
        let id = try #require(try await home.announcements().first?["id"] as? String)
        let base = home.server.baseURL
        let port = try #require(URL(string: base)?.port)

        let withPath = try home.run(["pet", "list", "--server", base + "/api/v1"])
        #expect(withPath.status == 0 && withPath.stdout.contains(id), "\(withPath.stderr)")
        let tls = try home.run(["pet", "list", "--server", "https://127.0.0.1:\(port)", "--max-attempts", "1"])
        #expect(tls.status != 0 && tls.stderr.contains("TLS handshake") && tls.stderr.contains("--server http://127.0.0.1:\(port)"),
                "\(tls.stderr)")
        #expect(!tls.stderr.contains("Try again in a moment"), "\(tls.stderr)")

        // The journal is found by the announcement's id: localhost is the same server.
        let other = try home.run(["pet", "edit", id, "--description", "Seen by the river", "--server", "http://localhost:\(port)"])
        #expect(other.status == 0, "\(other.stderr)")
        let elsewhere = try home.run(["pet", "edit", id, "--description", "x", "--server", "http://127.0.0.1:9"])
        #expect(elsewhere.status == 77, "\(elsewhere.stderr)")
        #expect(elsewhere.stderr.contains("is in this machine's submission journal, for \(base)") && !elsewhere.stderr.contains("is not in"),
                "\(elsewhere.stderr)")
    }

    @Test func aCutUploadIsToldAsSuchAndAFoundReportSaysOnlyWhatItKept() async throws {
        let home = try Home("first-hour-upload")
        defer { home.remove() }
        try home.fillMissingReport()
        let proxy = try FaultProxy(upstream: home.server.baseURL, faults: [.dropAfter(bodyBytes: 2_000)])
        defer { proxy.close() }
        let cut = try home.run(["report", "submit", "--server", proxy.baseURL, "--max-attempts", "1"])
        #expect(cut.status != 0)
        #expect(cut.stderr.contains("its photo did not get through (the connection or the server failed, not the photo)"), "\(cut.stderr)")
        #expect(!cut.stderr.contains("Attach another photo"), "\(cut.stderr)")
        #expect(try home.run(["report", "submit"]).status == 0)

        let photo = TestImages.folder.appendingPathComponent("exif-orientation-6.jpg").path
        let found = ["report", "found", "--photo", photo, "--species", "cat", "--sex", "unknown", "--date", "2025-11-18",
                     "--lat", "52.2297", "--lon", "21.0122", "--phone", "+48 123 456 789", "--email", "finder@example.com"]
        #expect(try home.run(found).status == 0)
        let plain = try home.run(["report", "submit", "--flow", "found"])
        #expect(plain.status == 0 && !plain.stdout.contains("never sent"), "\(plain.stdout)")
        #expect(try home.run(found + ["--caregiver-phone", "+48 600 700 800"]).status == 0)
        let kept = try home.run(["report", "submit", "--flow", "found"])
        #expect(kept.status == 0 && kept.stdout.contains("Kept on this computer, never sent: the caregiver's phone (it was"), "\(kept.stdout)")
        #expect(!kept.stdout.contains("address"), "\(kept.stdout)")
    }

    @Test func aWriteOutlastsAServerRestartWithACountdown() async throws {
        let home = try Home("first-hour-retry")
        defer { home.remove() }
        try home.fillMissingReport()
        let creates: @Sendable (String) -> Bool = { $0.hasPrefix("POST /api/v1/announcements ") }
        // Seven failed attempts: more than the five the client used to stop at.
        let busy = try FaultProxy(upstream: home.server.baseURL, faults: Array(repeating: .answer(status: 503, headers: ["Retry-After: 0"]), count: 7),
                                  matching: creates)
        defer { busy.close() }
        let patient = try home.run(["report", "submit", "--server", busy.baseURL])
        #expect(patient.status == 0, "\(patient.stderr)")
        #expect(try await home.announcements().count == 1)

        try home.fillMissingReport()
        let restarting = try FaultProxy(upstream: home.server.baseURL, faults: [.answer(status: 503, headers: ["Retry-After: 2"])],
                                        matching: creates)
        defer { restarting.close() }
        let onTerminal = try home.run(viaScript: "'\(ReportSubmitCLITests.petspot.path)' report submit --server \(restarting.baseURL)")
        #expect(onTerminal.status == 0, "\(onTerminal.stdout)")
        #expect(onTerminal.stdout.contains("trying again in 2 s") && onTerminal.stdout.contains("trying again in 1 s"),
                "a countdown: \(onTerminal.stdout)")
        #expect(onTerminal.stdout.contains("Ctrl-C stops; `petspot report submit` carries on"), "\(onTerminal.stdout)")
    }
}
