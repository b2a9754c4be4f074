import Foundation
import PetSpot
import PetSpotClient
import Testing

/// `petspot pet show` and `pet list` against a real server: messages that fit what happened.
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

    @Test func showAndListGiveThePhotosSizesAndJSONListsTheirURLs() async throws {
        let home = try ReportSubmitCLITests.Home("pet-variants")
        let created = try await HTTP.create(home.server.baseURL)
        let upload = try await HTTP.upload(try TestImages.bytes("sample-photo.jpg"), base: home.server.baseURL, to: created)
        #expect(upload.status == 201)
        let shown = try home.run(["pet", "show", created.id.rawValue])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("Photo sizes  320, 640, 1200 px wide, as JPEG and WebP"), "\(shown.stdout)")
        let json = try home.run(["pet", "show", created.id.rawValue, "--json"])
        let details = try PetSpotJSON.decode(PetDetails.self, from: Data(json.stdout.utf8))
        let variants = try #require(details.photoVariants)
        #expect(variants.count == 6 && variants.allSatisfy { $0.url.hasPrefix(home.server.baseURL + "/photos/") })
        for link in variants {
            let reply = try await HTTP.send(.GET, link.url)
            #expect(reply.status == 200 && reply.headers["Content-Type"].first == (link.format == "webp" ? "image/webp" : "image/jpeg"))
        }
        let listed = try home.run(["pet", "list", "--json"])
        let page = try PetSpotJSON.decode(AnnouncementList.self, from: Data(listed.stdout.utf8))
        #expect(page.data.first?.photoVariants == variants)
        let plain = try home.run(["pet", "list"])
        #expect(plain.status == 0 && plain.stdout.contains(created.id.rawValue))
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

/// `--server` values that are not a server's URL: a usage error naming the problem.
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
