import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PetSpot
import Testing
@testable import PetSpotServer

@Suite struct ReadRoutesTests {
    @Test func detailsUseTheCamelCaseShapeAndReportMissingAsActive() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let missing = try await client.createAnnouncement()
            let found = try await client.createAnnouncement(RequestBodies.announcement(["status": #""FOUND""#, "sex": #""UNKNOWN""#]))
            let response = try await client.execute(uri: AnnouncementsAPI.announcementPath(id: missing.id), method: .get)
            #expect(response.status == .ok)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
            #expect(json["status"] as? String == "ACTIVE")
            #expect(json["lastSeenDate"] as? String == "2025-11-18")
            #expect(json["location"] as? String == "52.2297, 21.0122" && json["locationLatitude"] as? Double == 52.2297)
            #expect(json["id"] as? String == missing.id.rawValue)
            let foundDetails = try PetSpotJSON.decode(
                PetDetails.self, from: Data(buffer: try await client.execute(uri: AnnouncementsAPI.announcementPath(id: found.id), method: .get).body))
            #expect(foundDetails.status == .found && foundDetails.gender == .unknown)
        }
    }

    @Test func unknownIdsAndRoutesAreJSON404s() async throws {
        let server = try await TestServer()
        try await server.test { client in
            for uri in ["/api/v1/announcements/\(UUID().uuidString.lowercased())", "/api/v1/nothing-here"] {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == .notFound)
                #expect(try response.apiError().code == .notFound)
            }
        }
    }

    @Test func theListIsNewestFirstInPages() async throws {
        let server = try await TestServer()
        try await server.test { client in
            var ids: [AnnouncementID] = []
            for _ in 0..<5 { ids.append(try await client.createAnnouncement().id) }
            var seen: [AnnouncementID] = []
            var cursor: String?
            repeat {
                let uri = "/api/v1/announcements?limit=2" + (cursor.map { "&cursor=\($0)" } ?? "")
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == .ok)
                let json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                let page = try #require(json["data"] as? [[String: Any]])
                #expect(page.count <= 2)
                seen += page.compactMap { ($0["id"] as? String).flatMap(AnnouncementID.init(rawValue:)) }
                cursor = json["next_cursor"] as? String
                #expect(json.keys.contains("next_cursor"))
            } while cursor != nil
            #expect(seen == ids.reversed())
        }
    }

    @Test(arguments: ["limit=0", "limit=101", "limit=abc", "cursor=bogus"])
    func badListParametersAre400(query: String) async throws {
        let server = try await TestServer()
        try await server.test { client in
            let response = try await client.execute(uri: "/api/v1/announcements?\(query)", method: .get)
            #expect(response.status == .badRequest)
        }
    }

    /// A client polling `/health` in a loop gets the last answer: however many ask, the
    /// database is written at most once a second (plus the first).
    @Test func healthChecksRunAtMostOnceASecond() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let started = ContinuousClock.now
            var writes: Set<Double> = [], answers = 0
            // Until three checks have written (a check that waits for a slow disk holds the answer
            // longer; on a loaded machine one answer can take seconds, hence the long bound).
            while writes.count < 3 && ContinuousClock.now - started < .seconds(120) {
                #expect(try await client.execute(uri: "/health", method: .get).status == .ok)
                answers += 1
                if let at = try await server.healthProbeTime() { writes.insert(at) }
            }
            let seconds = Double((ContinuousClock.now - started).components.seconds) + 1
            // Distinct write times are at least a second apart, however fast the answers came.
            #expect(!writes.isEmpty && Double(writes.count) <= seconds + 1, "\(writes.sorted()) writes for \(answers) answers in \(seconds) s")
            let gaps = zip(writes.sorted(), writes.sorted().dropFirst()).map { $1 - $0 }
            #expect(gaps.allSatisfy { $0 >= 0.99 }, "\(gaps)")
            // Answers that came faster than one a second shared a check.
            if Double(answers) > 4 * seconds { #expect(answers > 2 * writes.count, "\(answers) answers") }
        }
    }

    @Test func healthIs200WhileTheDatabaseAnswers() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let response = try await client.execute(uri: "/health", method: .get)
            #expect(response.status == .ok)
            #expect(String(buffer: response.body) == #"{"status":"ok"}"#)
        }
    }
}

@Suite struct HelperParsingTests {
    @Test func rangesFollowRFC9110() {
        #expect(ByteRange(header: "bytes=0-9", length: 100) == .partial(0...9))
        #expect(ByteRange(header: "bytes=90-", length: 100) == .partial(90...99))
        #expect(ByteRange(header: "bytes=-10", length: 100) == .partial(90...99))
        #expect(ByteRange(header: "bytes=95-200", length: 100) == .partial(95...99))
        #expect(ByteRange(header: "bytes=100-", length: 100) == .unsatisfiable)
        #expect(ByteRange(header: "bytes=0-1,5-6", length: 100) == .whole)
        #expect(ByteRange(header: "items=0-1", length: 100) == .whole)
        #expect(ByteRange(header: "bytes=9-1", length: 100) == .whole)
        #expect(ByteRange(header: nil, length: 100) == .whole)
    }

    @Test func headerParametersReadQuotedValues() {
        let type = HeaderParameters(#"Multipart/Form-Data; charset=utf-8; boundary="a b\"c""#)
        #expect(type.value == "multipart/form-data")
        #expect(type.parameters["boundary"] == #"a b"c"#)
        let disposition = HeaderParameters(#"form-data; name="photo"; filename="x;y=z.jpg""#)
        #expect(disposition.parameters["name"] == "photo")
        #expect(disposition.parameters["filename"] == "x;y=z.jpg")
    }

    @Test func cursorsRoundTripAndRejectForeignTokens() {
        #expect(PageCursor(token: PageCursor(position: 42).token) == PageCursor(position: 42))
        #expect(PageCursor(token: "bogus") == nil)
        #expect(PageCursor(token: "") == nil)
    }
}
