import Foundation
import NIOCore
import PetSpot
import Testing

/// A pet found by its microchip, through the built server on the configured backend: the number
/// as people type it finds its open announcement in the API (`?chip=`), on the list page
/// (`/?chip=`) and with `petspot pet list --chip`; a closed one is not found; a number of a length
/// no chip has is a 400 naming `chip` (the page says so beside the box, the CLI before asking);
/// the answer shows no more than the list does.
@Suite struct ChipSearchTests {
    typealias Home = ReportSubmitCLITests.Home

    static let typed = "985 112 003 456 789"

    static func create(_ base: String, chip: String, description: String) async throws -> AnnouncementResponse {
        let body = #"{"species":"DOG","sex":"MALE","last_seen_date":"2025-11-18","location_latitude":52.2297,"location_longitude":21.0122,"#
            + #""email":"owner@example.org","phone":"+48123456789","status":"MISSING","microchip_number":"\#(chip)","description":"\#(description)"}"#
        let reply = try await HTTP.send(.POST, base + AnnouncementsAPI.collectionPath, headers: [("Content-Type", "application/json")],
                                        body: .bytes(ByteBuffer(string: body)))
        #expect(reply.status == 201)
        return try PetSpotJSON.decode(AnnouncementResponse.self, from: Data(reply.body))
    }

    static func ids(_ reply: HTTP.Reply) throws -> [String] {
        let list = try JSONSerialization.jsonObject(with: Data(reply.body)) as? [String: Any]
        return (list?["data"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
    }

    @Test func aChipNumberAsTypedFindsItsOpenAnnouncementInTheAPIThePageAndTheCLI() async throws {
        let home = try Home("chip-search", serverArguments: ["--list-rate", "40"])
        defer { home.remove() }
        let base = home.server.baseURL
        let open = try await Self.create(base, chip: "985112003456789", description: "Open one")
        let closed = try await Self.create(base, chip: "985112003456789", description: "Closed one")
        let other = try await Self.create(base, chip: "985112003456788", description: "Another chip")
        let reunited = try await HTTP.send(.PATCH, base + AnnouncementsAPI.announcementPath(id: closed.id),
                                           headers: [("Content-Type", "application/merge-patch+json"),
                                                     ("Authorization", closed.credentials.authorizationHeader)],
                                           body: .bytes(ByteBuffer(string: #"{"status":"CLOSED","closed_outcome":"REUNITED"}"#)))
        #expect(reunited.status == 200)

        // The API: spaces, dashes, dots; exactly its digits; open ones only; no contact details.
        for typed in [Self.typed, "985-112-003-456-789", "985.112.003.456.789", "985112003456789"] {
            let query = typed.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let reply = try await HTTP.send(.GET, base + "/api/v1/announcements?chip=" + query)
            #expect(reply.status == 200)
            #expect(try Self.ids(reply) == [open.id.rawValue], "\(typed)")
            let text = String(decoding: reply.body, as: UTF8.self)
            #expect(!text.contains("48123456789") && !text.contains("owner@example.org"), "no contact details in a list")
        }
        #expect(try Self.ids(try await HTTP.send(.GET, base + "/api/v1/announcements?chip=985112003456788")) == [other.id.rawValue])
        #expect(try Self.ids(try await HTTP.send(.GET, base + "/api/v1/announcements?chip=123456789012345")).isEmpty)
        for bad in ["98511200345678", "9851120034567890", "12345678", "985112003456789a", "", "+++",
                    "0....0....0....0....0....0...0...0...0...", String(repeating: " ", count: 30) + "985112003456789"] {
            let reply = try await HTTP.send(.GET, base + "/api/v1/announcements?chip=" + bad.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
            let error = try PetSpotJSON.decode(APIErrorBody.self, from: Data(reply.body)).error
            #expect(reply.status == 400 && error.field == "chip", "\(bad): \(error)")
        }
        for combined in ["chip=985112003456789&status=closed", "chip=985112003456789&near=52.2,21.0"] {
            let reply = try await HTTP.send(.GET, base + "/api/v1/announcements?" + combined)
            #expect(reply.status == 400, "\(combined)")
        }

        // The page: the box keeps the number; the card is there; a bad length is said beside the box.
        let page = try await HTTP.send(.GET, base + "/?chip=985+112+003+456+789")
        let html = String(decoding: page.body, as: UTF8.self)
        #expect(page.status == 200)
        #expect(html.contains("/pets/\(open.id.rawValue)") && !html.contains("/pets/\(closed.id.rawValue)") && !html.contains("/pets/\(other.id.rawValue)"))
        #expect(html.contains(#"name="chip" value="985 112 003 456 789""#), "the number stays in its box")
        #expect(html.contains("98511-20034-56789"))
        let wrong = try await HTTP.send(.GET, base + "/?chip=98511200345")
        let wrongHTML = String(decoding: wrong.body, as: UTF8.self)
        #expect(wrong.status == 400)
        #expect(wrongHTML.contains(#"<p class="error-message" id="chip-error">"#) && wrongHTML.contains(ValidationMessage.microchipLength))
        #expect(wrongHTML.contains(#"aria-describedby="chip-error""#) && wrongHTML.contains(##"<a href="#chip">"##), "error summary links to the box")
        #expect(wrongHTML.contains(#"value="98511200345""#))
        // A box longer than any typed number, even one of blanks, is refused the same way.
        for long in [String(repeating: "+", count: 41), "985112003456789" + String(repeating: "+", count: 30)] {
            let reply = try await HTTP.send(.GET, base + "/?chip=" + long)
            let text = String(decoding: reply.body, as: UTF8.self)
            #expect(reply.status == 400 && text.contains(#"id="chip-error""#) && text.contains("at most 40 characters"), "\(long)")
        }

        // The CLI.
        let listed = try home.run(["pet", "list", "--chip", Self.typed])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains(open.id.rawValue) && !listed.stdout.contains(closed.id.rawValue), "\(listed.stdout)")
        let none = try home.run(["pet", "list", "--chip", "123 456 789"])
        #expect(none.status == 0 && none.stdout.contains("No open announcement has the microchip number 12345-6789."), "\(none.stdout)")
        let refused = try home.run(["pet", "list", "--chip", "98511200345"])
        #expect(refused.status == 64 && refused.stderr.contains("--chip"), "\(refused.stderr)")

        // Counted against the list rate (40 a minute here): a scraper of chip numbers is slowed.
        var limited = false
        for _ in 0..<45 where !limited {
            limited = try await HTTP.send(.GET, base + "/api/v1/announcements?chip=985112003456789").status == 429
        }
        #expect(limited, "chip lookups count as list pages")
    }
}
