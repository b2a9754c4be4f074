import Foundation
import NIOCore
import PetSpot
import TestEngines
import Testing

/// Following an area by email through the built server's pages, on the configured backend: the
/// form from the list's search near a place (a CSRF token bound to the browser's cookie), the
/// confirmation and nothing else until it is followed, one confirmation a day per address, an
/// alert per new report once confirmed, and one-click unsubscribe with no cookie.
@Suite struct AreaAlertMailTests {
    static let near = "near_place=Mokot%C3%B3w%2C%20Warsaw&radius_km=5&species=dog"

    static func cookie(_ reply: HTTP.Reply) -> String? {
        reply.headers["Set-Cookie"].first.map { String($0.split(separator: ";")[0]) }
    }

    static func token(in page: [UInt8]) throws -> String {
        let html = String(decoding: page, as: UTF8.self)
        let match = try #require(html.firstMatch(of: /name="csrf_token" value="([^"]+)"/))
        return String(match.1)
    }

    static func subscribe(_ base: String, email: String, cookie: String?, token: String) async throws -> HTTP.Reply {
        let body = ["csrf_token=\(token)", "near_place=Mokot%C3%B3w%2C+Warsaw", "radius_km=5", "species=dog", "status=", "website=",
                    "email=\(email.replacingOccurrences(of: "@", with: "%40"))", "cadence=each"].joined(separator: "&")
        var headers = [("Content-Type", "application/x-www-form-urlencoded")]
        if let cookie { headers.append(("Cookie", cookie)) }
        return try await HTTP.send(.POST, base + "/alerts", headers: headers, body: .bytes(ByteBuffer(string: body)))
    }

    func messages(to address: String, _ stack: MailStack) throws -> [ParsedMail] {
        try stack.messages().filter { $0.envelope.rcpt_tos == [address] }.map(\.mail)
    }

    @Test func anAreaIsFollowedOnlyOnceConfirmedAndLeftWithOneClick() async throws {
        // Every request logged, as a server in production logs them: the links' tokens must not be.
        let stack = try await MailStack.start("mail-alerts", arguments: ["--log-level", "info"]) { data in
            let (status, output) = try await PlacesImportTests.importPlaces(PlacesImportTests.sample, dataDirectory: data)
            try #require(status == 0, "\(output)")
        }
        let base = stack.server.baseURL
        let list = String(decoding: try await HTTP.send(.GET, base + "/?" + Self.near).body, as: UTF8.self)
        let link = try #require(list.firstMatch(of: /href="(\/alerts\/new\?[^"]+)"/)).1.replacingOccurrences(of: "&amp;", with: "&")
        let form = try await HTTP.send(.GET, base + link)
        #expect(form.status == 200 && form.headers.first(name: "Cache-Control") == "no-store")
        let cookie = try #require(Self.cookie(form))
        let token = try Self.token(in: form.body)
        #expect(String(decoding: form.body, as: UTF8.self).contains("missing and found dogs within 5 km of Mokotów, Warsaw, Poland"))

        // Another site's post, without this browser's cookie: refused, nothing stored.
        let forged = try await Self.subscribe(base, email: "victim@example.net", cookie: nil, token: token)
        #expect(forged.status == 403)
        // A person takes more than the bot check's 3 seconds to fill it in.
        try await Task.sleep(for: .seconds(3))
        // 303 to "Check your email" (the client follows it).
        let sent = try await Self.subscribe(base, email: "follower@example.net", cookie: cookie, token: token)
        #expect(sent.status == 200 && String(decoding: sent.body, as: UTF8.self).contains("<h1>Check your email</h1>"))
        // An address with a header or a second recipient in it: the form again, with the problem beside the box.
        for hostile in ["victim@example.net\r\nBcc: many@example.net", "victim@example.net, other@example.net"] {
            let refused = try await Self.subscribe(base, email: hostile.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!,
                                                   cookie: cookie, token: token)
            #expect(refused.status == 422 && String(decoding: refused.body, as: UTF8.self).contains(#"id="email-error""#), "\(hostile)")
        }
        // Asked again the same day: the same answer, no second confirmation.
        let again = try await Self.subscribe(base, email: "FOLLOWER@example.net", cookie: cookie, token: token)
        #expect(again.status == 200 && again.body == sent.body)
        // Not confirmed yet: a dog reported in the area sends nothing to the address.
        _ = try await stack.create(["location_latitude": "52.1934", "location_longitude": "21.03487", "email": #""a@example.org""#])
        try await stack.settle()
        let confirmations = try messages(to: "follower@example.net", stack)
        #expect(confirmations.count == 1, "\(confirmations.map { $0.header("Subject") ?? "" })")
        #expect(try messages(to: "FOLLOWER@example.net", stack).isEmpty)
        #expect(try stack.messages().allSatisfy { !$0.envelope.rcpt_tos.joined().contains("victim") && !$0.envelope.rcpt_tos.joined().contains("many@") })
        let confirmation = try #require(confirmations.first)
        #expect(confirmation.header("Subject") == "Confirm your PetSpot alerts")
        #expect(confirmation.count(of: "List-Unsubscribe") == 0 && confirmation.html_errors.isEmpty)
        let confirmURL = try #require(confirmation.text_links.first { $0.contains("/alerts/confirm/c.") })

        // Following the link asks; the button confirms (no cookie needed: the token is the authority).
        let asked = try await HTTP.send(.GET, confirmURL)
        #expect(asked.status == 200 && String(decoding: asked.body, as: UTF8.self).contains("<form method=\"post\">"))
        #expect(try await HTTP.send(.POST, confirmURL).status == 200)
        // Someone with the confirmation link cannot make an unsubscribe link of it: the token itself on
        // the unsubscribe path, or its MAC under the unsubscribe purpose. Refused; the alerts below still come.
        let confirmToken = String(confirmURL.split(separator: "/").last!)
        for forged in [confirmToken, "u." + confirmToken.dropFirst(2)] {
            let refused = try await HTTP.send(.POST, base + "/mail/unsubscribe/" + forged, headers: [("Content-Type", "application/x-www-form-urlencoded")],
                                              body: .bytes(ByteBuffer(string: "List-Unsubscribe=One-Click")))
            #expect(refused.status == 404, "\(forged)")
        }
        let dog = try await stack.create(["location_latitude": "52.1935", "location_longitude": "21.0349", "email": #""b@example.org""#])
        _ = try await stack.create(["location_latitude": "52.1935", "location_longitude": "21.0349", "email": #""c@example.org""#,
                                    "species": #""CAT""#])
        try await stack.settle()
        let alerts = try messages(to: "follower@example.net", stack).dropFirst()
        #expect(alerts.count == 1, "one dog, no cat: \(alerts.map { $0.header("Subject") ?? "" })")
        let alert = try #require(alerts.first)
        #expect(alert.text_links.contains("\(base)/pets/\(dog.id.rawValue)"))
        #expect(alert.header("List-Unsubscribe-Post") == "List-Unsubscribe=One-Click" && alert.html_errors.isEmpty)

        // One click from the mail program: a POST, no cookie; the address is erased.
        let unsubscribe = try #require(alert.header("List-Unsubscribe")).dropFirst().dropLast()
        let stopped = try await HTTP.send(.POST, String(unsubscribe), headers: [("Content-Type", "application/x-www-form-urlencoded")],
                                          body: .bytes(ByteBuffer(string: "List-Unsubscribe=One-Click")))
        #expect(stopped.status == 200)
        _ = try await stack.create(["location_latitude": "52.1936", "location_longitude": "21.0348", "email": #""d@example.org""#])
        try await stack.settle()
        #expect(try messages(to: "follower@example.net", stack).count == 2)
        #expect(try await !stack.server.backend.stillHolds(address: "follower@example.net", dataDirectory: stack.folder + "/data"),
                "the address is erased from the database")
        #expect(stack.server.stop() == 0)
        let tokens = [confirmURL, String(unsubscribe)].map { String($0.split(separator: "/").last!) }
        #expect(stack.server.log.contains("POST /alerts/confirm/") && stack.server.log.contains("POST /mail/unsubscribe/"))
        #expect(tokens.allSatisfy { !stack.server.log.contains($0) }, "a link's token is never logged")
    }
}
