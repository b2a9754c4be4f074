import Foundation
@testable import Mail
import TestEngines
import TestScratch
import Testing

/// Messages as bytes, read back by Python's `email` package: both parts, the headers, and what
/// hostile text in a subject or a name can do (nothing).
@Suite struct MessageTests {
    static func message(subject: String, name: String? = "PetSpot", unsubscribe: String? = "https://pets.example.org/mail/unsubscribe/m.abc") throws -> MailMessage {
        MailMessage(from: try MailAddress("alerts@pets.example.org", displayName: name), to: try MailAddress("owner@example.com"),
                    subject: subject, text: "Hello,\nsee https://pets.example.org/pets/1\n.a line that starts with a dot\n" + String(repeating: "long ", count: 40),
                    html: "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>t</title></head><body><p>Zażółć gęślą jaźń = ok</p></body></html>",
                    messageID: "abc@pets.example.org", date: Date(timeIntervalSince1970: 1_700_000_000), unsubscribeURL: unsubscribe)
    }

    static func parsed(_ messages: [MailMessage]) throws -> [ParsedMail] {
        let folder = try ScratchFolder.make("mime")
        var files: [String] = []
        for (index, message) in messages.enumerated() {
            let path = "\(folder)/\(index).eml"
            try Data(message.rendered()).write(to: URL(fileURLWithPath: path))
            files.append(path)
        }
        return try ParsedMail.read(files)
    }

    @Test func bothPartsHeadersAndOneClickUnsubscribeAreReadBack() throws {
        let mail = try #require(try Self.parsed([Self.message(subject: "Could this be Rex?")]).first)
        #expect(mail.content_type == "multipart/alternative")
        #expect(mail.parts.map(\.type) == ["text/plain", "text/html"])
        #expect(mail.parts.allSatisfy { $0.charset == "utf-8" && $0.transfer_encoding == "quoted-printable" && $0.disposition == nil })
        #expect(mail.text?.contains("\n.a line that starts with a dot") == true)
        #expect(mail.text?.contains(String(repeating: "long ", count: 39)) == true)
        #expect(mail.html?.contains("Zażółć gęślą jaźń = ok") == true)
        #expect(mail.html_errors.isEmpty, "\(mail.html_errors)")
        #expect(mail.defects.isEmpty, "\(mail.defects)")
        #expect(mail.header("Subject") == "Could this be Rex?")
        #expect(mail.header("From") == "PetSpot <alerts@pets.example.org>")
        #expect(mail.header("To") == "owner@example.com")
        #expect(mail.header("Message-ID") == "<abc@pets.example.org>")
        #expect(mail.header("Date") == "Tue, 14 Nov 2023 22:13:20 +0000")
        #expect(mail.header("List-Unsubscribe") == "<https://pets.example.org/mail/unsubscribe/m.abc>")
        #expect(mail.header("List-Unsubscribe-Post") == "List-Unsubscribe=One-Click")
        #expect(mail.header("Auto-Submitted") == "auto-generated")
        #expect(!mail.non_ascii_header_bytes)
        #expect(mail.longest_line <= 78)
    }

    @Test func aMessageAskedForHasNoUnsubscribeHeaders() throws {
        let mail = try #require(try Self.parsed([Self.message(subject: "Confirm", unsubscribe: nil)]).first)
        #expect(mail.count(of: "List-Unsubscribe") == 0)
        #expect(mail.count(of: "List-Unsubscribe-Post") == 0)
    }

    /// A pet's name is what people type: line breaks and headers in it, encoded-word lookalikes,
    /// bidirectional overrides, other scripts and emoji. None of it may add a header, and what
    /// is text must read back as the text.
    @Test(arguments: [
        ("Rex\r\nBcc: victim@example.net", "Could this be Rex Bcc: victim@example.net?"),
        ("Rex\nContent-Type: text/html\n\n<script>", "Could this be Rex Content-Type: text/html <script>?"),
        ("=?utf-8?b?QmNjOiB4QHkueg==?=", "Could this be =?utf-8?b?QmNjOiB4QHkueg==?=?"),
        ("Łatka \u{1F436} 小白", "Could this be Łatka \u{1F436} 小白?"),
        ("\u{202E}xeR", "Could this be xeR?"),
        (String(repeating: "Ü", count: 300), "Could this be " + String(repeating: "Ü", count: 185) + "…"),
    ])
    func hostileSubjectsStayOneHeader(name: String, expected: String) throws {
        let mail = try #require(try Self.parsed([Self.message(subject: "Could this be \(name)?")]).first)
        #expect(mail.header("Subject") == expected)
        #expect(mail.count(of: "Subject") == 1)
        #expect(mail.count(of: "Bcc") == 0)
        #expect(mail.headers.keys.sorted() == ["Auto-Submitted", "Content-Type", "Date", "From", "List-Unsubscribe", "List-Unsubscribe-Post",
                                               "MIME-Version", "Message-ID", "Subject", "To"])
        #expect(mail.content_type == "multipart/alternative")
        #expect(!mail.non_ascii_header_bytes)
        #expect(mail.longest_line <= 78)
        #expect(mail.defects.isEmpty, "\(mail.defects)")
    }

    @Test(arguments: ["Pet\r\nBcc: x@y.z", "Zwierzę & co", "\"Quoted\" <name>"])
    func hostileDisplayNamesStayInTheirAddress(name: String) throws {
        let mail = try #require(try Self.parsed([Self.message(subject: "s", name: name)]).first)
        let from = try #require(mail.header("From"))
        #expect(from.hasSuffix("<alerts@pets.example.org>"), "\(from)")
        #expect(mail.count(of: "Bcc") == 0)
        #expect(mail.count(of: "From") == 1)
        #expect(!mail.non_ascii_header_bytes)
    }

    @Test(arguments: ["a@b.org>\r\nRCPT TO:<c@d.org", "a b@c.org", "a@b", "ann@bücher.de", "<a@b.org>", "a,b@c.org", ""])
    func addressesThatCouldBreakTheEnvelopeAreRefused(text: String) {
        #expect(throws: MailError.self) { try MailAddress(text) }
    }

    @Test func aSenderIsReadWithOrWithoutItsName() throws {
        let named = try MailAddress(parsing: "PetSpot alerts <alerts@pets.example.org>")
        #expect(named.address == "alerts@pets.example.org" && named.displayName == "PetSpot alerts")
        let bare = try MailAddress(parsing: " alerts@pets.example.org ")
        #expect(bare.address == "alerts@pets.example.org" && bare.displayName == nil)
        #expect(named.domain == "pets.example.org")
    }

    @Test func quotedPrintableKeepsLinesShortAndEscapesWhatItMust() {
        let encoded = String(decoding: QuotedPrintable.encode("a=b \n.dot\ntrailing \n" + String(repeating: "x", count: 200)), as: UTF8.self)
        let lines = encoded.components(separatedBy: "\r\n")
        #expect(lines[0] == "a=3Db=20")
        #expect(lines[1] == "=2Edot")
        #expect(lines[2] == "trailing=20")
        #expect(lines.allSatisfy { $0.utf8.count <= 76 })
        #expect(lines[3].hasSuffix("="))
    }
}
