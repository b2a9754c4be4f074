#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestProcesses
import Testing

/// A report sent once to a wrong address is never stuck there and never lost: it follows the
/// server of the run that resumes it while nothing was confirmed; it is asked for again where
/// it may have arrived; it never goes to a second server once its announcement exists.
@Suite struct StuckSubmissionTests {
    typealias Home = ReportSubmitCLITests.Home

    @Test func aReportSentWhereNothingAnsweredFollowsTheServerOfTheRunThatResumesIt() async throws {
        let home = try Home("stuck-nowhere")
        defer { home.remove() }
        try home.fillMissingReport()
        let nowhere = "http://127.0.0.1:9"
        let failed = try home.run(["report", "submit", "--server", nowhere, "--max-attempts", "1"])
        #expect(failed.status == 69, "\(failed.stderr)")
        #expect(failed.stderr.contains("Nothing answered at \(nowhere)"), "\(failed.stderr)")

        let resumed = try home.run(["report", "submit", "--server", home.server.baseURL])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("was being sent to \(nowhere); nothing was confirmed there; sending it to \(home.server.baseURL)"),
                "\(resumed.stderr)")
        let announcements = try await home.announcements()
        let id = try #require(announcements.first?["id"] as? String)
        #expect(announcements.count == 1)
        #expect(resumed.stdout.contains("page:                \(home.server.baseURL)/pets/\(id)"), "\(resumed.stdout)")
        let page = try await HTTP.send(.GET, "\(home.server.baseURL)/pets/\(id)")
        #expect(page.status == 200)
        // `pet show` finds the server the announcement went to in the journal, with no --server.
        var environment = home.environment
        environment["PETSPOT_SERVER"] = nil
        let shown = try home.run(["pet", "show", id], environment: environment)
        #expect(shown.status == 0 && shown.stdout.contains("Status       MISSING"), "\(shown.stdout)\(shown.stderr)")
    }

    @Test func PETSPOT_SERVERIsFollowedLikeTheFlag() async throws {
        let home = try Home("stuck-env")
        defer { home.remove() }
        try home.fillMissingReport()
        var elsewhere = home.environment
        elsewhere["PETSPOT_SERVER"] = "http://127.0.0.1:9"
        #expect(try home.run(["report", "submit", "--max-attempts", "1"], environment: elsewhere).status == 69)
        let resumed = try home.run(["report", "submit"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("nothing was confirmed there; sending it to \(home.server.baseURL)"), "\(resumed.stderr)")
        #expect(try await home.announcements().count == 1)
    }

    /// A server that is not PetSpot's answers the create with an HTML 501, or with JSON that is
    /// not the contract's.
    @Test(arguments: [
        (FaultProxy.Fault.foreign(status: 501, contentType: "text/html", body: "<!DOCTYPE html><h1>Unsupported method</h1>"),
         "answered 501 Not Implemented: is it a PetSpot server?"),
        (.foreign(status: 404, contentType: "application/json", body: #"{"detail":"Not Found"}"#),
         "answered 404 Not Found: is it a PetSpot server?"),
    ])
    func aServerThatIsNotPetSpotIsNamedAsSuchAndTheReportMovesOn(answer: FaultProxy.Fault, said: String) async throws {
        let home = try Home("stuck-foreign")
        defer { home.remove() }
        try home.fillMissingReport()
        let foreign = try FaultProxy(upstream: home.server.baseURL, faults: [answer],
                                     matching: { $0.hasPrefix("POST /api/v1/announcements ") })
        let foreignURL = "http://127.0.0.1:\(foreign.port)"
        let failed = try home.run(["report", "submit", "--server", foreignURL])
        #expect(failed.status != 0)
        #expect(failed.stderr.contains("\(foreignURL) \(said)"), "\(failed.stderr)")
        #expect(!failed.stderr.contains("Something went wrong"), "\(failed.stderr)")
        #expect(!failed.stderr.contains("retrying"), "\(failed.stderr)")
        let resumed = try home.run(["report", "submit", "--server", home.server.baseURL])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("nothing was confirmed there"), "\(resumed.stderr)")
        #expect(try await home.announcements().count == 1)
    }

    /// The create request reached A and its answer was lost: A is asked again with the same key
    /// (and answers with the same announcement), whatever server the resuming run names.
    @Test func aReportWhoseAnswerWasLostIsAskedForAgainWhereItWent() async throws {
        let home = try Home("stuck-lost")
        defer { home.remove() }
        try home.fillMissingReport()
        let other = try ServerProcess(dataDirectory: home.folder + "/other")
        let proxy = try FaultProxy(upstream: home.server.baseURL, faults: [.stall(seconds: 5)],
                                   matching: { $0.hasPrefix("POST /api/v1/announcements ") })
        let serverA = "http://127.0.0.1:\(proxy.port)"
        let failed = try home.run(["report", "submit", "--server", serverA, "--max-attempts", "1", "--read-timeout", "1"])
        #expect(failed.status != 0, "\(failed.stderr)")
        #expect(!failed.stderr.contains("pass --server"), "\(failed.stderr)")

        let resumed = try home.run(["report", "submit", "--server", other.baseURL])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("was being sent to \(serverA), which may have received it"), "\(resumed.stderr)")
        #expect(resumed.stdout.contains("page:                \(serverA)/pets/"), "\(resumed.stdout)")
        #expect(try await home.announcements().count == 1)
        let onOther = try await HTTP.send(.GET, other.baseURL + "/api/v1/announcements")
        #expect(String(decoding: onOther.body, as: UTF8.self).contains(#""data":[]"#))
        #expect(other.stop() == 0)
    }

    /// Killed while the create request was on its way: the next run cannot know whether it
    /// arrived, so it asks the same server again, not the one it names.
    @Test func aSubmissionKilledDuringItsCreateIsAskedForAgainWhereItWent() async throws {
        let home = try Home("stuck-killed")
        defer { home.remove() }
        try home.fillMissingReport()
        let other = try ServerProcess(dataDirectory: home.folder + "/other")
        let proxy = try FaultProxy(upstream: home.server.baseURL, faults: [.stall(seconds: 30)],
                                   matching: { $0.hasPrefix("POST /api/v1/announcements ") })
        let serverA = "http://127.0.0.1:\(proxy.port)"
        let first = try home.start(["report", "submit", "--server", serverA, "--read-timeout", "60"])
        let deadline = Date().addingTimeInterval(30)
        while proxy.photoRequests == 0 && Date() < deadline { usleep(50_000) }
        first.process.send(SIGKILL)
        _ = await first.process.exitStatus()

        let resumed = try home.run(["report", "submit", "--server", other.baseURL])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("was being sent to \(serverA), which may have received it"), "\(resumed.stderr)")
        #expect(try await home.announcements().count == 1)
        let onOther = try await HTTP.send(.GET, other.baseURL + "/api/v1/announcements")
        #expect(String(decoding: onOther.body, as: UTF8.self).contains(#""data":[]"#))
        #expect(other.stop() == 0)
    }

    @Test func anAnnouncementThatExistsOnAIsNeverSentToB() async throws {
        let home = try Home("stuck-exists")
        defer { home.remove() }
        try home.fillMissingReport()
        let other = try ServerProcess(dataDirectory: home.folder + "/other")
        let proxy = try FaultProxy(upstream: home.server.baseURL, faults: [.answer(status: 503)])
        let serverA = "http://127.0.0.1:\(proxy.port)"
        let failed = try home.run(["report", "submit", "--server", serverA, "--max-attempts", "1"])
        #expect(failed.status != 0, "\(failed.stderr)")
        let id = try #require(try await home.announcements().first?["id"] as? String)

        let refused = try home.run(["report", "submit", "--server", other.baseURL])
        #expect(refused.status == 64, "\(refused.stderr)")
        #expect(refused.stderr.contains("the announcement \(id) already exists on \(serverA)"), "\(refused.stderr)")
        #expect(refused.stderr.contains("petspot submissions abandon \(id)"), "\(refused.stderr)")
        let onOther = try await HTTP.send(.GET, other.baseURL + "/api/v1/announcements")
        #expect(String(decoding: onOther.body, as: UTF8.self).contains(#""data":[]"#))
        // Without --server it finishes where it started, even with PETSPOT_SERVER naming another.
        var environment = home.environment
        environment["PETSPOT_SERVER"] = other.baseURL
        let finished = try home.run(["report", "submit"], environment: environment)
        #expect(finished.status == 0, "\(finished.stderr)")
        #expect(finished.stderr.contains("exists on \(serverA): its photo goes there, not to \(other.baseURL)"), "\(finished.stderr)")
        #expect(try await home.announcements().count == 1)
        #expect(other.stop() == 0)
    }

    @Test func abandoningASubmissionThatCreatedNothingKeepsItsDraft() async throws {
        let home = try Home("stuck-abandon")
        defer { home.remove() }
        try home.fillMissingReport()
        #expect(try home.run(["report", "submit", "--server", "http://127.0.0.1:9", "--max-attempts", "1"]).status == 69)
        let listed = try home.run(["submissions", "list", "--json"])
        let submission = try #require(listed.stdout.firstMatch(of: /"submission" ?: ?"([0-9a-f-]{36})"/).map { String($0.1) }, "\(listed.stdout)")
        let abandoned = try home.run(["submissions", "abandon", submission])
        #expect(abandoned.status == 0, "\(abandoned.stderr)")
        #expect(abandoned.stdout.contains("draft was kept"), "\(abandoned.stdout)")
        #expect(!abandoned.stdout.contains("was cleared"), "\(abandoned.stdout)")
        let shown = try home.run(["report", "show", "--flow", "missing"])
        #expect(shown.status == 0 && shown.stdout.contains("Labrador"), "\(shown.stdout)\(shown.stderr)")
        let sent = try home.run(["report", "submit"])
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(try await home.announcements().count == 1)
    }
}
