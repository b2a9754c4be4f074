import Foundation
import Testing

/// `petspot pet edit|close|reopen|delete|photo` as an owner uses them, the built binary against
/// the built server: credentials from the journal, else PETSPOT_PASSWORD, never `--password`.
@Suite struct PetOwnerCommandTests {
    typealias Home = ReportSubmitCLITests.Home

    /// Sends the filled report and returns the announcement's id.
    private func submitted(_ home: Home) async throws -> String {
        try home.fillMissingReport()
        let sent = try home.run(["report", "submit"])
        #expect(sent.status == 0, "\(sent.stderr)")
        return try #require(try await home.announcements().first?["id"] as? String)
    }

    @Test func anOwnerEditsClosesReopensAndDeletesFromTheCommandLine() async throws {
        let home = try Home("owner-life")
        defer { home.remove() }
        let id = try await submitted(home)

        let edited = try home.run(["pet", "edit", id, "--description", "Black labrador, red collar", "--phone", "+48 600 100 200"])
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(edited.stdout.contains("Changed description, phone of \(id)"), "\(edited.stdout)")
        #expect(edited.stdout.contains("Black labrador, red collar"), "\(edited.stdout)")
        let shown = try home.run(["pet", "show", id])
        #expect(shown.stdout.contains("Description  Black labrador, red collar") && shown.stdout.contains("+48600100200"), "\(shown.stdout)")

        // The report's rules and messages, by flag.
        let bad = try home.run(["pet", "edit", id, "--phone", "12"])
        #expect(bad.status == 65 && bad.stderr.contains("Enter at least 7 digits") && bad.stderr.contains("--phone"), "\(bad.stderr)")
        let badAge = try home.run(["pet", "edit", id, "--age", "old"])
        #expect(badAge.status != 0 && badAge.stderr.contains("'old' is not a whole number"), "\(badAge.stderr)")
        #expect(try home.run(["pet", "edit", id]).status == 64)

        let closed = try home.run(["pet", "close", id, "--reunited"])
        #expect(closed.status == 0, "\(closed.stderr)")
        #expect(closed.stdout.contains("REUNITED"), "\(closed.stdout)")
        let stranger = try home.run(["pet", "show", id, "--state-dir", home.folder + "/elsewhere"])
        #expect(stranger.stdout.contains("Status       REUNITED") && !stranger.stdout.contains("+48600100200"), "\(stranger.stdout)")
        #expect(!(try home.run(["pet", "list"]).stdout.contains(id)))

        let reopened = try home.run(["pet", "reopen", id])
        #expect(reopened.status == 0 && reopened.stdout.contains("MISSING again"), "\(reopened.stdout)\(reopened.stderr)")
        #expect(try home.run(["pet", "list"]).stdout.contains(id))

        // Not on a terminal, deleting needs --yes.
        let unconfirmed = try home.run(["pet", "delete", id])
        #expect(unconfirmed.status == 64 && unconfirmed.stderr.contains("--yes"), "\(unconfirmed.stderr)")
        let deleted = try home.run(["pet", "delete", id, "--yes"])
        #expect(deleted.status == 0 && deleted.stdout.contains("410 Gone"), "\(deleted.stdout)\(deleted.stderr)")
        #expect(try await HTTP.send(.GET, "\(home.server.baseURL)/api/v1/announcements/\(id)").status == 410)
        let again = try home.run(["pet", "edit", id, "--description", "x"])
        #expect(again.status == 66 && again.stderr.contains("was taken down"), "\(again.stderr)")
        let gone = try home.run(["pet", "show", id])
        #expect(gone.status == 66 && gone.stderr.contains("was taken down by its owner"), "\(gone.stderr)")
    }

    @Test func theOwnerReplacesAndRemovesThePhoto() async throws {
        let home = try Home("owner-photo")
        defer { home.remove() }
        let id = try await submitted(home)
        let replaced = try home.run(["pet", "photo", id, TestImages.folder.appendingPathComponent("sample-photo.jpg").path])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        let url = try #require(replaced.stdout.firstMatch(of: /(http:\/\/\S+\/photos\/\S+)/).map { String($0.1) }, "\(replaced.stdout)")
        #expect(try await HTTP.send(.GET, url).status == 200)
        let notAPhoto = try home.run(["pet", "photo", id, "/etc/hostname"])
        #expect(notAPhoto.status != 0 && !notAPhoto.stderr.isEmpty)
        let removed = try home.run(["pet", "photo", id, "--remove"])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(try await HTTP.send(.GET, url).status == 404)
        #expect(try await home.announcements().first?["photoUrl"] is NSNull)
    }

    @Test func anAnnouncementFiledElsewhereTakesThePasswordFromTheEnvironmentNeverTheCommandLine() async throws {
        let home = try Home("owner-elsewhere")
        defer { home.remove() }
        let created = try await HTTP.create(home.server.baseURL)
        let id = created.id.rawValue
        let flag = try home.run(["pet", "close", id, "--withdrawn", "--password", created.managementPassword])
        #expect(flag.status == 64 && flag.stderr.contains("visible to every user"), "\(flag.stderr)")
        let none = try home.run(["pet", "close", id, "--withdrawn"])
        #expect(none.status == 77 && none.stderr.contains("PETSPOT_PASSWORD"), "\(none.stderr)")
        var environment = home.environment
        environment["PETSPOT_PASSWORD"] = created.managementPassword == "000000" ? "111111" : "000000"
        let wrong = try home.run(["pet", "close", id, "--withdrawn"], environment: environment)
        #expect(wrong.status == 77 && wrong.stderr.contains("did not accept the management password"), "\(wrong.stderr)")
        environment["PETSPOT_PASSWORD"] = created.managementPassword
        let closed = try home.run(["pet", "close", id, "--withdrawn"], environment: environment)
        #expect(closed.status == 0 && closed.stdout.contains("CLOSED"), "\(closed.stdout)\(closed.stderr)")
    }

    @Test func aDraftEditedAfterItsAnnouncementWasCreatedSendsItsChanges() async throws {
        let home = try Home("owner-draft-edit", serverArguments: ["--max-photo-bytes", "2000"])
        defer { home.remove() }
        try home.fillMissingReport(photo: "sample-photo.jpg")
        // The photo is refused (too large even re-fitted): the announcement exists, the submission waits.
        #expect(try home.run(["report", "submit"]).status != 0)
        let id = try #require(try await home.announcements().first?["id"] as? String)
        #expect(try home.run(["report", "missing", "--description", "Now with a blue collar",
                              "--photo", TestImages.folder.appendingPathComponent("jpeg-baseline.jpg").path]).status == 0)
        let sent = try home.run(["report", "submit"])
        #expect(sent.stderr.contains("Sent the draft's changes to announcement \(id): description"), "\(sent.stderr)")
        let details = try #require(try await home.announcements().first)
        #expect(details["description"] as? String == "Now with a blue collar")
        #expect(try await home.announcements().count == 1)
    }
}
