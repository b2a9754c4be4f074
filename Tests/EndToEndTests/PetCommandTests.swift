import Foundation
import PetSpot
import Testing

/// `petspot pet show` and `pet list` against a real server: messages that fit what happened
/// (issue 25 §2).
@Suite struct PetCommandTests {
    @Test func anUnknownIdIsSaidAsSuchWithExit66() async throws {
        let home = try ReportSubmitCLITests.Home("pet-unknown")
        let unknown = "0b1c2d3e-0000-4000-8000-000000000000"
        let shown = try home.run(["pet", "show", unknown])
        #expect(shown.status == 66, "\(shown.stderr)")
        #expect(shown.stderr.contains("No announcement with id \(unknown) on this server"), "\(shown.stderr)")
        #expect(!shown.stderr.contains("Something went wrong") && !shown.stderr.contains("report submit"))
        let json = try home.run(["pet", "show", unknown, "--json"])
        #expect(json.status == 66)
        #expect(json.stdout.contains(#""exit_code" : 66"#) || json.stdout.contains(#""exit_code":66"#), "\(json.stdout)")
    }

    @Test func readingCommandsNeverSuggestResumingASubmission() async throws {
        let home = try ReportSubmitCLITests.Home("pet-offline")
        let listed = try home.run(["pet", "list", "--server", "http://127.0.0.1:9", "--max-attempts", "1"])
        #expect(listed.status != 0)
        #expect(!listed.stderr.contains("report submit"), "\(listed.stderr)")
        let shown = try home.run(["pet", "show", "0b1c2d3e-0000-4000-8000-000000000000", "--server", "http://127.0.0.1:9", "--max-attempts", "1"])
        #expect(!shown.stderr.contains("report submit"), "\(shown.stderr)")
    }
}

/// `--server` values that are not a server's URL: a usage error naming the problem (issue 25 §2).
@Suite struct ServerOptionTests {
    @Test(arguments: [
        ("127.0.0.1:8080", "has no scheme: add http:// or https://, e.g. http://127.0.0.1:8080"),
        ("ftp://pets.example.org", "uses ftp://; PetSpot servers speak http:// or https://"),
        ("not a url", "is not a URL"),
        ("http://", "names no host"),
    ])
    func aBadServerURLIsAUsageErrorThatSaysWhy(server: String, reason: String) async throws {
        let home = try ReportSubmitCLITests.Home("server-url")
        for arguments in [["pet", "list", "--server", server], ["pet", "show", "0b1c2d3e-0000-4000-8000-000000000000", "--server", server]] {
            let run = try home.run(arguments)
            #expect(run.status == 64, "\(run.stderr)")
            #expect(run.stderr.contains(reason), "\(run.stderr)")
            #expect(run.stderr.contains("(--server)"))
            #expect(!run.stderr.contains("Something went wrong"))
        }
    }
}
