#if canImport(Glibc)
import Glibc
#endif
import Foundation
import NIOCore
import PetSpot
import TestEngines
import Testing

/// The built server's mail through a real SMTP server, on the configured backend: what a match
/// mail carries, one-click unsubscribe without cookies, a report from the web form confirmed, a
/// relay that defers, refuses, breaks off or is dead, and a server killed between the relay's
/// acceptance and its record.
@Suite struct MailDeliveryTests {
    static let golden: (UInt8, UInt8, UInt8) = (205, 160, 80)

    @Test func theMatchMailArrivesWithItsLinksHeadersAndThumbnails() async throws {
        // Time for an upload on a loaded machine: a scan after the grace and before the photo would
        // mail the pair without it, once.
        let stack = try await MailStack.start("mail-match", arguments: ["--mail-photo-grace", "10s"])
        let base = stack.server.baseURL
        let rex = try await stack.create(["pet_name": #""Rex""#, "breed": #""Golden Retriever""#])
        #expect(try await HTTP.upload(try animalPhoto(Self.golden), base: base, to: rex).status == 201)
        // A name people type: a line separator, an encoded-word lookalike, a direction override, other scripts.
        let hostileName = "Łatka 🐶\u{2028}Bcc: victim@evil.test =?utf-8?b?QmNjOiB4QHkueg==?= \u{202E}kcab"
        let latka = try await stack.create(["pet_name": "\"\(hostileName)\"", "email": #""second@example.com""#,
                                            "location_latitude": "50.0614", "location_longitude": "19.9366"])
        let found = try await stack.create(["status": #""FOUND""#, "sex": #""UNKNOWN""#, "last_seen_date": #""2025-11-12""#,
                                            "breed": #""retriever mix""#, "email": #""finder@example.org""#,
                                            "location_latitude": "52.2300", "location_longitude": "21.0130"])
        #expect(try await HTTP.upload(try animalPhoto(Self.golden), base: base, to: found).status == 201)
        let foundNearLatka = try await stack.create(["status": #""FOUND""#, "last_seen_date": #""2025-11-11""#, "email": #""finder2@example.org""#,
                                                     "location_latitude": "50.0615", "location_longitude": "19.9367"])
        try await stack.settle()
        let all = try stack.messages()
        #expect(all.count == 6, "four confirmations and two match mails: \(all.map { $0.mail.header("Subject") ?? "" })")

        let matches = all.filter { $0.mail.header("Subject")?.hasPrefix("Could this be") == true }
        let mail = try #require(matches.first { $0.envelope.rcpt_tos == ["owner@example.com"] })
        #expect(mail.mail.header("Subject") == "Could this be Rex?")
        #expect(mail.envelope.mail_from == "alerts@pets.test")
        #expect(mail.mail.header("From") == "PetSpot <alerts@pets.test>")
        #expect(mail.mail.content_type == "multipart/alternative")
        #expect(mail.mail.parts.map(\.type) == ["text/plain", "text/html"] && mail.mail.parts.allSatisfy { $0.disposition == nil })
        #expect(mail.mail.html_errors.isEmpty, "\(mail.mail.html_errors)")
        #expect(mail.mail.defects.isEmpty, "\(mail.mail.defects)")
        let foundPage = "\(base)/pets/\(found.id.rawValue)", rexPage = "\(base)/pets/\(rex.id.rawValue)"
        #expect(mail.mail.linked_images.map(\.href) == [foundPage, rexPage])
        for image in mail.mail.linked_images {
            let src = try #require(image.src)
            #expect(src.hasPrefix("\(base)/photos/") && src.hasSuffix("/w320.jpg"))
            let thumbnail = try await HTTP.send(.GET, src)
            #expect(thumbnail.status == 200 && thumbnail.headers.first(name: "Content-Type") == "image/jpeg")
        }
        #expect(mail.mail.text_links.contains(foundPage))
        let unsubscribe = try #require(mail.mail.header("List-Unsubscribe"))
        #expect(unsubscribe.hasPrefix("<\(base)/mail/unsubscribe/m.\(rex.id.rawValue).") && unsubscribe.hasSuffix(">"))
        #expect(mail.mail.header("List-Unsubscribe-Post") == "List-Unsubscribe=One-Click")
        #expect(mail.mail.header("Message-ID")?.hasSuffix("@pets.test>") == true)

        // The hostile name: one subject, read back as text, no header added, one recipient.
        let other = try #require(matches.first { $0.envelope.rcpt_tos == ["second@example.com"] })
        #expect(other.mail.header("Subject") == "Could this be Łatka 🐶 Bcc: victim@evil.test =?utf-8?b?QmNjOiB4QHkueg==?= kcab?")
        #expect(other.mail.count(of: "Bcc") == 0 && other.mail.count(of: "Subject") == 1 && !other.mail.non_ascii_header_bytes)
        #expect(other.mail.text_links.contains("\(base)/pets/\(foundNearLatka.id.rawValue)"))
        _ = latka

        // Confirmations: asked for, so no unsubscribe; the report's page linked.
        let confirmations = all.filter { $0.mail.header("Subject")?.hasPrefix("Your report") == true }
        #expect(confirmations.count == 4)
        #expect(confirmations.allSatisfy { $0.mail.count(of: "List-Unsubscribe") == 0 && $0.mail.html_errors.isEmpty })
        let rexConfirmation = try #require(confirmations.first { $0.mail.text_links.contains(rexPage) })
        #expect(rexConfirmation.mail.text_links == [rexPage], "only the report's page: \(rexConfirmation.mail.text_links)")
        #expect(rexConfirmation.mail.text?.contains(rex.managementPassword) == false, "the password is never mailed")
        #expect(Set(all.compactMap { $0.mail.header("Message-ID") }).count == 6)

        // One click from a mail program: a POST with the RFC 8058 body, no cookie, no form token.
        let url = String(unsubscribe.dropFirst().dropLast())
        let stopped = try await HTTP.send(.POST, url, headers: [("Content-Type", "application/x-www-form-urlencoded")],
                                          body: .bytes(ByteBuffer(string: "List-Unsubscribe=One-Click")))
        #expect(stopped.status == 200 && stopped.headers.first(name: "Location") == nil)
        // Another found dog by Rex's place: its confirmation goes, no match mail.
        _ = try await stack.create(["status": #""FOUND""#, "last_seen_date": #""2025-11-12""#, "email": #""finder3@example.org""#,
                                    "location_latitude": "52.2298", "location_longitude": "21.0125"])
        try await stack.settle()
        let after = try stack.messages()
        #expect(after.count == 7)
        #expect(!after.dropFirst(6).contains { $0.envelope.rcpt_tos == ["owner@example.com"] })
        #expect(stack.server.stop() == 0)
        #expect(!stack.server.log.contains(MailStack.password))
    }

    @Test func aReportFromTheWebFormIsConfirmedByMailAndItsManagePageQueuesMatchScans() async throws {
        let stack = try await MailStack.start("mail-form")
        let base = stack.server.baseURL
        // A browser without JavaScript: the form, then one multipart post with the photo.
        var browser = WebSession(base: base)
        #expect(try await browser.get("/report/missing").status == 200)
        let hidden = browser.hiddenFields(of: "/report/missing")
        #expect(hidden.contains { $0.0 == "csrf_token" })
        // A person takes more than the bot check's 3 seconds to fill it in.
        try await Task.sleep(for: .seconds(3.2))
        let answers = ReportFormBrowserTests.answers.map { $0.0 == "email" ? ("email", "form-owner@example.com") : $0 }
        let posted = try await browser.postMultipart("/report/missing", hidden + answers + [("pet_name", "Rex")],
                                                     photo: try TestImages.bytes("sample-photo.jpg"))
        let location = try #require(posted.headers["Location"].first, "\(posted.status): \(browser.html)")
        #expect(posted.status == 303 && location.hasPrefix("/report/sent/"))
        let id = String(location.dropFirst("/report/sent/".count))
        try await browser.get(location)
        let password = try #require(browser.html.firstMatch(of: /<p class="password">(\d{6})<\/p>/)?.output.1)
        try await stack.settle()

        // Its confirmation, as for a report made through the API: to the address typed in the form.
        let mails = try stack.messages().filter { $0.envelope.rcpt_tos == ["form-owner@example.com"] }.map(\.mail)
        #expect(mails.count == 1, "\(mails.map { $0.header("Subject") ?? "" })")
        let mail = try #require(mails.first)
        #expect(mail.header("Subject") == "Your report of Rex is on PetSpot")
        #expect(mail.text_links.contains("\(base)/pets/\(id)") && mail.html_errors.isEmpty)
        #expect(mail.text?.contains("choose \"Manage this report\" on the report's page") == true, "\(mail.text ?? "")")
        #expect(mail.html?.contains("choose “Manage this report” on the report’s page") == true)
        #expect(mail.text?.contains("Lost it? Choose \"Forgot the password?\" when signing in") == true)
        // What it says is there: the page links "Manage this report", which asks for the password.
        #expect(try await browser.get("/pets/\(id)").status == 200)
        #expect(browser.html.contains("<a href=\"/pets/\(id)/manage\">Manage this report</a>"))
        let manage = "/pets/\(id)/manage"
        #expect(try await browser.get(manage).status == 200 && browser.html.contains("name=\"password\""))

        // Changed from that page, the report is looked at again for matches as after the API's
        // PATCH: reopened or edited, not closed.
        let scans = try await stack.jobCount("match-scan")
        #expect(scans == 1)
        var reply = try await browser.post(manage + "/sign-in", browser.hiddenFields(of: manage + "/sign-in") + [("password", String(password))])
        #expect(reply.status == 303, "\(browser.html)")
        for (action, expected) in [("withdrawn", scans), ("reopen", scans + 1)] {
            try await browser.get(manage)
            reply = try await browser.post(manage + "/status", browser.hiddenFields(of: manage + "/status") + [("action", action)])
            #expect(reply.status == 303, "\(action): \(browser.html)")
            try await stack.settle()
            #expect(try await stack.jobCount("match-scan") == expected, "\(action)")
        }
        try await browser.get(manage)
        reply = try await browser.postMultipart(manage, browser.hiddenFields(of: manage)
                                                + ManageReportTests.formFields(browser).replacing("description", with: "White paws."))
        #expect(reply.status == 303, "\(browser.html)")
        try await stack.settle()
        #expect(try await stack.jobCount("match-scan") == scans + 2)
        #expect(stack.server.stop() == 0)
    }

    @Test func aRelayThatDefersRefusesBreaksOffOrDiesDelaysMailAndLosesNone() async throws {
        let stack = try await MailStack.start("mail-faults")
        // 4xx: tried again until the relay takes it.
        try stack.sink.set(.deferAll)
        _ = try await stack.create(["email": #""deferred@example.com""#])
        try await eventually { try await stack.mailCount("retried") >= 2 }
        try stack.sink.set(.accept)
        try await stack.settle()
        // 5xx: given up at once, never sent.
        try stack.sink.set(.rejectAll)
        _ = try await stack.create(["email": #""refused@example.com""#])
        try await eventually { try await stack.mailCount("failed") == 1 }
        try stack.sink.set(.accept)
        // Broken off in the middle of DATA: tried again.
        try stack.sink.set(.dropInData)
        _ = try await stack.create(["email": #""dropped@example.com""#])
        try await eventually { try await stack.mailCount("retried") >= 3 }
        try stack.sink.set(.accept)
        try await stack.settle()
        // A dead relay: three reports while it is down, all delivered when it is back.
        try stack.sink.stop()
        for index in 0..<3 { _ = try await stack.create(["email": "\"dead\(index)@example.com\""]) }
        try await eventually { try await stack.mailCount("retried") >= 6 }
        try stack.sink.start()
        try await stack.settle()
        let recipients = try stack.messages().map { $0.envelope.rcpt_tos.joined() }
        #expect(recipients.sorted() == ["dead0@example.com", "dead1@example.com", "dead2@example.com", "deferred@example.com", "dropped@example.com"])
        let failed = try await stack.mailCount("failed"), sent = try await stack.mailCount("sent")
        #expect(failed == 1 && sent == 5)
        #expect(stack.server.stop() == 0)
        #expect(!stack.server.log.contains(MailStack.password))
    }

    @Test func aServerKilledBetweenSendAndRecordSendsOnceMoreWithTheSameMessageID() async throws {
        var stack = try await MailStack.start("mail-crash")
        try stack.sink.set(.slowAcknowledgement(seconds: 30))
        _ = try await stack.create(["email": #""crash@example.com""#])
        // The relay has the message and has not answered: the outbox has not recorded it.
        _ = try await stack.sink.waitForMessages(1)
        stack.server.stop(signal: SIGKILL)
        try stack.sink.set(.accept)
        try stack.restart()
        try await eventually { stack.sink.messageFiles().count >= 2 }
        _ = try await stack.create(["email": #""after@example.com""#])
        try await eventually { stack.sink.messageFiles().count >= 3 }
        try await stack.settle()
        let messages = try stack.messages()
        let crashed = messages.filter { $0.envelope.rcpt_tos == ["crash@example.com"] }
        #expect(crashed.count == 2, "once before the crash, once after: \(messages.count) messages")
        #expect(Set(crashed.compactMap { $0.mail.header("Message-ID") }).count == 1, "the same Message-ID")
        #expect(messages.count == 3)
        #expect(stack.server.stop() == 0)
    }

    @Test func aWrongRelayPasswordIsNeitherLoggedNorSaid() async throws {
        let folder = try makeTemporaryDirectory("mail-secret")
        let sink = try SMTPSink(folder: folder + "/sink", password: "the-right-one")
        let secret = "wr0ng-\(UUID().uuidString.prefix(6))"
        let server = try ServerProcess(dataDirectory: folder + "/data", arguments: [
            "--smtp-ca-file", sink.caFile!, "--mail-from", "alerts@pets.test", "--mail-retry-delays", "200ms", "--log-level", "notice",
        ], environment: ["PETSPOT_SMTP_URL": "smtp://petspot:\(secret)@127.0.0.1:\(sink.port)"])
        let reply = try await HTTP.send(.POST, server.baseURL + AnnouncementsAPI.collectionPath, headers: [("Content-Type", "application/json")],
                                        body: .bytes(ByteBuffer(string: HTTP.announcementJSON)))
        #expect(reply.status == 201)
        try await eventually { server.log.contains("deferred") }
        #expect(server.log.contains("smtp://petspot@127.0.0.1:\(sink.port) (STARTTLS, password given)"), "\(server.log)")
        #expect(!server.log.contains(secret))
        #expect(sink.messageFiles().isEmpty)
        #expect(server.stop() == 0)
        // A URL that cannot be used is refused before the start, without its password.
        let (status, output) = try await runProcessToEnd(ServerProcess.binary.path, [
            "--data-dir", folder + "/other", "--mail-from", "alerts@pets.test", "--port", "0",
            "--smtp-url", "smtp://petspot:\(secret)@relay.example.net:25?tls=none"])
        #expect(status == 78 && output.contains("only for a relay on this machine") && !output.contains(secret), "\(output)")
    }
}
