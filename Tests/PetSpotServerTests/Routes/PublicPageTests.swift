import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PetSpot
import Testing
@testable import PetSpotServer

/// `GET /` and `GET /pets/{id}`: server-rendered HTML over the same stores as the API.
@Suite struct PublicPageTests {
    static let xss = "<script>alert(1)</script><img src=x onerror=alert(2)>"

    private func page(_ client: some TestClientProtocol, _ uri: String) async throws -> (TestResponse, String) {
        let response = try await client.execute(uri: uri, method: .get)
        return (response, String(buffer: response.body))
    }

    private func cards(_ html: String) -> Int {
        html.components(separatedBy: "<li class=\"card\">").count - 1
    }

    @Test func theListShowsCardsNewestFirstWithEveryValueEscaped() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let dog = try await client.createAnnouncement()
            _ = try await client.uploadPhoto(try TestImages.bytes("sample-photo.jpg"), to: dog)
            let cat = try await client.createAnnouncement(RequestBodies.announcement(["species": #""CAT""#, "status": #""FOUND""#, "reward": #""200 PLN""#]))
            let hostile = try await client.createAnnouncement(RequestBodies.announcement([
                "species": #""BIRD""#, "description": "\"\(Self.xss)\"", "reward": #""<b>\"quoted\"</b>""#]))
            let (response, html) = try await page(client, "/")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/html; charset=utf-8")
            let policy = try #require(response.headers[.contentSecurityPolicy])
            #expect(policy.contains("default-src 'none'") && !policy.contains("script-src") && !policy.contains("unsafe-inline"))
            #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
            #expect(cards(html) == 3)
            // Newest first: the hostile one, the cat, the dog.
            let order = [hostile.id, cat.id, dog.id].map { html.range(of: "/pets/\($0.rawValue)")!.lowerBound }
            #expect(order == order.sorted())
            #expect(!html.contains("<script") && !html.contains("<b>"))
            // Cards show no free text (a REWARD badge, not the reward): nothing of it appears raw.
            #expect(!html.contains("quoted"))
            #expect(html.contains(#"<span class="badge found">FOUND</span><span class="badge reward">REWARD</span>"#))
            #expect(html.contains(#"<span class="badge missing">MISSING</span>"#))
            // The dog's card: WebP and JPEG srcsets over the variants, a box of the photo's shape.
            #expect(html.contains(#"<source type="image/webp" srcset="/photos/"#))
            #expect(html.contains(#"/w320.webp 320w, "#) && html.contains(#"/full.jpg 1200w""#))
            #expect(html.contains(#"width="1200" height="1600" alt="Photo of the missing dog""#))
            #expect(html.contains(#"<div class="no-photo" role="img" aria-label="No photo">No photo</div>"#))
            #expect(html.contains("<link rel=\"stylesheet\" href=\"/static/site.\(SiteStyle.hash).css\">"))
            // HEAD (link-preview bots, uptime checks): the same headers, no body.
            for uri in ["/", "/pets/\(dog.id.rawValue)", SiteStyle.path] {
                let full = try await client.execute(uri: uri, method: .get)
                let head = try await client.execute(uri: uri, method: .head)
                #expect(head.status == .ok && head.body.readableBytes == 0, "\(uri)")
                #expect(head.headers[.contentType] == full.headers[.contentType])
                if uri != "/" { #expect(head.headers[.contentLength] == String(full.body.readableBytes), "\(uri)") }
            }
        }
    }

    @Test func filtersAndPagesFollowTheQuery() async throws {
        var server = try await TestServer()
        var limits = RateLimits()
        limits.creates = .init(perMinute: 600, burst: 100)
        server.services.rateLimiter = RateLimiter(limits: limits)
        try await server.test { client in
            // 33 announcements: cats every third (11), dogs the rest (22); found every other one.
            let isCat = { (index: Int) in index % 3 == 0 }, isFound = { (index: Int) in index % 2 == 0 }
            for index in 0..<33 {
                _ = try await client.createAnnouncement(RequestBodies.announcement([
                    "species": isCat(index) ? #""CAT""# : #""DOG""#, "status": isFound(index) ? #""FOUND""# : #""MISSING""#]))
            }
            let (_, first) = try await page(client, "/")
            #expect(cards(first) == 20)
            let next = try #require(first.firstMatch(of: /href="(\/\?cursor=[A-Za-z0-9_-]+)" rel="next"/)?.1)
            let (_, second) = try await page(client, String(next))
            #expect(cards(second) == 13)
            #expect(second.contains(#"<a href="/">Newest</a>"#) && !second.contains("rel=\"next\""))

            let (_, cats) = try await page(client, "/?species=cat")
            #expect(cards(cats) == 11 && !cats.contains("<h2>Dog</h2>"))
            #expect(cats.contains(#"<option value="cat" selected>Cat</option>"#))
            let foundDogs = (0..<33).filter { !isCat($0) && isFound($0) }.count
            let (_, found) = try await page(client, "/?species=dog&status=found")
            #expect(cards(found) == foundDogs && !found.contains("MISSING</span>") && !found.contains("<h2>Cat</h2>"))
            let (_, emptyRabbits) = try await page(client, "/?species=rabbit")
            #expect(cards(emptyRabbits) == 0 && emptyRabbits.contains("No announcements match these filters."))

            // Paging keeps the filter: 22 dogs are 20 on the first page and 2 on the next, no cat.
            let (_, dogs) = try await page(client, "/?species=DOG&status=")
            #expect(cards(dogs) == 20)
            let dogsNext = try #require(dogs.firstMatch(of: /href="(\/\?species=dog&amp;cursor=[A-Za-z0-9_-]+)" rel="next"/)?.1)
            let (_, moreDogs) = try await page(client, String(dogsNext).replacingOccurrences(of: "&amp;", with: "&"))
            #expect(cards(moreDogs) == 2 && !moreDogs.contains("<h2>Cat</h2>"))
            #expect(moreDogs.contains(#"<a href="/?species=dog">Newest</a>"#))

            for bad in ["/?species=dragon", "/?status=lost", "/?cursor=nope", "/?species=%3Cscript%3E"] {
                let (response, html) = try await page(client, bad)
                #expect(response.status == .badRequest, "\(bad)")
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                #expect(!html.contains("<script>") && html.contains(#"<a href="/">See all announcements</a>"#))
            }
        }
    }

    @Test func theDetailsPageHasEveryRowLinksAndAPreview() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let created = try await client.createAnnouncement(RequestBodies.announcement([
                "reward": #""500 PLN""#, "phone": #""+48 600 100 200""#, "description": "\"\(Self.xss) \\\"quoted\\\" & 'single'\""]))
            _ = try await client.uploadPhoto(try TestImages.bytes("sample-photo.jpg"), to: created)
            let (response, html) = try await page(client, "/pets/\(created.id.rawValue)")
            #expect(response.status == .ok)
            #expect(html.contains("<title>MISSING: Dog · PetSpot</title>"))
            #expect(html.contains(#"<dt>Microchip</dt><dd>12345-67890-12345</dd>"#))
            #expect(html.contains(#"<dt>Sex</dt><dd>♂ Male</dd>"#))
            #expect(html.contains(#"<dt>Last seen</dt><dd>Nov 18, 2025</dd>"#))
            #expect(html.contains(#"<a href="https://www.openstreetmap.org/?mlat=52.22970&amp;mlon=21.01220#map=16/52.22970/21.01220">"#))
            #expect(html.contains(#"<dt>Reward</dt><dd>500 PLN</dd>"#))
            #expect(html.contains(#"<a href="tel:+48600100200">+48600100200</a>"#))
            #expect(html.contains(#"<a href="mailto:owner@example.com">owner@example.com</a>"#))
            #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;"))
            #expect(!html.contains("<script") && !html.contains("<img src=x"))
            // In attributes too: the summary in the description and Open Graph tags.
            #expect(html.contains(#"&lt;img src=x onerror=alert(2)&gt; &quot;quoted&quot; &amp; &#39;single&#39;">"#))
            #expect(html.contains(#"<meta property="og:description" content="MISSING: Dog. Last seen on Nov 18, 2025, near 52.2297, 21.0122. &lt;script&gt;"#))
            // Open Graph: the share card, absolute, with its size.
            let digest = try #require(html.firstMatch(of: /\/photos\/([0-9a-f]{64})\/full\.jpg/)?.1)
            let card = "\(TestServer.publicURL)/pets/\(created.id.rawValue)/card.jpg"
            #expect(html.contains("<meta property=\"og:image\" content=\"\(card)\">"))
            #expect(html.contains("<meta name=\"twitter:image\" content=\"\(card)\">"))
            #expect(html.contains(#"<meta property="og:image:width" content="1200">"#))
            #expect(html.contains(#"<meta property="og:image:height" content="630">"#))
            #expect(html.contains("<meta property=\"og:url\" content=\"\(TestServer.publicURL)/pets/\(created.id.rawValue)\">"))
            #expect(html.contains(#"<meta name="twitter:card" content="summary_large_image">"#))
            #expect(html.contains(#"<meta property="og:title" content="MISSING: Dog">"#))
            let image = try await client.execute(uri: "/photos/\(digest)/full.jpg", method: .get)
            #expect(image.status == .ok && image.headers[.contentType] == "image/jpeg")
        }
    }

    @Test func withoutAPhotoOrAnAnnouncement() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let created = try await client.createAnnouncement()
            let (_, html) = try await page(client, "/pets/\(created.id.rawValue)")
            // The card says what the announcement is even without a photo.
            #expect(html.contains("No photo</div>") && html.contains("/pets/\(created.id.rawValue)/card.jpg\">")
                    && html.contains(#"content="summary_large_image">"#))
            for unknown in ["/pets/" + UUID().uuidString.lowercased(), "/pets/..%2F..%2Fetc", "/pets/%3Cscript%3E"] {
                let (response, page) = try await page(client, unknown)
                #expect(response.status == .notFound, "\(unknown)")
                #expect(response.headers[.contentType] == "text/html; charset=utf-8" && response.headers[.cacheControl] == "no-store")
                #expect(page.contains("No announcement has this address.") && !page.contains("<script>"))
            }
        }
    }

    @Test func theStyleSheetIsImmutableUnderItsHash() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let sheet = try await client.execute(uri: SiteStyle.path, method: .get)
            #expect(sheet.status == .ok && sheet.headers[.contentType] == "text/css; charset=utf-8")
            #expect(sheet.headers[.cacheControl] == "public, max-age=31536000, immutable")
            #expect(String(buffer: sheet.body) == SiteStyle.css)
            let icon = try await client.execute(uri: SiteStyle.iconPath, method: .get)
            #expect(icon.status == .ok && icon.headers[.contentType] == "image/svg+xml")
            for other in ["/static/site.0000000000000000.css", "/static/site.css", "/static/..%2F..%2Fetc%2Fpasswd"] {
                #expect(try await client.execute(uri: other, method: .get).status == .notFound, "\(other)")
            }
        }
    }
}

/// Every text colour in site.css against its background meets WCAG AA for normal text (4.5:1).
@Suite struct PageContrastTests {
    /// The value of `property` in the rule for exactly `selector` in site.css.
    private func value(_ selector: String, _ property: String) throws -> String {
        let rules = SiteStyle.css.split(separator: "}").map { $0.split(separator: "{", maxSplits: 1) }
        let rule = try #require(rules.first { $0.count == 2 && $0[0].trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n").last.map(String.init) == selector },
                                "no rule for \(selector)")
        let declaration = try #require(rule[1].split(separator: ";").first { $0.hasPrefix(property + ":") }, "\(selector) has no \(property)")
        return String(declaration.dropFirst(property.count + 1))
    }

    private func luminance(_ hex: String) throws -> Double {
        var digits = Array(hex.dropFirst())
        if digits.count == 3 { digits = digits.flatMap { [$0, $0] } }
        try #require(hex.hasPrefix("#") && digits.count == 6, "not a colour: \(hex)")
        let channels = try stride(from: 0, to: 6, by: 2).map { index -> Double in
            let value = try #require(Int(String(digits[index...index + 1]), radix: 16))
            let c = Double(value) / 255
            return c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]
    }

    private func contrast(_ foreground: String, _ background: String) throws -> Double {
        let (a, b) = (try luminance(foreground), try luminance(background))
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    @Test func textAndBadgesMeetAA() throws {
        let white = "#fff"
        let pairs: [(String, String, String)] = [
            ("body text", try value("body", "color"), try value("body", "background")),
            ("links", try value("a", "color"), white),
            ("header", try value(".site a", "color"), try value(".site", "background")),
            ("header line", try value(".site p", "color"), try value(".site", "background")),
            ("muted text", try value(".card p", "color"), white),
            ("no photo", try value(".no-photo", "color"), try value(".no-photo", "background")),
            ("button", try value(".filters button", "color"), try value(".filters button", "background")),
            ("CLOSED badge", try value(".badge", "color"), try value(".badge", "background")),
            ("MISSING badge", try value(".badge", "color"), try value(".badge.missing", "background")),
            ("FOUND badge", try value(".badge", "color"), try value(".badge.found", "background")),
            ("REWARD badge", try value(".badge.reward", "color"), try value(".badge.reward", "background")),
        ]
        for (what, foreground, background) in pairs {
            let ratio = try contrast(foreground, background)
            #expect(ratio >= 4.5, "\(what): \(foreground) on \(background) is \(ratio):1")
        }
    }
}
