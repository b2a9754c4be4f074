import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PetSpot
import PhotoPipeline
import Testing

/// The owner manages a report from its page, through real HTTP against the built
/// `petspot-server` (SQLite, or PostgreSQL + S3 with `PETSPOT_TEST_BACKEND=postgres-s3`), as a
/// browser without JavaScript sends the forms: sign in (wrong passwords, the lockout), the
/// session cookie, edits with every problem at once, a stale form, the photo replaced, closed
/// as reunited, reopened, signed out, taken down; forged posts change nothing.
@Suite struct ManageReportTests {
    static let missingDogJSON = #"{"species":"DOG","sex":"MALE","last_seen_date":"2025-11-18","location_latitude":52.2297,"#
        + #""location_longitude":21.0122,"email":"owner@example.org","phone":"+48600123456","status":"MISSING","#
        + #""breed":"Labrador","pet_name":"Rex","description":"Brown, red collar."}"#

    static func createMissingDog(_ base: String) async throws -> AnnouncementResponse {
        let reply = try await HTTP.send(.POST, base + AnnouncementsAPI.collectionPath, headers: [("Content-Type", "application/json")],
                                        body: .bytes(ByteBuffer(string: missingDogJSON)))
        guard reply.status == 201 else { throw HTTP.Unexpected(reply: reply) }
        return try PetSpotJSON.decode(AnnouncementResponse.self, from: Data(reply.body))
    }

    static func details(_ base: String, _ id: AnnouncementID, auth: AnnouncementResponse? = nil) async throws -> (Int, PetDetails?, String?) {
        let reply = try await HTTP.send(.GET, base + AnnouncementsAPI.announcementPath(id: id),
                                        headers: auth.map { [("Authorization", $0.credentials.authorizationHeader)] } ?? [])
        return (reply.status, reply.status == 200 ? try PetSpotJSON.decode(PetDetails.self, from: Data(reply.body)) : nil, reply.headers.first(name: "ETag"))
    }

    /// Signs `browser` in to `created` with its password; the 303's `Set-Cookie` of the session.
    static func signIn(_ browser: inout WebSession, _ created: AnnouncementResponse, headers: [(String, String)] = []) async throws -> String {
        let manage = "/pets/\(created.id.rawValue)/manage"
        try await browser.get(manage)
        let reply = try await browser.post(manage + "/sign-in", browser.hiddenFields(of: manage + "/sign-in")
                                            + [("password", created.managementPassword)], headers: headers)
        #expect(reply.status == 303, "\(browser.html)")
        #expect(reply.headers.first(name: "Location") == manage + "?done=signed-in")
        return try #require(browser.setCookie("petspot_owner"))
    }

    @Test func theOwnerManagesTheirReportFromItsPage() async throws {
        let server = try ServerProcess(dataDirectory: try makeTemporaryDirectory("manage"),
                                       arguments: ["--trusted-proxy", "127.0.0.1", "--auth-attempts-per-client", "4", "--log-level", "info"])
        let base = server.baseURL
        let created = try await Self.createMissingDog(base)
        #expect(try await HTTP.upload(try TestImages.bytes("sample-photo.jpg"), base: base, to: created).status == 201)
        let id = created.id.rawValue, manage = "/pets/\(id)/manage"
        var browser = WebSession(base: base)

        // Every page of an announcement leads to its manage page; without a session that asks for the password.
        try await browser.get("/pets/\(id)")
        #expect(browser.html.contains("<a href=\"\(manage)\">Manage this report</a>"))
        var reply = try await browser.get(manage)
        #expect(reply.status == 200 && reply.headers.first(name: "Cache-Control") == "no-store")
        #expect(browser.html.contains(#"<input type="password" id="password" name="password" aria-describedby="password-hint" autocomplete="current-password" inputmode="numeric""#))
        #expect(!browser.html.contains("owner@example.org"))
        // A post without the form's token is 403 and signs nobody in, right password or not.
        reply = try await browser.post(manage + "/sign-in", [("password", created.managementPassword)])
        #expect(reply.status == 403 && browser.html.contains("Nothing was saved") && browser.setCookie("petspot_owner") == nil)
        // A password in the address is never read: the page stays the sign-in page.
        try await browser.get(manage + "?password=\(created.managementPassword)")
        #expect(browser.html.contains("Manage this report") && browser.setCookie("petspot_owner") == nil)

        // A sign-in body larger than the form, or a photo sent to it: refused before it is used, nobody signed in.
        reply = try await browser.post(manage + "/sign-in", browser.hiddenFields(of: manage + "/sign-in")
                                       + [("password", created.managementPassword), ("padding", String(repeating: "p", count: 8000))])
        #expect(reply.status == 413 && browser.setCookie("petspot_owner") == nil)
        reply = try await browser.postMultipart(manage + "/sign-in", browser.hiddenFields(of: manage + "/sign-in")
                                                + [("password", created.managementPassword)], photo: try TestImages.bytes("sample-photo.jpg"))
        #expect(reply.status == 413 && browser.setCookie("petspot_owner") == nil, "\(reply.status)")
        try await browser.get(manage)

        // A wrong password is said to be wrong.
        let wrong = created.managementPassword == "000000" ? "111111" : "000000"
        reply = try await browser.post(manage + "/sign-in", browser.hiddenFields(of: manage + "/sign-in") + [("password", wrong)])
        #expect(reply.status == 422 && browser.html.contains("The password is not right"))
        #expect(browser.html.contains("<a href=\"#password\">") && browser.html.contains(#"aria-invalid="true""#))
        reply = try await browser.post(manage + "/sign-in", browser.hiddenFields(of: manage + "/sign-in") + [("password", "12ab")])
        #expect(reply.status == 422 && browser.html.contains("six digits"))

        // The right one: a session cookie for this announcement's manage pages only, 30 minutes, never readable by scripts.
        var cookie = try await Self.signIn(&browser, created)
        for attribute in ["HttpOnly", "SameSite=Strict", "Path=\(manage)", "Max-Age=1800"] {
            #expect(cookie.contains(attribute), "\(cookie)")
        }
        #expect(!cookie.contains("Secure") && !cookie.contains(created.managementPassword))
        // Over HTTPS (the trusted proxy says so) it is Secure too.
        var overHTTPS = WebSession(base: base)
        cookie = try await Self.signIn(&overHTTPS, created, headers: [("X-Forwarded-Proto", "https")])
        #expect(cookie.contains("; Secure"), "\(cookie)")

        // The manage page: the report form filled in with what is stored, the version it was made from.
        reply = try await browser.get(manage + "?done=signed-in")
        #expect(reply.status == 200 && reply.headers.first(name: "Cache-Control") == "no-store")
        #expect(browser.html.contains("You are signed in"))
        #expect(browser.value(of: "breed") == "Labrador" && browser.value(of: "email") == "owner@example.org")
        #expect(browser.value(of: "description") == "Brown, red collar." && browser.value(of: "pet_name") == "Rex")
        #expect(browser.html.contains(#"id="sex-male" name="sex" value="MALE" checked"#))
        #expect(browser.html.contains("Our pet is home") && browser.html.contains("Close without finding"))
        let (_, first, firstTag) = try await Self.details(base, created.id)
        let firstPhoto = try #require(first?.photoUrl)
        #expect(browser.html.contains(#"alt="The report&#39;s photo""#))
        let stalePage = browser.hiddenFields(of: manage)
        let formFields = Self.formFields(browser)

        // Edit a field: saved, and the version moves on.
        reply = try await browser.postMultipart(manage, stalePage + formFields.replacing("description", with: "Brown, red collar, white paws."))
        #expect(reply.status == 303 && reply.headers.first(name: "Location") == manage + "?done=saved", "\(browser.html)")
        let (_, saved, savedTag) = try await Self.details(base, created.id)
        #expect(saved?.description == "Brown, red collar, white paws." && savedTag != firstTag)
        var now: PetDetails?
        try await browser.get(manage + "?done=saved")
        #expect(browser.html.contains("Your changes are saved"))

        // Every problem at once, every value kept, nothing saved.
        reply = try await browser.postMultipart(manage, browser.hiddenFields(of: manage)
            + Self.formFields(browser).replacing("phone", with: "12").replacing("email", with: "not an email").replacing("breed", with: " "))
        #expect(reply.status == 422)
        for message in [ValidationMessage.phone, ValidationMessage.email, ValidationMessage.breed] {
            #expect(browser.html.contains("<a href=\"#"), "\(message)")
            #expect(browser.html.contains(HTMLText.escape(message)), "\(message)")
        }
        #expect(browser.value(of: "phone") == "12" && browser.value(of: "email") == "not an email")
        #expect(try await Self.details(base, created.id).1?.phone == "+48600123456")

        // A form made before that edit (another device) is not saved over it: the page says so and shows the report as it is now.
        reply = try await browser.postMultipart(manage, stalePage + formFields.replacing("reward", with: "100 PLN"))
        #expect(reply.status == 409 && browser.html.contains("changed on another device"))
        #expect(browser.value(of: "description") == "Brown, red collar, white paws." && browser.value(of: "reward") == "")
        (_, now, _) = try await Self.details(base, created.id)
        #expect(now?.reward == nil && now?.description == "Brown, red collar, white paws.")

        // A post without the token is 403 and changes nothing.
        let withoutToken = browser.hiddenFields(of: manage).filter { $0.0 != "csrf_token" }
        reply = try await browser.postMultipart(manage, withoutToken + Self.formFields(browser).replacing("description", with: "forged"))
        #expect(reply.status == 403)
        reply = try await browser.post(manage + "/status", browser.hiddenFields(of: manage + "/status").filter { $0.0 != "csrf_token" } + [("action", "withdrawn")])
        #expect(reply.status == 403)
        (_, now, _) = try await Self.details(base, created.id)
        #expect(now?.description == "Brown, red collar, white paws." && now?.status == .active)

        // Replace the photo: through the pipeline, the old one removed once the new one is attached.
        try await browser.get(manage)
        let newPhoto = try TestImages.bytes("exif-orientation-1.jpg")
        reply = try await browser.postMultipart(manage, browser.hiddenFields(of: manage) + Self.formFields(browser), photo: newPhoto)
        #expect(reply.status == 303, "\(browser.html)")
        (_, now, _) = try await Self.details(base, created.id)
        let secondPhoto = try #require(now?.photoUrl)
        #expect(secondPhoto != firstPhoto)
        let stored = try await server.storedPhotos()
        let firstKey = String(firstPhoto.split(separator: "/").last!), secondKey = String(secondPhoto.split(separator: "/").last!)
        #expect(stored[secondKey] != nil && stored[firstKey] == nil, "\(stored.keys.sorted())")
        let served = try await HTTP.send(.GET, secondPhoto)
        #expect(served.status == 200 && served.body.starts(with: [0xFF, 0xD8]))
        // A form with a problem shows the report's photo at its own proportions, as the page did.
        try await browser.get(manage)
        let keptSize = try #require(Self.keptPhotoSize(browser.html))
        #expect(keptSize.width * 2 == keptSize.height * 3, "\(keptSize)")
        reply = try await browser.postMultipart(manage, browser.hiddenFields(of: manage) + Self.formFields(browser).replacing("phone", with: "12"))
        #expect(reply.status == 422 && Self.keptPhotoSize(browser.html) == keptSize)

        // Remove the photo: the report has none and its file is removed; then a photo again through the API.
        try await browser.get(manage)
        reply = try await browser.postMultipart(manage, browser.hiddenFields(of: manage) + Self.formFields(browser) + [("remove_photo", "1")])
        #expect(reply.status == 303, "\(browser.html)")
        (_, now, _) = try await Self.details(base, created.id)
        #expect(now?.photoUrl == nil && now?.description == "Brown, red collar, white paws.")
        #expect(try await server.storedPhotos()[secondKey] == nil)
        try await browser.get(manage)
        #expect(!browser.html.contains("The report&#39;s photo") && !browser.html.contains("remove_photo"))
        #expect(try await HTTP.upload(try TestImages.bytes("sample-photo.jpg"), base: base, to: created).status == 201)

        // "Our pet is home": closed as reunited; the public page says so without contact details.
        try await browser.get(manage)
        reply = try await browser.post(manage + "/status", browser.hiddenFields(of: manage + "/status") + [("action", "reunited")])
        #expect(reply.status == 303 && reply.headers.first(name: "Location") == manage + "?done=reunited")
        try await browser.get(manage + "?done=reunited")
        #expect(browser.html.contains("closed as reunited") && browser.html.contains(">Reopen</button>"))
        let publicPage = try await HTTP.send(.GET, base + "/pets/\(id)")
        let publicHTML = String(decoding: publicPage.body, as: UTF8.self)
        #expect(publicHTML.contains("Reunited") && !publicHTML.contains("owner@example.org") && !publicHTML.contains("600123456"))
        (_, now, _) = try await Self.details(base, created.id)
        #expect(now?.status == .closed && now?.closedOutcome == .reunited && now?.phone == "")

        // Reopen: open again, contacts back.
        reply = try await browser.post(manage + "/status", browser.hiddenFields(of: manage + "/status") + [("action", "reopen")])
        #expect(reply.status == 303)
        (_, now, _) = try await Self.details(base, created.id)
        #expect(now?.status == .active && now?.phone == "+48600123456")

        // A new password: shown once, the old one refused by the API, every other session ended.
        try await browser.get(manage)
        let beforeNewPassword = browser.cookies
        reply = try await browser.post(manage + "/password", browser.hiddenFields(of: manage + "/password"))
        #expect(reply.status == 303 && reply.headers.first(name: "Location") == manage + "?done=new-password")
        let receiptCookie = try #require(browser.setCookie("petspot_receipt"))
        try await browser.get(manage + "?done=new-password")
        let shown = try #require(browser.html.firstMatch(of: /<p class="password">(\d{6})<\/p>/)).output.1
        // Never in the address or the cookie as text: the receipt is sealed.
        #expect(!receiptCookie.contains(shown) && receiptCookie.contains("Path=\(manage)") && receiptCookie.contains("HttpOnly"))
        let renewed = AnnouncementResponse(announcement: created.announcement, id: created.id, managementPassword: String(shown))
        try await browser.get(manage + "?done=new-password")
        #expect(!browser.html.contains("class=\"password\"") && browser.html.contains("Our pet is home"))
        #expect(try await Self.details(base, created.id, auth: created).0 == 401)
        #expect(try await Self.details(base, created.id, auth: renewed).0 == 200)
        var otherDevice = WebSession(base: base)
        otherDevice.cookies = beforeNewPassword
        try await otherDevice.get(manage)
        #expect(otherDevice.html.contains("You were signed out"))

        // Sign out ends the session everywhere: a copy of the cookie no longer opens anything.
        try await browser.get(manage)
        let copied = browser.cookies
        reply = try await browser.post(manage + "/sign-out", browser.hiddenFields(of: manage + "/sign-out"))
        #expect(reply.status == 303 && browser.cookies["petspot_owner"] == nil && browser.setCookie("petspot_owner")?.contains("Max-Age=0") == true)
        var thief = WebSession(base: base)
        thief.cookies = copied
        try await thief.get(manage)
        #expect(thief.html.contains("You were signed out") && !thief.html.contains("owner@example.org"))
        reply = try await thief.post(manage + "/status", browser.hiddenFields(of: manage + "/status") + [("action", "withdrawn"), ("version", "99")])
        #expect(reply.status == 403)
        reply = try await overHTTPS.get(manage)
        #expect(overHTTPS.html.contains("You were signed out"))

        // Take down for good: asks first; then 410 everywhere, the photo gone.
        _ = try await Self.signIn(&browser, renewed)
        reply = try await browser.get(manage + "/take-down")
        #expect(reply.status == 200 && browser.html.contains("Take this report down for good?"))
        reply = try await browser.post(manage + "/take-down", browser.hiddenFields(of: manage + "/take-down"))
        #expect(reply.status == 303 && reply.headers.first(name: "Location") == manage + "?done=taken-down")
        reply = try await browser.get(manage + "?done=taken-down")
        #expect(reply.status == 410 && browser.html.contains("Report taken down"))
        #expect(try await HTTP.send(.GET, base + "/pets/\(id)").status == 410)
        #expect(try await Self.details(base, created.id).0 == 410)
        #expect(try await server.storedPhotos().isEmpty)

        // The lockout is the API's: slowed from the third wrong password, then the time to wait;
        // the API is locked for this address too, never longer.
        let other = try await Self.createMissingDog(base)
        let otherManage = "/pets/\(other.id.rawValue)/manage"
        var guesser = WebSession(base: base)
        try await guesser.get(otherManage)
        let otherWrong = other.managementPassword == "000000" ? "111111" : "000000"
        var times: [Double] = []
        for _ in 0..<4 {
            let start = Date()
            reply = try await guesser.post(otherManage + "/sign-in", guesser.hiddenFields(of: otherManage + "/sign-in") + [("password", otherWrong)])
            times.append(Date().timeIntervalSince(start))
            #expect(reply.status == 422)
        }
        #expect(times[0] < 0.9 && times[2] >= 1 && times[3] >= 2, "\(times)")
        reply = try await guesser.post(otherManage + "/sign-in", guesser.hiddenFields(of: otherManage + "/sign-in") + [("password", other.managementPassword)])
        #expect(reply.status == 429 && guesser.html.contains("signing in is paused: try again in 15 minutes"))
        let wait = try #require(reply.headers.first(name: "Retry-After").flatMap(Int.init))
        let asked = Date()
        let api = try await HTTP.upload(try TestImages.bytes("sample-photo.jpg"), base: base, to: other)
        let elapsed = Int(Date().timeIntervalSince(asked).rounded(.up))
        #expect(api.status == 429)
        let apiWait = try #require(api.headers.first(name: "Retry-After").flatMap(Int.init))
        #expect(apiWait >= wait - elapsed - 1 && apiWait <= wait, "\(apiWait) s after \(wait) s and \(elapsed) s")

        // Neither a password nor a session is ever logged.
        let log = server.log
        #expect(log.contains("/manage/sign-in"))
        #expect(!log.contains(created.managementPassword) && !log.contains(other.managementPassword) && !log.contains(otherWrong))
        for value in copied.values { #expect(!log.contains(value)) }
        #expect(server.stop() == 0)
    }

    /// The width and height of the photo shown above the file picker.
    static func keptPhotoSize(_ html: String) -> PixelSize? {
        guard let match = html.firstMatch(of: #/<div class="kept-photo"><img src="[^"]*" width="(\d+)" height="(\d+)"/#),
              let width = Int(match.output.1), let height = Int(match.output.2) else { return nil }
        return PixelSize(width: width, height: height)
    }

    /// The report form's questions as the page last shown fills them (what a browser sends back).
    static func formFields(_ browser: WebSession) -> [(String, String)] {
        var fields: [(String, String)] = []
        for name in ["microchip_number", "breed", "age", "pet_name", "last_seen_date", "where", "description", "phone", "email", "reward"] {
            fields.append((name, browser.value(of: name) ?? ""))
        }
        for group in ["species", "sex"] {
            if let checked = browser.html.firstMatch(of: try! Regex(#"name="\#(group)" value="([A-Z]+)" checked"#)) {
                fields.append((group, String(checked.output[1].substring ?? "")))
            }
        }
        return fields.map { ($0.0, $0.1.replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&#39;", with: "'")) }
    }
}

extension [(String, String)] {
    func replacing(_ name: String, with value: String) -> [(String, String)] {
        map { $0.0 == name ? ($0.0, value) : $0 }
    }
}

/// HTML escaping as the pages write text.
enum HTMLText {
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "'", with: "&#39;")
    }
}
