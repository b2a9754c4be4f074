import Foundation
@testable import Mail
import TestEngines
import TestScratch
import Testing

/// libcurl's SMTP against a real server (aiosmtpd): STARTTLS required and verified, AUTH, and
/// what each kind of failure becomes: 4xx and a broken connection wait, 5xx is final, a dead
/// server waits, and no error text ever holds the password.
@Suite(.serialized) struct TransportTests {
    static let password = "pa$$-w0rd:with/odd%chars"

    static func message(_ subject: String) throws -> MailMessage {
        MailMessage(from: try MailAddress("alerts@pets.example.org"), to: try MailAddress("owner@example.com"), subject: subject,
                    text: "text", html: "<p>html</p>", messageID: MailMessage.newMessageID(domain: "pets.example.org"), date: Date())
    }

    static func transport(_ sink: SMTPSink, password: String? = TransportTests.password, caFile: String?? = nil) throws -> SMTPTransport {
        let escaped = password.map { $0.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! }
        let relay = try SMTPRelay(url: sink.url(password: escaped), caFile: caFile ?? sink.caFile)
        return try SMTPTransport(relay: relay, heloDomain: "pets.example.org")
    }

    static func send(_ transport: SMTPTransport, _ subject: String) async throws -> DeliveryOutcome {
        let message = try Self.message(subject)
        return await transport.send(message.rendered(), from: message.from, to: message.to)
    }

    @Test func startTLSAndAuthDeliverOverOneConnectionAndEachModeIsClassified() async throws {
        let sink = try SMTPSink(folder: try ScratchFolder.make("smtp"), password: Self.password)
        let transport = try Self.transport(sink)
        #expect(try await Self.send(transport, "one") == .accepted)
        #expect(try await Self.send(transport, "two") == .accepted)
        let files = try await sink.waitForMessages(2)
        #expect(files.count == 2)
        let envelope = try sink.envelope(of: files[0])
        #expect(envelope.mail_from == "alerts@pets.example.org" && envelope.rcpt_tos == ["owner@example.com"])
        let parsed = try ParsedMail.read(files)
        #expect(parsed.map { $0.header("Subject") } == ["one", "two"])

        try sink.set(.deferAll)
        guard case .deferred(let text) = try await Self.send(transport, "deferred") else { Issue.record("a 451 must defer"); return }
        #expect(text.contains("451"), "\(text)")
        try sink.set(.rejectAll)
        guard case .rejected(let reason) = try await Self.send(transport, "rejected") else { Issue.record("a 550 must reject"); return }
        #expect(reason.contains("550"), "\(reason)")
        try sink.set(.dropInData)
        guard case .deferred = try await Self.send(transport, "dropped") else { Issue.record("a connection broken in DATA must defer"); return }
        try sink.set(.accept)
        try sink.stop()
        guard case .deferred = try await Self.send(transport, "dead") else { Issue.record("a dead server must defer"); return }
        try sink.start()
        #expect(try await Self.send(transport, "back") == .accepted)
        let after = try await sink.waitForMessages(3)
        #expect(try ParsedMail.read(after).map { $0.header("Subject") } == ["one", "two", "back"])
    }

    @Test func aWrongPasswordWaitsAndIsNeverRepeated() async throws {
        let sink = try SMTPSink(folder: try ScratchFolder.make("smtp"), password: "the-right-one")
        let outcome = try await Self.send(try Self.transport(sink), "x")
        guard case .deferred(let text) = outcome else { Issue.record("a refused login must defer: \(outcome)"); return }
        #expect(!text.contains(Self.password) && !text.contains("pa$$"), "\(text)")
        #expect(sink.messageFiles().isEmpty)
    }

    @Test func aRelayWhoseCertificateDoesNotVerifyGetsNothing() async throws {
        let sink = try SMTPSink(folder: try ScratchFolder.make("smtp"), password: Self.password)
        // The system's CAs: the sink's self-signed certificate is not among them.
        let outcome = try await Self.send(try Self.transport(sink, caFile: .some(nil)), "x")
        guard case .deferred = outcome else { Issue.record("an unverified relay must defer: \(outcome)"); return }
        #expect(sink.messageFiles().isEmpty)
    }

    @Test func aRelayWithoutSTARTTLSGetsNothingUnlessPlainIsAsked() async throws {
        let sink = try SMTPSink(folder: try ScratchFolder.make("smtp"), plain: true)
        let required = try SMTPTransport(relay: try SMTPRelay(url: sink.url()), heloDomain: "pets.example.org")
        guard case .deferred = try await Self.send(required, "x") else { Issue.record("no STARTTLS offered must defer"); return }
        #expect(sink.messageFiles().isEmpty)
        let plain = try SMTPTransport(relay: try SMTPRelay(url: sink.url(plain: true)), heloDomain: "pets.example.org")
        #expect(try await Self.send(plain, "plain") == .accepted)
        #expect(try await sink.waitForMessages(1).count == 1)
    }
}

/// `--smtp-url` as operators write it, and what is refused, never echoing a password.
@Suite struct RelayURLTests {
    @Test func schemesPortsAndUsersAreRead() throws {
        let starttls = try SMTPRelay(url: "smtp://mailer%40pets.org:s%3Acret@mail.example.net")
        #expect(starttls.host == "mail.example.net" && starttls.port == 587 && starttls.security == .startTLS)
        #expect(starttls.username == "mailer@pets.org" && starttls.password == "s:cret")
        #expect(starttls.description == "smtp://mailer@pets.org@mail.example.net:587 (STARTTLS, password given)")
        let tls = try SMTPRelay(url: "smtps://u:p@mail.example.net")
        #expect(tls.port == 465 && tls.security == .implicitTLS)
        let plain = try SMTPRelay(url: "smtp://127.0.0.1:2525?tls=none")
        #expect(plain.security == .none && plain.port == 2525 && !plain.hasPassword)
    }

    @Test(arguments: ["smtp://relay.example.net:25?tls=none", "smtps://127.0.0.1?tls=none", "http://u:secret-pw@x.org",
                      "smtp://u:secret-pw@x.org/path", "smtp://x.org?auth=plain", "smtp://:secret-pw@x.org", "not a url", "smtp://x.org:70000"])
    func unusableURLsAreRefusedWithoutTheirPassword(url: String) {
        do {
            _ = try SMTPRelay(url: url)
            Issue.record("\(url) was accepted")
        } catch {
            #expect(!error.description.contains("secret-pw"), "\(error)")
            #expect(error.description.hasSuffix("without TLS."), "\(error)")
        }
    }

    @Test func thePasswordComesFromAFileOnce() throws {
        let folder = try ScratchFolder.make("relay")
        try "from-file\nignored\n".write(toFile: folder + "/pw", atomically: true, encoding: .utf8)
        #expect(try SMTPRelay(url: "smtp://u@x.org", passwordFile: folder + "/pw").password == "from-file")
        #expect(throws: MailError.self) { try SMTPRelay(url: "smtp://u:p@x.org", passwordFile: folder + "/pw") }
        #expect(throws: MailError.self) { try SMTPRelay(url: "smtp://u@x.org", passwordFile: folder + "/missing") }
        #expect(throws: MailError.self) { try SMTPRelay(url: "smtp://u@x.org", caFile: folder + "/missing.pem") }
    }
}
