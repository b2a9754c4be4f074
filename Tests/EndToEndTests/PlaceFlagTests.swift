import Foundation
import NIOCore
import Testing

/// `--place` and `--location` on the report and `pet edit`, the built binary against the built
/// server with a gazetteer: a place name is looked up at once, a pasted "lat, lon" is taken as
/// it is, and a lookup that cannot be made keeps nothing for the location and says why.
@Suite struct PlaceFlagTests {
    typealias Home = ReportSubmitCLITests.Home

    static func draftLocation(_ home: Home) throws -> (Double?, Double?) {
        let shown = try home.run(["report", "show", "--flow", "missing", "--json"])
        let draft = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any]
        let fields = (draft?["draft"] as? [String: Any]) ?? draft ?? [:]
        let text = String(decoding: try JSONSerialization.data(withJSONObject: fields), as: UTF8.self)
        let latitude = text.firstMatch(of: /"latitude":(-?[0-9.]+)/).flatMap { Double($0.1) }
        let longitude = text.firstMatch(of: /"longitude":(-?[0-9.]+)/).flatMap { Double($0.1) }
        return (latitude, longitude)
    }

    @Test func aPlaceNameOrPastedCoordinatesFillTheLocation() async throws {
        let home = try Home("place-flags", places: PlacesImportTests.sample)
        defer { home.remove() }
        let named = try home.run(["report", "missing", "--place", "Mokotów, Warsaw", "--no-input"])
        #expect(named.stderr.contains("note: --place \"Mokotów, Warsaw\" is Mokotów, Warsaw, Poland (52.1934, 21.03487)"), "\(named.stderr)")
        var location = try Self.draftLocation(home)
        #expect(location.0 == 52.1934 && location.1 == 21.03487, "\(location)")

        let pasted = try home.run(["report", "missing", "--location", "52.2297, 21.0122", "--no-input"])
        #expect(pasted.status == 0 || pasted.status == 65, "\(pasted.stderr)")
        location = try Self.draftLocation(home)
        #expect(location.0 == 52.2297 && location.1 == 21.0122, "\(location)")

        // Unknown: nothing kept for the location, the rest saved, the command unsuccessful.
        let unknown = try home.run(["report", "missing", "--place", "Atlantis", "--breed", "Beagle", "--no-input"])
        #expect(unknown.status == 65 && unknown.stderr.contains("knows no place named \"Atlantis\""), "\(unknown.stderr)")
        location = try Self.draftLocation(home)
        #expect(location.0 == 52.2297, "the earlier location stays: \(location)")
        #expect(try home.run(["report", "show", "--flow", "missing"]).stdout.contains("Beagle"))

        // No server to ask: said, and nothing kept.
        let offline = try home.run(["report", "missing", "--place", "Warsaw", "--server", "http://127.0.0.1:9", "--no-input"])
        #expect(offline.status == 69 && offline.stderr.contains("could not look up \"Warsaw\""), "\(offline.stderr)")

        for (arguments, message) in [(["--place", "Warsaw", "--lat", "1", "--lon", "2"], "not several"),
                                     (["--location", "52.2 north"], "--location takes"),
                                     (["--place", ""], "--place takes")] {
            let refused = try home.run(["report", "missing", "--no-input"] + arguments)
            #expect(refused.status == 64 && refused.stderr.contains(message), "\(arguments): \(refused.stderr)")
        }
    }

    @Test func anOwnerMovesTheAnnouncementByPlaceName() async throws {
        let home = try Home("place-edit", places: PlacesImportTests.sample)
        defer { home.remove() }
        try home.fillMissingReport()
        #expect(try home.run(["report", "submit"]).status == 0)
        let id = try #require(try await home.announcements().first?["id"] as? String)
        // 1,370 km from where the pet was: refused off a terminal, naming the place and its country.
        let far = try home.run(["pet", "edit", id, "--place", "Paris, France"])
        #expect(far.status == 65 && far.stderr.contains("is Paris, France, 1,3"), "\(far.stderr)")
        let moved = try home.run(["pet", "edit", id, "--place", "Mokotów, Warsaw"])
        #expect(moved.status == 0, "\(moved.stderr)")
        let shown = try home.run(["pet", "show", id])
        #expect(shown.stdout.contains("Location     In Mokotów, Warsaw, Poland"), "\(shown.stdout)")
        let unknown = try home.run(["pet", "edit", id, "--place", "Atlantis"])
        #expect(unknown.status == 65 && unknown.stderr.contains("no place named"), "\(unknown.stderr)")
    }

    @Test func listingNearAPlaceFromTheCommandLine() async throws {
        let home = try Home("place-list", places: PlacesImportTests.sample)
        defer { home.remove() }
        try home.fillMissingReport()
        #expect(try home.run(["report", "submit"]).status == 0)
        let id = try #require(try await home.announcements().first?["id"] as? String)
        let near = try home.run(["pet", "list", "--near", "Mokotów, Warsaw", "--radius", "5km", "--species", "dog", "--status", "missing"])
        #expect(near.status == 0, "\(near.stderr)")
        #expect(near.stdout.contains("Near Mokotów, Warsaw, Poland (52.1934, 21.03487), within 5 km:"), "\(near.stdout)")
        #expect(near.stdout.contains(id) && near.stdout.contains("4.3 km"), "\(near.stdout)")
        let far = try home.run(["pet", "list", "--near", "Paris, France", "--radius", "5"])
        #expect(far.status == 0 && !far.stdout.contains(id) && far.stdout.contains("No announcements."), "\(far.stdout)")
        let unknown = try home.run(["pet", "list", "--near", "Atlantis"])
        #expect(unknown.status == 65 && unknown.stderr.contains("knows no place named \"Atlantis\""), "\(unknown.stderr)")
        for (arguments, message) in [(["--radius", "5km"], "--radius needs --near"), (["--near", "Warsaw", "--radius", "900km"], "--radius takes")] {
            let refused = try home.run(["pet", "list"] + arguments)
            #expect(refused.status == 64 && refused.stderr.contains(message), "\(refused.stderr)")
        }
    }

    @Test func possibleMatchesFromTheCommandLine() async throws {
        let home = try Home("matches-cli")
        defer { home.remove() }
        try home.fillMissingReport()
        #expect(try home.run(["report", "submit"]).status == 0)
        let id = try #require(try await home.announcements().first?["id"] as? String)
        #expect(try home.run(["pet", "matches", id]).stdout.contains("No possible matches"))
        let found = #"{"species":"DOG","sex":"UNKNOWN","last_seen_date":"2025-11-20","location_latitude":52.2400,"location_longitude":21.0122,"#
            + #""email":"finder@example.org","phone":"0412345678","status":"FOUND","breed":"labrador"}"#
        let reply = try await HTTP.send(.POST, home.server.baseURL + "/api/v1/announcements", headers: [("Content-Type", "application/json")],
                                        body: .bytes(ByteBuffer(string: found)))
        let foundID = try #require((try JSONSerialization.jsonObject(with: Data(reply.body)) as? [String: Any])?["id"] as? String)
        let listed = try home.run(["pet", "matches", id])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("1. \(foundID)  FOUND Dog, labrador") && listed.stdout.contains("1.1 km, 2 days later, both 'labrador'"),
                "\(listed.stdout)")
        #expect(!listed.stdout.contains("0412345678"))
        let unknown = try home.run(["pet", "matches", UUID().uuidString.lowercased()])
        #expect(unknown.status == 66, "\(unknown.stderr)")
    }
}
