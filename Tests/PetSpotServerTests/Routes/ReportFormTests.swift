import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PetSpot
import PhotoPipeline
import Testing
@testable import PetSpotServer

/// The report forms through the routes, on SQLite + disk and (with `PETSPOT_TEST_BACKEND=postgres-s3`)
/// PostgreSQL + S3: what a browser without JavaScript sends, and what a forged or hurried post gets.
@Suite struct ReportFormTests {
    /// A server whose clock the test moves, so a form is sent the seconds after it was shown that a person takes.
    private func server(maxPhotoBytes: Int = 2_000_000) async throws -> (TestServer, TestClock) {
        let clock = TestClock()
        var server = try await TestServer(maxPhotoBytes: maxPhotoBytes, now: { clock.now })
        var limits = RateLimits()
        limits.creates = .init(perMinute: 600, burst: 100)
        limits.uploads = .init(perMinute: 600, burst: 100)
        server.services.rateLimiter = RateLimiter(limits: limits)
        return (server, clock)
    }

    private func pendingCount(_ server: TestServer) async throws -> Int {
        switch server.backend {
        case .embedded(let sqlite): try sqlite.count("SELECT COUNT(*) FROM pending_upload")
        case .postgresS3(let postgres, _, _):
            try await postgres.client.query("SELECT count(*) FROM pending_upload", logger: .init(label: "test"))
                .decode(Int.self).reduce(0) { $0 + $1 }
        }
    }

    @Test func theFormAsksEachQuestionWithItsLabelKeyboardAndAutofill() async throws {
        let (server, _) = try await server()
        try await server.test { client in
            var browser = FormSession()
            let response = try await browser.get(client, "/report/missing")
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            let policy = try #require(response.headers[.contentSecurityPolicy])
            #expect(policy.contains("script-src 'self'") && !policy.contains("unsafe") && policy.contains("default-src 'none'"))
            let cookie = try #require(response.headers[values: .setCookie].first { $0.hasPrefix("petspot_form=") })
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && cookie.contains("Path=/"))
            let html = browser.html
            // The token is the form's first field: a forged multipart post is refused before its photo.
            let form = try #require(html.range(of: "<form method=\"post\" action=\"/report/missing\" enctype=\"multipart/form-data\""))
            #expect(html[form.upperBound...].firstMatch(of: /<input[^>]*name="([a-z_]+)"/)?.output.1 == "csrf_token")
            // The seeds' steps in order, as sections.
            let sections = html.matches(of: /<h2 id="section-\d">([^<]+)<\/h2>/).map { String($0.output.1) }
            #expect(sections == ["1. Chip number", "2. Photo", "3. Your pet", "4. Your contact details"])
            // A label for every input, a legend for each group of radios.
            for id in ["microchip_number", "photo", "breed", "age", "pet_name", "last_seen_date", "where", "description", "phone", "email", "reward"] {
                #expect(html.contains("<label for=\"\(id)\">"), "\(id) has no label")
            }
            #expect(html.contains("<legend>Species</legend>") && html.contains("<legend>Sex</legend>"))
            #expect(html.matches(of: /type="radio" id="species-/).count == 7)
            #expect(!html.contains("value=\"UNKNOWN\""))  // a missing pet's sex is known
            #expect(html.contains(#"<input type="tel" id="phone" name="phone" aria-describedby="phone-hint" autocomplete="tel" spellcheck="false" value="">"#))
            #expect(html.contains(#"<input type="email" id="email" name="email" autocomplete="email" spellcheck="false" value="">"#))
            #expect(html.contains(#"inputmode="numeric""#) && html.contains(#"<input type="date" id="last_seen_date""#))
            #expect(html.contains(#"accept="image/jpeg,image/png,image/webp,image/heic,image/heif"#))
            #expect(html.contains("<script src=\"\(ReportScript.path)\" defer></script>") && !html.contains("<script>"))
            // The date is today, and the date input cannot pass the latest today on Earth.
            let today = LocalDate.today(in: .gmt, now: Date())
            #expect(html.contains("value=\"\(today)\"") && html.contains("max=\"\(LocalDate.latestToday())\""))
            // Nothing the contract does not publish: no caregiver phone or current address on the found form.
            _ = try await browser.get(client, "/report/found")
            #expect(!browser.html.lowercased().contains("caregiver") && !browser.html.contains("Current address"))
            #expect(browser.html.contains("value=\"UNKNOWN\""))
            let found = browser.html.matches(of: /<h2 id="section-\d">([^<]+)<\/h2>/).map { String($0.output.1) }
            #expect(found == ["1. Photo", "2. The pet", "3. Your contact details"])
            // Every page links the forms; the script and the form style are served under their hashes.
            let list = try await client.execute(uri: "/", method: .get)
            #expect(String(buffer: list.body).contains(#"<a class="report-link" href="/report">Report a pet</a>"#))
            let script = try await client.execute(uri: ReportScript.path, method: .get)
            #expect(script.status == .ok && script.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(script.headers[.cacheControl] == "public, max-age=31536000, immutable")
            let choice = try await client.execute(uri: "/report", method: .get)
            #expect(String(buffer: choice.body).contains(#"href="/report/missing"><strong>I lost my pet</strong>"#))
        }
    }

    @Test func aPostWithoutAValidTokenIsRefusedAndStoresNothing() async throws {
        let (server, clock) = try await server()
        try await server.test { client in
            var browser = FormSession()
            _ = try await browser.get(client, "/report/missing")
            clock.advance(by: 30)
            let photo = try TestImages.bytes("sample-photo.jpg")
            // No token; another browser's token; a token with its last character changed; no cookie.
            var other = FormSession()
            _ = try await other.get(client, "/report/missing")
            let token = try #require(browser.hidden("csrf_token"))
            let tampered = String(token.dropLast()) + (token.last == "A" ? "B" : "A")
            let attempts: [[(String, String)]] = [
                [("csrf_token", "")], [("csrf_token", try #require(other.hidden("csrf_token")))], [("csrf_token", tampered)],
            ]
            for fields in attempts {
                let response = try await browser.post(client, "/report/missing", fields + ReportAnswers.missing, photo: photo)
                #expect(response.status == .forbidden, "\(fields)")
                #expect(browser.html.contains("Nothing was saved"))
            }
            var cookieless = browser
            cookieless.cookies = [:]
            let response = try await cookieless.post(client, "/report/missing", ReportAnswers.missing, photo: photo)
            #expect(response.status == .forbidden && cookieless.html.contains("did not send back the cookie"))
            let urlencoded = try await cookieless.postURLEncoded(client, "/report/missing", ReportAnswers.missing)
            #expect(urlencoded.status == .forbidden)
            // The photo part came after the refused token: nothing of it was written or stored.
            #expect(try await server.announcementCount() == 0)
            #expect(try await server.idempotencyCount() == 0)
            #expect(try await pendingCount(server) == 0)
            #expect(try await server.storedFiles().isEmpty)
            // The photo route holds to the same token.
            let (body, type) = RequestBodies.multipart(data: photo, fields: [("csrf_token", tampered)])
            let upload = try await client.execute(uri: "/report/photo", method: .post,
                                                  headers: [.contentType: type, .cookie: browser.cookieHeader], body: body)
            #expect(upload.status == .forbidden)
            #expect(try await server.storedFiles().isEmpty)
        }
    }

    @Test func aValidMissingReportIsCreatedWithItsPhotoAndThePasswordShownOnce() async throws {
        let (server, clock) = try await server()
        try await server.test { client in
            var browser = FormSession()
            _ = try await browser.get(client, "/report/missing")
            clock.advance(by: 40)
            let response = try await browser.post(client, "/report/missing", ReportAnswers.missing,
                                                  photo: try TestImages.bytes("sample-photo.jpg"))
            #expect(response.status == .seeOther, "\(browser.html)")
            #expect(response.headers[.cacheControl] == "no-store")
            let location = try #require(response.headers[.location])
            #expect(location.hasPrefix("/report/sent/"))
            let id = try #require(AnnouncementID(rawValue: String(location.dropFirst("/report/sent/".count))))
            let receipt = try #require(response.headers[values: .setCookie].first { $0.hasPrefix("petspot_receipt=") })
            #expect(receipt.contains("HttpOnly") && receipt.contains("Path=/report/sent") && receipt.contains("SameSite=Strict"))
            // Both or neither: the announcement holds the photo from its first row.
            #expect(try await server.announcementCount() == 1)
            let stored = try #require(try await server.store.announcement(id: id))
            let key = try #require(stored.photoKey)
            #expect(stored.request.status == .missing && stored.request.species == .dog && stored.request.breed == "Labrador")
            #expect(stored.request.microchipNumber == "985112003456789" && stored.request.approximateAge == 4)
            #expect(stored.request.phone == "+48600123456" && stored.request.petName == "Rex")
            #expect(stored.request.description == "Brown, red collar.\nAnswers to Rex.")
            #expect(stored.request.lastSeenDate == LocalDate("2025-11-18"))
            #expect(try await pendingCount(server) == 0)
            // The stored photo is the pipeline's: upright, no GPS.
            let bytes = try #require(try await server.services.photos.data(for: key))
            let info = try PhotoPipeline.inspect(bytes)
            #expect(info.gps == nil && info.uprightSize == PixelSize(width: 1200, height: 1600))

            // The confirmation shows the password once, never cached, and deletes its receipt.
            let confirmation = try await browser.get(client, location)
            #expect(confirmation.status == .ok && confirmation.headers[.cacheControl] == "no-store")
            let password = try #require(browser.html.firstMatch(of: /<p class="password">(\d{6})<\/p>/)?.output.1)
            #expect(browser.cookies["petspot_receipt"] == nil)
            #expect(browser.html.contains("href=\"/pets/\(id.rawValue)/flyer.pdf\"") && browser.html.contains("href=\"/pets/\(id.rawValue)/card.jpg\""))
            // It says where the password is used: the report's own page.
            #expect(browser.html.contains("choose “Manage this report” on the report’s page"))
            // It is the announcement's password: the owner's read with it is answered.
            let owner = try await client.execute(uri: "/api/v1/announcements/\(id.rawValue)", method: .get,
                                                 headers: [.authorization: RequestBodies.basic(id.rawValue, String(password))])
            #expect(owner.status == .ok)
            // Reloaded: no password; nowhere in the URL either.
            _ = try await browser.get(client, location)
            #expect(!browser.html.contains(String(password)) && browser.html.contains("shown once"))
            #expect(!location.contains(String(password)))
        }
    }

    @Test func fiveProblemsComeBackAtOnceWithEveryValueAndThePhotoKept() async throws {
        let (server, clock) = try await server()
        try await server.test { client in
            try await server.places.replacePlaces(try PlacesTests.sample())
            var browser = FormSession()
            _ = try await browser.get(client, "/report/found")
            clock.advance(by: 60)
            let answers: [(String, String)] = [
                ("species", ""), ("sex", ""), ("last_seen_date", "2025-11-18"), ("where", "Atlantis"), ("age", "old"),
                ("description", "<script>alert(1)</script> & \"quoted\""), ("phone", "12"), ("email", "finder@example.com"),
            ]
            let photo = try TestImages.bytes("jpeg-gps-date.jpg")
            let response = try await browser.post(client, "/report/found", answers, photo: photo)
            #expect(response.status == .unprocessableContent)
            #expect(response.headers[.cacheControl] == "no-store")
            let html = browser.html
            let summary = try #require(html.firstMatch(of: /<div class="error-summary"[^>]*>(?s)(.*?)<\/ul>/)?.output.1)
            let links = summary.matches(of: /<li><a href="#([a-z_-]+)">([^<]+)<\/a><\/li>/).map { (String($0.output.1), String($0.output.2)) }
            #expect(links.map(\.0) == ["species-dog", "sex-male", "age", "where", "phone"])
            #expect(links.map(\.1) == [ValidationMessage.species, ValidationMessage.gender, ValidationMessage.ageWholeNumber,
                                       HTML.escape(ValidationMessage.placeUnknown("Atlantis")), ValidationMessage.phone])
            #expect(html.contains("autofocus") && html.contains("<title>Error: Report a found pet · PetSpot</title>"))
            // Each message beside its question, tied to it.
            #expect(html.contains(#"<input type="text" id="age" name="age" aria-describedby="age-error" aria-invalid="true""#))
            #expect(html.contains(#"<fieldset class="field has-error" id="species-group" aria-describedby="species-error">"#))
            // Everything typed is kept (escaped), the photo too: a thumbnail and its token, not the file again.
            #expect(html.contains(#"value="Atlantis""#) && html.contains(#"value="old""#) && html.contains(#"value="12""#))
            #expect(html.contains("\n&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quoted&quot;</textarea>"))
            let token = try #require(browser.hidden("photo_token"))
            #expect(!token.isEmpty && html.contains(#"alt="The photo you added""#))
            #expect(try await pendingCount(server) == 1)
            #expect(try await server.announcementCount() == 0)
            // Its place is offered, never used unasked.
            #expect(html.contains("The photo was taken") && html.contains("Warsaw") && html.contains("— use it?"))
            let thumbnail = try #require(html.firstMatch(of: /<img src="(\/photos\/[^"]+)"/)?.output.1)
            #expect(try await client.execute(uri: String(thumbnail), method: .get).status == .ok)

            // Corrected, without the photo sent again: created with the kept photo, at the photo's place.
            clock.advance(by: 30)
            var fixed = answers.filter { !["species", "sex", "age", "phone"].contains($0.0) }
            fixed += [("species", "CAT"), ("sex", "UNKNOWN"), ("use_photo_place", "1"), ("age", ""), ("phone", "+48 600 123 457")]
            let corrected = try await browser.post(client, "/report/found", fixed)
            #expect(corrected.status == .seeOther, "\(browser.html)")
            let sent = try #require(corrected.headers[.location])
            let id = try #require(AnnouncementID(rawValue: String(sent.split(separator: "/").last!)))
            let stored = try #require(try await server.store.announcement(id: id))
            #expect(stored.request.status == .found && stored.request.sex == .unknown)
            #expect(abs(stored.request.locationLatitude - 52.23) < 0.001 && abs(stored.request.locationLongitude - 21.01) < 0.001)
            #expect(stored.photoKey != nil && stored.request.description == "<script>alert(1)</script> & \"quoted\"")
            #expect(try await pendingCount(server) == 0)
        }
    }

    @Test func sendingTheSameFormAgainGivesTheSameAnnouncement() async throws {
        let (server, clock) = try await server()
        try await server.test { client in
            var browser = FormSession()
            _ = try await browser.get(client, "/report/missing")
            let page = browser
            clock.advance(by: 20)
            let first = try await browser.post(client, "/report/missing", ReportAnswers.missing)
            #expect(first.status == .seeOther)
            // A double tap, a refresh of the post, the back button and send again: the same form.
            var again = page
            let second = try await again.post(client, "/report/missing", ReportAnswers.missing)
            #expect(second.status == .seeOther && second.headers[.location] == first.headers[.location])
            _ = try await again.get(client, try #require(second.headers[.location]))
            let password = again.html.firstMatch(of: /<p class="password">(\d{6})<\/p>/)?.output.1
            #expect(password != nil && !again.html.contains("changes made after that"))
            // Changed before sending again: still the one announcement, and the page says the change was not saved.
            var changed = page
            let third = try await changed.post(client, "/report/missing", ReportAnswers.missing.map { $0.0 == "breed" ? ("breed", "Beagle") : $0 })
            #expect(third.headers[.location] == first.headers[.location])
            _ = try await changed.get(client, try #require(third.headers[.location]))
            #expect(changed.html.contains("changes made after that were not saved"))
            #expect(try await server.announcementCount() == 1)
            #expect(try await server.store.page(limit: 5, after: nil).announcements.first?.request.breed == "Labrador")
            // Another browser with a copy of the form (its key learned somehow) gets a report of its
            // own, never the first one's password.
            var copy = FormSession()
            _ = try await copy.get(client, "/report/missing")
            clock.advance(by: 20)
            let stranger = try await copy.post(client, "/report/missing",
                                               ReportAnswers.missing + [("idempotency_key", try #require(page.hidden("idempotency_key")))])
            #expect(stranger.status == .seeOther && stranger.headers[.location] != first.headers[.location])
            #expect(try await server.announcementCount() == 2)
        }
    }

    @Test func aHoneypotOrAnInstantSendIsTurnedAway() async throws {
        let (server, clock) = try await server()
        try await server.test { client in
            var browser = FormSession()
            _ = try await browser.get(client, "/report/missing")
            // At once: the form comes back with a notice, values kept, nothing stored.
            let fast = try await browser.post(client, "/report/missing", ReportAnswers.missing)
            #expect(fast.status == .unprocessableContent && browser.html.contains("quicker than a person fills it in"))
            #expect(browser.html.contains(#"value="Labrador""#))
            clock.advance(by: 30)
            var bot = browser
            let refused = try await bot.post(client, "/report/missing", ReportAnswers.missing + [("website", "http://spam.example")])
            #expect(refused.status == .badRequest && bot.html.contains("hidden field filled in"))
            #expect(try await server.announcementCount() == 0)
            // The same form, sent by a person a while after it was shown, is fine (its age kept through the round trip).
            let person = try await browser.post(client, "/report/missing", ReportAnswers.missing + [("website", "")])
            #expect(person.status == .seeOther)
        }
    }

    @Test func thePipelineRefusesWhatIsNotAPhotoBesideTheQuestion() async throws {
        let (server, clock) = try await server(maxPhotoBytes: 300_000)
        try await server.test { client in
            var browser = FormSession()
            _ = try await browser.get(client, "/report/found")
            clock.advance(by: 30)
            for (name, expected) in [("bad-not-an-image.jpg", "PetSpot accepts JPEG, PNG, WebP, HEIC or AVIF"),
                                     ("bomb-png-10000x9999.png", "megapixels this site takes"),
                                     ("bad-truncated.jpg", "is cut short")] {
                let response = try await browser.post(client, "/report/found", ReportAnswers.found, photo: try TestImages.bytes(name))
                #expect(response.status == .unprocessableContent, "\(name)")
                let message = browser.html.firstMatch(of: /<p class="error-message" id="photo-error"><span class="visually-hidden">Error:<\/span> ([^<]+)<\/p>/)?.output.1
                #expect(message?.contains(expected) == true, "\(name): \(message ?? "none")")
            }
            // Larger than the upload limit: read past and dropped, so the form comes back with every
            // value and the reason beside the photo; far larger, the body is refused at once (413).
            let large = try await browser.post(client, "/report/found", ReportAnswers.found, photo: [UInt8](repeating: 0xFF, count: 400_000))
            #expect(large.status == .unprocessableContent)
            #expect(browser.html.contains("The photo is larger than the 0.3 MB this site takes") && browser.html.contains(#"value="finder@example.com""#))
            let huge = try await browser.post(client, "/report/found", ReportAnswers.found, photo: [UInt8](repeating: 0xFF, count: 700_000))
            #expect(huge.status == .contentTooLarge)
            #expect(try await server.announcementCount() == 0)
            #expect(try await pendingCount(server) == 0)
            #expect(try await server.storedFiles().filter { $0.hasPrefix("tmp/") }.isEmpty)
        }
    }

    @Test func thePhotoSentAheadIsKeptAndForgottenAfterADay() async throws {
        let (server, clock) = try await server()
        try await server.test { client in
            var browser = FormSession()
            _ = try await browser.get(client, "/report/missing")
            let (body, type) = RequestBodies.multipart(data: try TestImages.bytes("sample-photo.jpg"),
                                                       fields: [("csrf_token", try #require(browser.hidden("csrf_token")))])
            let response = try await client.execute(uri: "/report/photo", method: .post,
                                                    headers: [.contentType: type, .cookie: browser.cookieHeader], body: body)
            #expect(response.status == .created)
            struct Answer: Decodable { var token: String; var thumbnail: String; var width: Int; var height: Int; var offer: String? }
            let answer = try JSONDecoder().decode(Answer.self, from: Data(buffer: response.body))
            #expect(answer.width == 1200 && answer.height == 1600 && answer.thumbnail.hasSuffix("/w320.jpg"))
            #expect(answer.offer?.hasPrefix("The photo was taken at 52.23, 21.01") == true)
            // Another browser cannot use the token.
            var other = FormSession()
            _ = try await other.get(client, "/report/missing")
            clock.advance(by: 30)
            let stolen = try await other.post(client, "/report/missing", ReportAnswers.missing + [("photo_token", answer.token)])
            #expect(stolen.status == .seeOther)
            let taken = try #require(try await server.store.page(limit: 1, after: nil).announcements.first)
            #expect(taken.photoKey == nil)

            // A day later the sweep forgets it, and its photo and sizes go (on disk or in the bucket).
            let key = try #require(try await server.store.referencedPhotoKeys().first)
            _ = try await client.execute(uri: answer.thumbnail, method: .get)
            #expect(try await server.storedFiles().contains { $0.contains(String(key.prefix(64))) && $0.contains("w320") })
            let sweep = PendingUploadSweep.self
            #expect(try await sweep.run(store: server.store as! any PendingUploadStoring & AnnouncementStoring,
                                        photos: server.services.photos, now: clock.now.addingTimeInterval(3600)) == 0)
            #expect(try await pendingCount(server) == 1)
            #expect(try await sweep.run(store: server.store as! any PendingUploadStoring & AnnouncementStoring,
                                        photos: server.services.photos, now: clock.now.addingTimeInterval(25 * 3600)) == 1)
            #expect(try await pendingCount(server) == 0)
            #expect(try await server.storedFiles().filter { $0.contains(String(key.prefix(64))) }.isEmpty)
        }
    }
}

extension ReportFormTests {
    @Test func aPlaceNameIsLookedUpAndKeptWithItsCoordinates() async throws {
        let (server, clock) = try await server()
        try await server.test { client in
            try await server.places.replacePlaces(try PlacesTests.sample())
            var browser = FormSession()
            _ = try await browser.get(client, "/report/missing")
            clock.advance(by: 30)
            // Found, but the form has another problem: it comes back with the coordinates kept for the text as typed.
            let answers = ReportAnswers.missing.map { $0.0 == "where" ? ("where", "Mokotow") : $0.0 == "email" ? ("email", "nope") : $0 }
            let response = try await browser.post(client, "/report/missing", answers)
            #expect(response.status == .unprocessableContent)
            let latitude = try #require(browser.hidden("latitude").flatMap(Double.init))
            #expect(abs(latitude - 52.19) < 0.05 && browser.hidden("where_resolved") == "Mokotow")
            let sent = try await browser.post(client, "/report/missing", answers.map { $0.0 == "email" ? ("email", "owner@example.com") : $0 })
            #expect(sent.status == .seeOther)
            let stored = try #require(try await server.store.page(limit: 1, after: nil).announcements.first)
            #expect(abs(stored.request.locationLatitude - latitude) < 1e-6)
            #expect(stored.placeText?.contains("Mokotów") == true)
            // Changed after it was found, the text is looked up again (and here is nowhere).
            var other = FormSession()
            _ = try await other.get(client, "/report/missing")
            clock.advance(by: 30)
            _ = try await other.post(client, "/report/missing", answers)
            let moved = try await other.post(client, "/report/missing", answers.map { $0.0 == "where" ? ("where", "Mokotow Atlantis") : $0 })
            #expect(moved.status == .unprocessableContent && other.html.contains("is not a place we know"))
            #expect(other.hidden("latitude") == "")
        }
    }
}

extension ReportFormTests {
    @Test func theAPIsCreateRateHoldsForTheFormsAndKeepsWhatWasTyped() async throws {
        let clock = TestClock()
        var server = try await TestServer(now: { clock.now })
        var limits = RateLimits()
        limits.creates = .init(perMinute: 1, burst: 1)
        server.services.rateLimiter = RateLimiter(limits: limits)
        let limited = server
        try await limited.test { client in
            _ = try await client.createAnnouncement()
            var browser = FormSession()
            _ = try await browser.get(client, "/report/missing")
            clock.advance(by: 10)
            let refused = try await browser.post(client, "/report/missing", ReportAnswers.missing)
            #expect(refused.status == .tooManyRequests && refused.headers[.retryAfter] == "50")
            #expect(browser.html.contains("Too many reports were sent from your address") && browser.html.contains(#"value="Labrador""#))
            #expect(try await limited.announcementCount() == 1)
            clock.advance(by: 60)
            #expect(try await browser.post(client, "/report/missing", ReportAnswers.missing).status == .seeOther)
        }
    }
}
