import Foundation
import NIOCore
import PetSpot
import Testing

/// The Atom feed read by a real feed parser (PyPI's feedparser), from the built server.
@Suite struct FeedReaderTests {
    @Test func aFeedReaderFollowsMissingPetsNearAPlace() async throws {
        let data = try makeTemporaryDirectory("feed")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let (imported, output) = try await PlacesImportTests.importPlaces(PlacesImportTests.sample, dataDirectory: data)
        try #require(imported == 0, "\(output)")
        let server = try ServerProcess(dataDirectory: data)
        let body = HTTP.announcementJSON.replacingOccurrences(of: "-33.8688", with: "52.1934")
            .replacingOccurrences(of: "151.2093", with: "21.03487").replacingOccurrences(of: "\"FOUND\"", with: "\"MISSING\"")
        let reply = try await HTTP.send(.POST, server.baseURL + AnnouncementsAPI.collectionPath,
                                        headers: [("Content-Type", "application/json")], body: .bytes(ByteBuffer(string: body)))
        let created = try PetSpotJSON.decode(AnnouncementResponse.self, from: Data(reply.body))
        #expect(try await HTTP.upload(try TestImages.bytes("sample-photo.jpg"), base: server.baseURL, to: created).status == 201)

        let list = String(decoding: try await HTTP.send(.GET, server.baseURL + "/?status=missing&near_place=Mokotow&radius_km=5").body, as: UTF8.self)
        let feedPath = "/feed.atom?status=missing&amp;near_place=Mokotow&amp;radius_km=5"
        #expect(list.contains("<link rel=\"alternate\" type=\"application/atom+xml\""), "\(list)")
        #expect(list.contains(feedPath), "\(list)")

        let script = """
            import feedparser, json, sys
            d = feedparser.parse(sys.argv[1])
            print(json.dumps({"bozo": bool(d.bozo), "title": d.feed.get("title"), "version": d.version,
                              "entries": [{"title": e.title, "link": e.link, "updated": e.updated, "summary": e.summary,
                                           "enclosures": [l.href for l in e.links if l.rel == "enclosure"]} for e in d.entries]}))
            """
        let url = server.baseURL + "/feed.atom?status=missing&near_place=Mokotow&radius_km=5"
        let printed = try await runProcess("/usr/bin/env", ["python3", "-c", script, url])
        let parsed = try JSONSerialization.jsonObject(with: Data(printed.utf8)) as? [String: Any]
        #expect(parsed?["bozo"] as? Bool == false, "\(printed)")
        #expect(parsed?["version"] as? String == "atom10")
        #expect(parsed?["title"] as? String == "PetSpot: missing pets within 5 km of Mokotów, Warsaw, Poland")
        let entries = parsed?["entries"] as? [[String: Any]] ?? []
        #expect(entries.count == 1)
        let entry = try #require(entries.first)
        #expect(entry["title"] as? String == "MISSING: Cat" && entry["link"] as? String == server.baseURL + "/pets/\(created.id.rawValue)")
        #expect((entry["summary"] as? String)?.contains("in Mokotów, Warsaw, Poland") == true, "\(entry)")
        let enclosure = try #require((entry["enclosures"] as? [String])?.first)
        #expect(enclosure.hasSuffix("/w640.jpg"), "\(enclosure)")
        let image = try await HTTP.send(.GET, enclosure)
        #expect(image.status == 200 && image.headers.first(name: "Content-Type") == "image/jpeg")
        #expect(server.stop() == 0)
    }
}
