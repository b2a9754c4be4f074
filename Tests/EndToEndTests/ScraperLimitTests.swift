import Foundation
import NIOCore
import PetSpot
import Testing

/// What a scraper gets from the built `petspot-server`: lists without anyone's contact details,
/// and a per-address cap on reading announcements one by one.
@Suite struct ScraperLimitTests {
    @Test func aListCarriesNoContactDetailsButOneAnnouncementDoes() async throws {
        let data = try makeTemporaryDirectory("scraper-list")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data)
        let created = try await HTTP.create(server.baseURL)
        let list = try await HTTP.send(.GET, server.baseURL + AnnouncementsAPI.collectionPath)
        let text = String(decoding: list.body, as: UTF8.self)
        #expect(list.status == 200 && !text.contains("0412345678") && !text.contains("finder@example.org"), "\(text)")
        struct Page: Decodable { var data: [PetDetails] }
        let items = try PetSpotJSON.decode(Page.self, from: Data(list.body)).data
        #expect(items.count == 1 && items[0].phone == "" && items[0].email == nil)
        let one = try await HTTP.send(.GET, server.baseURL + AnnouncementsAPI.announcementPath(id: created.id))
        let details = try PetSpotJSON.decode(PetDetails.self, from: Data(one.body))
        #expect(details.phone == "0412345678" && details.email == "finder@example.org")
        #expect(server.stop() == 0)
    }

    @Test func readsPastTheCapAre429WithRetryAfterAndPhotosDoNotCount() async throws {
        let data = try makeTemporaryDirectory("scraper-cap")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data, arguments: ["--detail-rate", "3/hour"])
        let created = try await HTTP.create(server.baseURL)
        #expect(try await HTTP.upload(try TestImages.bytes("jpeg-baseline.jpg"), base: server.baseURL, to: created).status == 201)
        let api = server.baseURL + AnnouncementsAPI.announcementPath(id: created.id)
        let page = server.baseURL + "/pets/\(created.id.rawValue)"
        let first = try await HTTP.send(.GET, api)
        #expect(first.status == 200)
        #expect(try await HTTP.send(.GET, page).status == 200)
        let photo = try #require(try PetSpotJSON.decode(PetDetails.self, from: Data(first.body)).photoUrl)
        for _ in 0..<5 { #expect(try await HTTP.send(.GET, photo).status == 200, "photos are not counted") }
        #expect(try await HTTP.send(.GET, api).status == 200)
        let refused = try await HTTP.send(.GET, api)
        #expect(refused.status == 429)
        let wait = Int(refused.headers.first(name: "Retry-After") ?? "") ?? 0
        #expect((600...1200).contains(wait), "one read comes back every 20 minutes: \(wait) s")
        let refusedPage = try await HTTP.send(.GET, page)
        #expect(refusedPage.status == 429 && String(decoding: refusedPage.body, as: UTF8.self).contains("<html"))
        // The list is not a detail read.
        #expect(try await HTTP.send(.GET, server.baseURL + AnnouncementsAPI.collectionPath).status == 200)
        #expect(server.stop() == 0)
    }
}
