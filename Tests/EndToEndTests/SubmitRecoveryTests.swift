import Foundation
import PetSpot
import Testing

/// When submitting goes wrong, `petspot` says what happened and gives a way out:
/// the real `petspot` against a real `petspot-server` on 127.0.0.1.
@Suite struct SubmitRecoveryTests {
    typealias Home = ReportSubmitCLITests.Home

    @Test func aPhotoOverTheServersStatedLimitIsPreparedAgainUnderItAndSent() async throws {
        let home = try Home("limit-reprepare", serverArguments: ["--max-photo-bytes", "30000"])
        defer { home.remove() }
        try home.fillMissingReport(photo: "sample-photo.jpg")
        let submitted = try home.run(["report", "submit"])
        #expect(submitted.status == 0, "\(submitted.stderr)")
        #expect(submitted.stderr.contains("The server accepts photos up to 30,000 bytes; the photo ("), "\(submitted.stderr)")
        #expect(submitted.stderr.contains("was prepared again to"), "\(submitted.stderr)")
        let announcements = try await home.announcements()
        #expect(announcements.count == 1)
        let url = try #require(announcements.first?["photoUrl"] as? String)
        let photo = try await HTTP.send(.GET, url)
        #expect(photo.status == 200 && photo.body.count <= 30000)
    }

    @Test func aPhotoThatCannotFitIsSaidAsSuchAndTheSubmissionCanBeAbandoned() async throws {
        let home = try Home("limit-abandon", serverArguments: ["--max-photo-bytes", "2000"])
        defer { home.remove() }
        try home.fillMissingReport(photo: "sample-photo.jpg")
        let failed = try home.run(["report", "submit"])
        #expect(failed.status == 65, "\(failed.stderr)")
        #expect(failed.stderr.contains("The photo is larger than this server accepts (at most 2,000 bytes)"), "\(failed.stderr)")
        #expect(!failed.stderr.contains("Something went wrong"), "\(failed.stderr)")
        let announcements = try await home.announcements()
        let id = try #require(announcements.first?["id"] as? String)
        #expect(announcements.count == 1 && announcements.first?["photoUrl"] is NSNull)
        #expect(failed.stderr.contains("The announcement \(id) exists and is public without its photo"), "\(failed.stderr)")
        #expect(failed.stderr.contains("petspot submissions abandon \(id)"), "\(failed.stderr)")

        // `submissions show` finds it by the announcement's id, the only id the user was shown.
        let shown = try home.run(["submissions", "show", id])
        #expect(shown.status == 0 && shown.stdout.contains("state:        the announcement is posted; its photo is not uploaded yet"), "\(shown.stdout)\(shown.stderr)")
        #expect(shown.stdout.contains("petspot submissions abandon"))

        let abandoned = try home.run(["submissions", "abandon", id])
        #expect(abandoned.status == 0, "\(abandoned.stderr)")
        #expect(abandoned.stdout.contains("id:                  \(id)"), "\(abandoned.stdout)")
        #expect(abandoned.stdout.contains(/management password: [0-9]{6}/), "\(abandoned.stdout)")
        #expect(abandoned.stdout.contains("draft it was sent from was cleared"), "\(abandoned.stdout)")
        // Nothing is resumed or sent again: no second announcement.
        let again = try home.run(["report", "submit"])
        #expect(again.status != 0 && again.stderr.contains("no report draft to submit"), "\(again.stderr)")
        #expect(try home.run(["submissions", "abandon", id]).status == 65)
        #expect(try await home.announcements().count == 1)
        let listed = try home.run(["submissions", "list"])
        #expect(listed.stdout.contains("abandoned"), "\(listed.stdout)")
    }

    @Test func aPendingSubmissionSendsThePhotoTheDraftHasNow() async throws {
        let home = try Home("limit-new-photo", serverArguments: ["--max-photo-bytes", "2000"])
        defer { home.remove() }
        try home.fillMissingReport(photo: "sample-photo.jpg")
        #expect(try home.run(["report", "submit"]).status == 65)
        let id = try #require(try await home.announcements().first?["id"] as? String)
        // A photo that fits (a tiny one) attached to the draft; the pending submission sends it.
        let attached = try home.run(["report", "missing", "--photo", TestImages.folder.appendingPathComponent("exif-orientation-1.jpg").path])
        #expect(attached.status == 0, "\(attached.stderr)")
        let resumed = try home.run(["report", "submit"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("Uploading the draft's current photo"), "\(resumed.stderr)")
        #expect(resumed.stdout.contains("id:                  \(id)"), "\(resumed.stdout)")
        let announcements = try await home.announcements()
        #expect(announcements.count == 1 && announcements.first?["photoUrl"] as? String != nil)
    }

    @Test func retriesAreShownOnATerminalAndTheCauseIsReadable() async throws {
        let home = try Home("retry-lines")
        defer { home.remove() }
        try home.fillMissingReport()
        let petspot = ReportSubmitCLITests.petspot.path
        let onTerminal = try home.run(viaScript: "'\(petspot)' report submit --server http://127.0.0.1:9 --max-attempts 3")
        #expect(onTerminal.status == 69, "\(onTerminal.stdout)")
        #expect(onTerminal.stdout.contains("server not reachable, retrying in"), "\(onTerminal.stdout)")
        #expect(onTerminal.stdout.contains("(attempt 2 of 3)") && onTerminal.stdout.contains("(attempt 3 of 3)"), "\(onTerminal.stdout)")
        // Not on a terminal (a script): no retry lines.
        let plain = try home.run(["report", "submit", "--server", "http://127.0.0.1:9", "--max-attempts", "2"])
        #expect(!plain.stderr.contains("retrying in"), "\(plain.stderr)")
        let verbose = try home.run(["report", "submit", "--server", "http://127.0.0.1:9", "--max-attempts", "1", "-v"])
        #expect(verbose.stderr.contains("cause: The server cannot be reached: http://127.0.0.1:9: connection refused."), "\(verbose.stderr)")
        #expect(!verbose.stderr.contains("errno") && !verbose.stderr.contains("error set"), "\(verbose.stderr)")
        #expect(verbose.stderr.contains("Nothing answered at http://127.0.0.1:9 (connection refused): start petspot-server there"),
                "\(verbose.stderr)")
        #expect(verbose.stderr.contains("Run `petspot report submit` again to resume"), "\(verbose.stderr)")
    }
}

/// Clearing the cache does not silently empty an open report.
@Suite struct ClearedPhotoSubmitTests {
    @Test func aMissingReportWhosePhotoWasClearedIsSentOnlyWhenSaidSo() async throws {
        let home = try ReportSubmitCLITests.Home("cleared-photo")
        defer { home.remove() }
        try home.fillMissingReport(photo: "sample-photo.jpg")
        let kept = try home.run(["cache", "clear", "--dry-run"])
        #expect(kept.stdout.contains("Kept 1 pinned photo of open reports"), "\(kept.stdout)")
        let cleared = try home.run(["cache", "clear", "--include-pinned"])
        #expect(cleared.stdout.contains("Removed the photo of the open missing-pet report"), "\(cleared.stdout)")
        let refused = try home.run(["report", "submit"])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stdout.contains("The draft's photo is gone from the photo cache"), "\(refused.stdout)")
        #expect(try await home.announcements().isEmpty)
        let sent = try home.run(["report", "submit", "--without-photo"])
        #expect(sent.status == 0, "\(sent.stderr)")
        let announcements = try await home.announcements()
        #expect(announcements.count == 1 && announcements.first?["photoUrl"] is NSNull)
    }
}
