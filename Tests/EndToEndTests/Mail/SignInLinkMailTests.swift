import AsyncHTTPClient
import Foundation
import NIOCore
import PetSpot
import TestEngines
import Testing

/// "Forgot the password?" through a real SMTP server and real HTTP: the link goes only to the
/// report's address, the page never says whether it matched, the link signs one browser in once
/// (and signs the others out), and neither the log nor a tampered link gets anyone in.
@Suite(.serialized) struct SignInLinkMailTests {
    static let owner = "owner@example.com"

    /// The sign-in links mailed to the owner so far, oldest first.
    static func links(_ stack: MailStack) throws -> [(mail: ParsedMail, link: String)] {
        try stack.messages().filter { $0.envelope.rcpt_tos == [owner] && ($0.mail.header("Subject") ?? "").hasPrefix("Sign in") }
            .sorted { $0.envelope.received_at < $1.envelope.received_at }
            .map { ($0.mail, try #require($0.mail.text_links.first { $0.contains("/mail/sign-in/") })) }
    }

    static func ask(_ browser: inout WebSession, _ manage: String, email: String) async throws -> HTTP.Reply {
        try await browser.get(manage + "/forgot")
        return try await browser.post(manage + "/forgot", browser.hiddenFields(of: manage + "/forgot") + [("email", email)])
    }

    /// A form's post sent as a browser sends it, without a session value to update (for two at once).
    static func press(_ url: String, _ fields: [(String, String)], cookies: String) async throws -> Int {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Cookie", value: cookies)
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: fields.map { "\(WebSession.encode($0.0))=\(WebSession.encode($0.1))" }.joined(separator: "&")))
        // The browsers' client: a 303 is seen, not followed.
        return Int(try await WebSession.client.execute(request, timeout: .seconds(60)).status.code)
    }

    @Test func theOwnerWhoLostThePasswordSignsInOnceWithAnEmailedLink() async throws {
        // Every request's line in the log (the stack's servers log notices only).
        let stack = try await MailStack.start("sign-in-link", arguments: ["--log-level", "info"])
        let base = stack.server.baseURL
        let created = try await stack.create(["pet_name": #""Rex""#])
        let manage = "/pets/\(created.id.rawValue)/manage"
        try await stack.settle()
        let before = try stack.messages().count

        // Another device signed in with the password, before the password is lost.
        var laptop = WebSession(base: base)
        try await laptop.get(manage)
        var reply = try await laptop.post(manage + "/sign-in", laptop.hiddenFields(of: manage + "/sign-in") + [("password", created.managementPassword)])
        #expect(reply.status == 303)

        // The sign-in page offers the way in without the password.
        var phone = WebSession(base: base)
        try await phone.get(manage)
        #expect(phone.html.contains("<a href=\"\(manage)/forgot\">Forgot the password?</a>"))
        try await phone.get(manage + "/forgot")
        #expect(phone.html.contains("name=\"email\"") && phone.html.contains("autocomplete=\"email\""))

        // No form token: 403, nothing queued. No address, or not an address: 422 with the problem.
        reply = try await phone.post(manage + "/forgot", [("email", Self.owner)])
        #expect(reply.status == 403)
        reply = try await Self.ask(&phone, manage, email: " ")
        #expect(reply.status == 422 && phone.html.contains("Enter the email address given in the report"))
        reply = try await Self.ask(&phone, manage, email: "owner@")
        #expect(reply.status == 422 && phone.html.contains(ValidationMessage.email) && phone.value(of: "email") == "owner@")

        // Another address and the report's (in other capitals) get the same answer; only the report's gets mail.
        reply = try await Self.ask(&phone, manage, email: "someone-else@example.com")
        let location = try #require(reply.headers["Location"].first)
        #expect(reply.status == 303 && location == manage + "/forgot?done=sent")
        try await phone.get(location)
        let sentPage = phone.html
        #expect(sentPage.contains("If the address you entered is the one in this report"))
        reply = try await Self.ask(&phone, manage, email: "Owner@Example.COM")
        #expect(reply.status == 303 && reply.headers["Location"].first == location)
        try await phone.get(location)
        #expect(phone.html == sentPage)
        try await stack.settle()
        let mailed = try Self.links(stack)
        let total = try stack.messages().count
        #expect(mailed.count == 1 && total == before + 1)
        let (mail, link) = try #require(mailed.first)
        #expect(mail.header("Subject") == "Sign in to manage your report of Rex")
        #expect(mail.content_type == "multipart/alternative" && mail.html_errors.isEmpty && mail.defects.isEmpty)
        #expect(mail.header("List-Unsubscribe") == nil, "asked for right then: no unsubscribe")
        #expect(mail.links.contains(link) && link.hasPrefix(base + "/mail/sign-in/\(created.id.rawValue)."))
        let path = String(link.dropFirst(base.count))
        let token = String(path.dropFirst("/mail/sign-in/".count))

        // Opening the link changes nothing (mail programs fetch links): a page with a button.
        reply = try await phone.get(path)
        #expect(reply.status == 200 && phone.setCookie("petspot_owner") == nil)
        #expect(phone.headers.contains { $0.0.lowercased() == "referrer-policy" && $0.1 == "no-referrer" })
        #expect(phone.html.contains(">Sign in</button>"))
        // Posting it without the page's form token: 403, nobody signed in.
        var stranger = WebSession(base: base)
        reply = try await stranger.post(path, [])
        #expect(reply.status == 403 && stranger.setCookie("petspot_owner") == nil)
        // A link changed in any part is not this server's.
        let forged = String(path.dropLast()) + (path.last == "A" ? "B" : "A")
        #expect(try await stranger.get(forged).status == 404)
        #expect(try await stranger.get(path.replacingOccurrences(of: ".0.", with: ".1.")).status == 404)

        // The button: signed in, to the manage page, with a note to make a new password.
        reply = try await phone.post(path, phone.hiddenFields(of: path))
        #expect(reply.status == 303 && reply.headers["Location"].first == manage + "?done=signed-in-by-link")
        #expect(phone.setCookie("petspot_owner")?.contains("SameSite=Strict") == true)
        reply = try await phone.get(manage + "?done=signed-in-by-link")
        #expect(reply.status == 200 && phone.html.contains("You are signed in with the emailed link"))
        #expect(phone.value(of: "pet_name") == "Rex")
        // The other device is signed out; the link does not work again, in any browser.
        try await laptop.get(manage)
        #expect(laptop.html.contains("You were signed out") && !laptop.html.contains("name=\"pet_name\""))
        var again = WebSession(base: base)
        reply = try await again.get(path)
        #expect(reply.status == 410 && again.html.contains("works once"))
        try await phone.get(path)
        reply = try await phone.post(path, phone.hiddenFields(of: path))
        #expect(reply.status == 410)

        // A new link: two browsers press its button at the same moment; one is signed in.
        _ = try await Self.ask(&phone, manage, email: Self.owner)
        try await stack.settle()
        let second = try #require(try Self.links(stack).last?.link)
        #expect(second != link)
        let secondPath = String(second.dropFirst(base.count))
        var first = WebSession(base: base), other = WebSession(base: base)
        try await first.get(secondPath)
        try await other.get(secondPath)
        let firstFields = first.hiddenFields(of: secondPath), otherFields = other.hiddenFields(of: secondPath)
        async let a = Self.press(base + secondPath, firstFields, cookies: first.cookieHeader)
        async let b = Self.press(base + secondPath, otherFields, cookies: other.cookieHeader)
        let statuses = [try await a, try await b].sorted()
        #expect(statuses == [303, 410], "\(statuses)")

        // At most three links an hour for a report: two more asked for, one more sent.
        for _ in 0..<2 { _ = try await Self.ask(&phone, manage, email: Self.owner) }
        try await stack.settle()
        #expect(try Self.links(stack).count == 3)

        // The log says a link was asked for and followed; it never holds a link or an address typed.
        let log = stack.server.log
        #expect(log.contains("a sign-in link was asked for") && log.contains("signed in with an emailed link"))
        #expect(!log.contains(token) && !log.contains(second.split(separator: "/").last!) && !log.contains("someone-else@example.com"))
        #expect(log.contains("/mail/sign-in/{token}"))
        #expect(stack.server.stop() == 0)
    }

    @Test func withoutMailThePagesSayThereIsNoLink() async throws {
        let folder = try makeTemporaryDirectory("sign-in-no-mail")
        let server = try ServerProcess(dataDirectory: folder + "/data")
        let created = try await HTTP.create(server.baseURL)
        let manage = "/pets/\(created.id.rawValue)/manage"
        var browser = WebSession(base: server.baseURL)
        try await browser.get(manage)
        #expect(browser.html.contains("This site does not send email") && !browser.html.contains("\(manage)/forgot"))
        #expect(try await browser.get(manage + "/forgot").status == 200 && !browser.html.contains("name=\"email\""))
        #expect(browser.html.contains("which this site has not been set up to send"))
        #expect(server.stop() == 0)
    }
}
