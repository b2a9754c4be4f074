import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PetSpot
import Testing
@testable import PetSpotServer

/// The pieces every form of the site stands on: body parsing, the CSRF token, the bot check,
/// the markup of a question and of the error summary.
@Suite struct FormFoundationTests {
    @Test func urlencodedBodiesDecodeAsBrowsersWriteThem() {
        let fields = URLEncodedForm.parse(Array("a=1&name=Rex+the+dog&city=Mokot%C3%B3w&&empty=&bare&bad=%ZZ%4&plus=%2B".utf8))
        #expect(fields.pairs.map(\.name) == ["a", "name", "city", "empty", "bare", "bad", "plus"])
        #expect(fields["name"] == "Rex the dog" && fields["city"] == "Mokotów" && fields["empty"] == "" && fields["bare"] == "")
        #expect(fields["bad"] == "%ZZ%4" && fields["plus"] == "+")
        // Bytes that are not UTF-8 become U+FFFD, never a crash or a lost field.
        #expect(URLEncodedForm.parse(Array("x=%FF%FE".utf8))["x"] == "\u{FFFD}\u{FFFD}")
        let pairs = [("q", "Paris, France & more"), ("ü", "a=b")]
        #expect(URLEncodedForm.parse(Array(URLEncodedForm.encode(pairs).utf8)).pairs.map { [$0.name, $0.value] } == pairs.map { [$0.0, $0.1] })
    }

    private func request(cookie: String?) -> Request {
        var headers: HTTPFields = [:]
        if let cookie { headers[.cookie] = "\(FormProtection.cookieName)=\(cookie)" }
        let head = HTTPRequest(method: .post, scheme: "http", authority: "localhost", path: "/report/missing", headerFields: headers)
        return Request(head: head, body: .init(buffer: .init()))
    }

    @Test func aTokenIsGoodForItsBrowserOnlyAndUnderEveryKeyOfTheRing() throws {
        let old = PasswordKeyring.Key(version: 1, bytes: Array(repeating: 7, count: 32))
        let new = PasswordKeyring.Key(version: 2, bytes: Array(repeating: 9, count: 32))
        let before = FormProtection(keyring: try PasswordKeyring(keys: [old]), secureCookies: false)
        let now = Date(timeIntervalSince1970: 1_750_000_000)
        let issued = before.issue(for: request(cookie: nil), now: now)
        let cookie = try #require(issued.cookie)
        #expect(cookie.httpOnly && cookie.sameSite == .lax && cookie.path == "/" && !cookie.secure)
        #expect(issued.token.hasPrefix("v1.1750000000."))
        let browser = request(cookie: cookie.value)
        #expect(before.verify(issued.token, request: browser) == .valid(browser: issued.browser, issuedAt: now))
        // Another browser, no cookie, a changed time or MAC, an unknown key version: refused.
        #expect(before.verify(issued.token, request: request(cookie: FormProtection.Browser.random().value)) == .wrongToken)
        #expect(before.verify(issued.token, request: request(cookie: nil)) == .noCookie)
        #expect(before.verify(issued.token.replacingOccurrences(of: ".1750000000.", with: ".1740000000."), request: browser) == .wrongToken)
        // Base64's last character carries 4 bits and 2 unused ones: every other spelling of the
        // same MAC is refused, so no changed token passes.
        let mac = issued.token.split(separator: ".")[2]
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        for letter in alphabet where letter != mac.last {
            let changed = issued.token.dropLast() + String(letter)
            #expect(before.verify(String(changed), request: browser) == .wrongToken, "\(changed)")
        }
        #expect(before.verify("v3" + issued.token.dropFirst(2), request: browser) == .wrongToken)
        #expect(before.verify(nil, request: browser) == .wrongToken)
        #expect(before.verify(String(repeating: "v", count: 5000), request: browser) == .wrongToken)
        // A shown form keeps working after a rotation; a browser that has a cookie keeps it.
        let after = FormProtection(keyring: try PasswordKeyring(keys: [old, new]), secureCookies: true)
        #expect(after.verify(issued.token, request: browser) == .valid(browser: issued.browser, issuedAt: now))
        let again = after.issue(for: browser, now: now)
        #expect(again.cookie == nil && again.browser == issued.browser && again.token.hasPrefix("v2."))
        #expect(after.issue(for: request(cookie: nil), now: now).cookie?.secure == true)
        // A planted cookie of the wrong shape is no cookie.
        #expect(before.verify(issued.token, request: request(cookie: "short")) == .noCookie)
    }

    @Test func theBotCheckJudgesTheHoneypotAndTheTimeTaken() {
        let shown = Date(timeIntervalSince1970: 1000)
        var fields = FormFields([("website", "")])
        #expect(BotCheck.check(fields, issuedAt: shown, now: shown.addingTimeInterval(2)) == .tooFast(seconds: 2))
        #expect(BotCheck.check(fields, issuedAt: shown, now: shown.addingTimeInterval(3)) == .person)
        fields.set("website", "spam")
        #expect(BotCheck.check(fields, issuedAt: shown, now: shown.addingTimeInterval(60)) == .honeypotFilled)
    }

    @Test func aQuestionShowsItsProblemsBesideItAndKeepsItsValueEscaped() {
        let input = FormInput(name: "breed", label: "Breed", hint: "For example \"Labrador\".", kind: .input(type: "text"),
                              maxLength: 100, fields: [.breed])
        let html = FormHTML.question(input, value: "<b>Lab</b>", messages: ["Please enter the <breed>", "Second"]).description
        #expect(html.contains(#"<div class="field has-error" id="breed-field">"#))
        #expect(html.contains(#"<p class="hint" id="breed-hint">For example &quot;Labrador&quot;.</p>"#))
        #expect(html.contains(#"<p class="error-message" id="breed-error"><span class="visually-hidden">Error:</span> Please enter the &lt;breed&gt;</p>"#))
        #expect(html.contains(#"id="breed-error-2""#))
        #expect(html.contains(#"<input type="text" id="breed" name="breed" aria-describedby="breed-hint breed-error breed-error-2" aria-invalid="true" maxlength="100" value="&lt;b&gt;Lab&lt;/b&gt;">"#))
        let quiet = FormHTML.question(input, value: "", messages: []).description
        #expect(!quiet.contains("aria-invalid") && !quiet.contains("error"))
        let summary = FormHTML.errorSummary([("species-dog", "Please select a species")], notices: ["Sent <too> fast"]).description
        #expect(summary.contains(##"<li><a href="#species-dog">Please select a species</a></li>"##) && summary.contains("<li>Sent &lt;too&gt; fast</li>"))
        #expect(FormHTML.errorSummary([]).description.isEmpty)
    }
}

/// The body limits through a real form route: what a hostile client sends is refused by its
/// size or shape before it is buffered, and nothing is stored.
@Suite struct FormBodyLimitTests {
    @Test func oversizedOrMisshapenFormBodiesAreRefusedBeforeTheyAreKept() async throws {
        let server = try await TestServer()
        try await server.test { client in
            var browser = FormSession()
            _ = try await browser.get(client, "/report/missing")
            let token = try #require(browser.hidden("csrf_token"))
            func post(_ body: [UInt8], type: String) async throws -> TestResponse {
                try await client.execute(uri: "/report/missing", method: .post,
                                         headers: [.contentType: type, .cookie: browser.cookieHeader], body: ByteBuffer(bytes: body))
            }
            let boundary = "limits-boundary"
            let type = "multipart/form-data; boundary=\(boundary)"
            func part(_ name: String, _ value: String, headers: String = "") -> [UInt8] {
                Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\(headers)\r\n\(value)\r\n".utf8)
            }
            let first = part("csrf_token", token)
            let end = Array("--\(boundary)--\r\n".utf8)
            // More parts than any form of ours has.
            let many = try await post(first + (0..<100).flatMap { part("f\($0)", "x") } + end, type: type)
            #expect(many.status == .badRequest && String(buffer: many.body).contains("more parts"))
            // One part's headers longer than 2 KiB.
            let long = try await post(first + part("breed", "x", headers: "X-Padding: \(String(repeating: "a", count: 5000))\r\n") + end, type: type)
            #expect(long.status == .badRequest && String(buffer: long.body).contains("headers are longer"))
            // A field over 8 KiB; all fields over 32 KiB; a urlencoded body over its limit.
            let field = try await post(first + part("description", String(repeating: "d", count: 9000)) + end, type: type)
            #expect(field.status == .contentTooLarge)
            let fields = try await post(first + (0..<5).flatMap { part("f\($0)", String(repeating: "e", count: 8000)) } + end, type: type)
            #expect(fields.status == .contentTooLarge)
            let encoded = try await post(Array("csrf_token=\(token)&description=\(String(repeating: "u", count: 40_000))".utf8),
                                         type: "application/x-www-form-urlencoded")
            #expect(encoded.status == .contentTooLarge)
            // Cut short; not a form at all; a part without a name.
            let cut = try await post(first + Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"breed\"\r\n\r\nLab".utf8), type: type)
            #expect(cut.status == .badRequest && String(buffer: cut.body).contains("cut short"))
            let json = try await post(Array(#"{"species":"DOG"}"#.utf8), type: "application/json")
            #expect(json.status == .unsupportedMediaType)
            let nameless = try await post(first + Array("--\(boundary)\r\nContent-Disposition: form-data\r\n\r\nx\r\n".utf8) + end, type: type)
            #expect(nameless.status == .badRequest)
            #expect(try await server.announcementCount() == 0)
            #expect(try await server.storedFiles().isEmpty)
        }
    }
}
