import Foundation
import NIOCore
import NIOHTTP1
import PetSpot
import PhotoPipeline
import Testing
import TestProcesses

/// The flyer and the share card through the built `petspot-server`, read back with poppler,
/// zbar and tesseract as a person's tools would.
@Suite struct ShareArtworkTests {
    struct Owner {
        let server: ServerProcess
        let created: AnnouncementResponse
        var page: String { server.baseURL + "/pets/\(created.id.rawValue)" }
        var auth: (String, String) { ("Authorization", created.credentials.authorizationHeader) }

        func patch(_ json: String) async throws -> HTTP.Reply {
            try await HTTP.send(.PATCH, server.baseURL + AnnouncementsAPI.announcementPath(id: created.id),
                                headers: [("Content-Type", "application/json"), auth], body: .bytes(ByteBuffer(string: json)))
        }
    }

    static func owner(_ label: String, arguments: [String] = [], photo: Bool = true) async throws -> (Owner, String) {
        let data = try makeTemporaryDirectory(label)
        let server = try ServerProcess(dataDirectory: data, arguments: arguments)
        let created = try await HTTP.create(server.baseURL)
        if photo {
            #expect(try await HTTP.upload(try TestImages.bytes("sample-photo.jpg"), base: server.baseURL, to: created).status == 201)
        }
        return (Owner(server: server, created: created), data)
    }

    static func tool(_ name: String, _ arguments: [String]) async throws -> String {
        try await runProcess("/usr/bin/env", [name] + arguments)
    }

    static func save(_ bytes: [UInt8], in folder: String, as name: String) throws -> String {
        let path = folder + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func theFlyerSaysWhatTheAnnouncementSaysAndLinksToItsPage() async throws {
        let (owner, data) = try await Self.owner("share-flyer")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let reply = try await HTTP.send(.GET, owner.page + "/flyer.pdf")
        #expect(reply.status == 200 && reply.headers.first(name: "Content-Type") == "application/pdf")
        #expect(reply.headers.first(name: "Cache-Control") == "public, max-age=300")
        let pdf = try Self.save(reply.body, in: data, as: "flyer.pdf")
        let text = try await Self.tool("pdftotext", ["-layout", pdf, "-"])
        for expected in ["FOUND CAT", "0412345678", "Found on Nov 18, 2025", "Near -33.8688, 151.2093", owner.page] {
            #expect(text.contains(expected), "\(expected) missing:\n\(text)")
        }
        let images = try await Self.tool("pdfimages", ["-list", pdf]).split(separator: "\n").dropFirst(2).map { $0.split(separator: " ") }
        #expect(images.count == 1 && images[0][8] == "jpeg" && Int(images[0][3])! >= 1000, "\(images)")
        _ = try await Self.tool("pdftoppm", ["-r", "150", "-png", "-singlefile", pdf, data + "/flyer"])
        // (zbarimg may also print a D-Bus warning: only the lines it decoded are kept.)
        let codes = try await Self.tool("zbarimg", ["--quiet", "--raw", data + "/flyer.png"]).split(separator: "\n")
            .filter { $0.hasPrefix("http") }
        #expect(codes == [Substring(owner.page)])

        let letter = try await HTTP.send(.GET, owner.page + "/flyer.pdf?paper=Letter")
        let info = try await Self.tool("pdfinfo", [try Self.save(letter.body, in: data, as: "letter.pdf")])
        #expect(letter.status == 200 && info.contains("612 x 792 pts (letter)"), "\(info)")
        let wrongPaper = try await HTTP.send(.GET, owner.page + "/flyer.pdf?paper=tabloid")
        #expect(wrongPaper.status == 400 && String(decoding: wrongPaper.body, as: UTF8.self).contains("paper"))
        #expect(owner.server.stop() == 0)
    }

    @Test func theCardIsA1200By630JPEGThatSaysFound() async throws {
        let (owner, data) = try await Self.owner("share-card")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let reply = try await HTTP.send(.GET, owner.page + "/card.jpg")
        #expect(reply.status == 200 && reply.headers.first(name: "Content-Type") == "image/jpeg")
        #expect(try PhotoPipeline.inspect(reply.body).storedSize == PixelSize(width: 1200, height: 630))
        let text = try await Self.tool("tesseract", [try Self.save(reply.body, in: data, as: "card.jpg"), "-", "--psm", "11"])
        #expect(text.contains("FOUND") && text.contains("Cat"), "\(text)")
        // The page points link previews at it.
        let page = String(decoding: try await HTTP.send(.GET, owner.page).body, as: UTF8.self)
        #expect(page.contains("<meta property=\"og:image\" content=\"\(owner.page)/card.jpg\">"))
        #expect(page.contains("<meta name=\"twitter:image\" content=\"\(owner.page)/card.jpg\">"))
        #expect(page.contains("href=\"/pets/\(owner.created.id.rawValue)/flyer.pdf\""))
        #expect(owner.server.stop() == 0)
    }

    /// An edit makes a new card (a new ETag); the unchanged one answers 304; a closed
    /// announcement's flyer says REUNITED and gives no phone.
    @Test func anEditMakesANewCardAndClosingMakesAReunitedFlyer() async throws {
        let (owner, data) = try await Self.owner("share-edit")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let first = try await HTTP.send(.GET, owner.page + "/card.jpg")
        let tag = try #require(first.headers.first(name: "ETag"))
        let again = try await HTTP.send(.GET, owner.page + "/card.jpg", headers: [("If-None-Match", tag)])
        #expect(again.status == 304 && again.body.isEmpty)
        let head = try await HTTP.send(.HEAD, owner.page + "/card.jpg")
        #expect(head.status == 200 && head.headers.first(name: "ETag") == tag && head.body.isEmpty)

        #expect(try await owner.patch(#"{"last_seen_date":"2025-11-17","breed":"Maine Coon"}"#).status == 200)
        let edited = try await HTTP.send(.GET, owner.page + "/card.jpg", headers: [("If-None-Match", tag)])
        #expect(edited.status == 200 && edited.headers.first(name: "ETag") != tag)

        #expect(try await owner.patch(#"{"status":"closed","closed_outcome":"reunited"}"#).status == 200)
        let flyer = try await HTTP.send(.GET, owner.page + "/flyer.pdf")
        let text = try await Self.tool("pdftotext", [try Self.save(flyer.body, in: data, as: "closed.pdf"), "-"])
        #expect(text.contains("REUNITED") && !text.contains("0412345678") && text.contains("Maine Coon"), "\(text)")
        #expect(owner.server.stop() == 0)
    }

    /// What a hostile client gets: unknown and taken-down ids answer 404 and 410 without drawing
    /// anything; flyers and cards (GET or HEAD) count against the detail-read cap alike.
    @Test func unknownIdsAndTheReadCap() async throws {
        let (owner, data) = try await Self.owner("share-hostile", arguments: ["--detail-rate", "5/hour"], photo: false)
        defer { try? FileManager.default.removeItem(atPath: data) }
        for path in ["/pets/\(UUID().uuidString.lowercased())/flyer.pdf", "/pets/..%2F..%2Fetc/card.jpg", "/pets/x/card.jpg"] {
            #expect(try await HTTP.send(.GET, owner.server.baseURL + path).status == 404, "\(path)")
        }
        // Three reads so far (each 404); two more, then the cap.
        #expect(try await HTTP.send(.HEAD, owner.page + "/card.jpg").status == 200)
        #expect(try await HTTP.send(.GET, owner.page + "/flyer.pdf").status == 200)
        for path in ["/card.jpg", "/flyer.pdf"] {
            for method in [HTTPMethod.GET, .HEAD] {
                let refused = try await HTTP.send(method, owner.page + path)
                #expect(refused.status == 429 && refused.headers.first(name: "Retry-After") != nil, "\(method) \(path)")
            }
        }
        #expect(owner.server.stop() == 0)
    }

    /// The card's validator depends only on what the card shows: an edit of the phone (which it
    /// does not draw) keeps it, two announcements that differ only by their phones have the same
    /// one, and it is no digest a guess can be tested against (a server key goes into it). The
    /// flyer, which prints the phone, changes.
    @Test func theCardsTagGivesNothingAwayAboutThePhone() async throws {
        let (owner, data) = try await Self.owner("share-phone", photo: false)
        defer { try? FileManager.default.removeItem(atPath: data) }
        let card = try await HTTP.send(.GET, owner.page + "/card.jpg")
        let flyer = try await HTTP.send(.HEAD, owner.page + "/flyer.pdf")
        let tag = try #require(card.headers.first(name: "ETag"))
        #expect(try await owner.patch(#"{"phone":"+48 601 234 567"}"#).status == 200)
        let afterCard = try await HTTP.send(.HEAD, owner.page + "/card.jpg")
        let afterFlyer = try await HTTP.send(.HEAD, owner.page + "/flyer.pdf")
        #expect(afterCard.headers.first(name: "ETag") == tag, "a phone-only edit changed the card's tag")
        #expect(afterFlyer.headers.first(name: "ETag") != flyer.headers.first(name: "ETag"))

        // Another announcement, the same but for its phone: the same card, byte for byte, the same tag.
        let other = try await HTTP.create(owner.server.baseURL)
        #expect(try await HTTP.send(.PATCH, owner.server.baseURL + AnnouncementsAPI.announcementPath(id: other.id),
                                     headers: [("Content-Type", "application/json"), ("Authorization", other.credentials.authorizationHeader)],
                                     body: .bytes(ByteBuffer(string: #"{"phone":"+48 699 000 111"}"#))).status == 200)
        let otherCard = try await HTTP.send(.GET, owner.server.baseURL + "/pets/\(other.id.rawValue)/card.jpg")
        #expect(otherCard.body == card.body && otherCard.headers.first(name: "ETag") == tag)

        // The same announcement on another installation (another key) has another tag for the same
        // bytes. On PostgreSQL the tests' servers share one database, its keys included: there they
        // are one installation, and rightly give the same tag.
        if TestBackend.configured == .embedded {
            let (second, secondData) = try await Self.owner("share-phone-2", photo: false)
            defer { try? FileManager.default.removeItem(atPath: secondData) }
            let secondCard = try await HTTP.send(.GET, second.page + "/card.jpg")
            #expect(secondCard.body == card.body && secondCard.headers.first(name: "ETag") != tag)
            #expect(second.server.stop() == 0)
        }
        // Taken down: 410, drawing nothing.
        #expect(try await HTTP.send(.DELETE, owner.server.baseURL + AnnouncementsAPI.announcementPath(id: owner.created.id),
                                     headers: [owner.auth]).status == 204)
        #expect(try await HTTP.send(.GET, owner.page + "/card.jpg").status == 410)
        #expect(owner.server.stop() == 0)
    }

    /// An owner editing and fetching the card in a loop gets a new card for each edit only while
    /// the announcement's redraw budget lasts (ten, then one every 15 s), then 429 — and the
    /// drawn cards of everyone else's announcements are not held up.
    @Test func redrawsOfOneAnnouncementAreBounded() async throws {
        let (owner, data) = try await Self.owner("share-redraw", photo: false)
        defer { try? FileManager.default.removeItem(atPath: data) }
        var statuses: [Int] = []
        let began = ContinuousClock.now
        for day in 1...14 {
            #expect(try await owner.patch("{\"last_seen_date\":\"2025-10-\(String(format: "%02d", day))\"}").status == 200)
            let reply = try await HTTP.send(.GET, owner.page + "/card.jpg")
            statuses.append(reply.status)
            if reply.status == 429 { #expect(Int(reply.headers.first(name: "Retry-After") ?? "") ?? 0 >= 1) }
        }
        // A token comes back every 15 s, so a slow run earns a draw for each 15 s it took; the
        // four draws past the budget take a minute to earn.
        let took = ContinuousClock.now - began
        let earned = Int(took / .seconds(15))
        #expect(statuses.prefix(10).allSatisfy { $0 == 200 }, "\(statuses)")
        #expect(statuses.filter { $0 == 200 }.count <= 10 + earned, "\(statuses) in \(took)")
        #expect(earned >= 4 || statuses.contains(429), "\(statuses) in \(took)")
        let other = try await HTTP.create(owner.server.baseURL)
        #expect(try await HTTP.send(.GET, owner.server.baseURL + "/pets/\(other.id.rawValue)/card.jpg").status == 200)
        #expect(owner.server.stop() == 0)
    }

    /// Printed from a browser, the pet's page is one page: no site header or footer, the photo
    /// and the facts, and the page's address written out — even with a long description.
    @Test func thePagePrintsOnOnePage() async throws {
        let (owner, data) = try await Self.owner("share-print")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let long = String(repeating: "A grey cat with a white chest and one torn ear, last seen near the station. ", count: 6)
        #expect(try await owner.patch("{\"description\":\"\(long)\"}").status == 200)
        let pdf = data + "/page.pdf"
        let profile = try makeTemporaryDirectory("chromium-print")
        defer { try? FileManager.default.removeItem(atPath: profile) }
        _ = try await runProcessToEnd("/usr/bin/env", ["chromium", "--headless", "--no-sandbox", "--disable-gpu",
                                                       "--user-data-dir=\(profile)", "--no-pdf-header-footer",
                                                       "--print-to-pdf=\(pdf)", owner.page])
        let info = try await Self.tool("pdfinfo", [pdf])
        #expect(info.split(separator: "\n").contains { $0.hasPrefix("Pages:") && $0.hasSuffix(" 1") }, "\(info)")
        let text = try await Self.tool("pdftotext", [pdf, "-"])
        #expect(text.contains("FOUND: Cat") && text.contains("0412345678") && text.contains(owner.page), "\(text)")
        #expect(!text.contains("Lost and found pets near you") && !text.contains("Seen one of these pets") && !text.contains("Print a flyer"))
        let images = try await Self.tool("pdfimages", ["-list", pdf]).split(separator: "\n").dropFirst(2)
        #expect(!images.isEmpty, "the photo is printed")
        #expect(owner.server.stop() == 0)
    }
}
