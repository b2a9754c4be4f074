#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// One message as it goes to the relay: plain text and HTML of the same content
/// (`multipart/alternative`, both UTF-8 quoted-printable), no attachments (a photo is a linked
/// thumbnail in the HTML), and — for mail the recipient did not ask for right then — RFC 8058's
/// one-click unsubscribe.
///
/// Every header value that comes from people (the subject, names) goes through ``HeaderText``,
/// so no value can end its header or add another; the addresses are ``MailAddress``es, which
/// refuse anything that could.
public struct MailMessage: Sendable {
    public var from: MailAddress
    public var to: MailAddress
    public var subject: String
    public var text: String
    public var html: String
    /// `local@domain`, without angle brackets; the same on every attempt, so a resend after a
    /// crash is recognisably the same message.
    public var messageID: String
    public var date: Date
    /// The `https` (or, on a test server, `http`) URL a POST to which unsubscribes
    /// (`List-Unsubscribe` with `List-Unsubscribe-Post: List-Unsubscribe=One-Click`); `nil` for
    /// a message the recipient asked for right then (a confirmation).
    public var unsubscribeURL: String?

    public init(from: MailAddress, to: MailAddress, subject: String, text: String, html: String, messageID: String,
                date: Date, unsubscribeURL: String? = nil) {
        self.from = from
        self.to = to
        self.subject = subject
        self.text = text
        self.html = html
        self.messageID = messageID
        self.date = date
        self.unsubscribeURL = unsubscribeURL
    }

    /// A new Message-ID's `local@domain`: a random UUID at `domain`.
    public static func newMessageID(domain: String) -> String {
        UUID().uuidString.lowercased() + "@" + domain
    }

    /// The message as RFC 5322 bytes with CRLF line ends, ready for the SMTP `DATA` (the
    /// relay's dot-stuffing is the transport's).
    /// - Parameter boundary: the multipart boundary (by default made from the Message-ID, so a
    ///   message renders to the same bytes each time); it starts with `=_`, which
    ///   quoted-printable text never contains.
    public func rendered(boundary: String? = nil) -> [UInt8] {
        let boundary = boundary ?? "=_petspot_" + String(messageID.unicodeScalars.filter {
            $0.isASCII && CharacterSet.alphanumerics.contains($0)
        }).prefix(40).lowercased()
        var head: [(String, String)] = [
            ("From", from.headerValue),
            ("To", to.address),
            ("Subject", HeaderText.unstructured(subject, nameLength: "Subject: ".count)),
            ("Date", Self.rfc5322Date(date)),
            ("Message-ID", "<" + Self.headerSafe(messageID) + ">"),
            ("MIME-Version", "1.0"),
            // RFC 3834: an automatic message; out-of-office replies are not sent back to it.
            ("Auto-Submitted", "auto-generated"),
        ]
        if let unsubscribeURL {
            head.append(("List-Unsubscribe", "<" + Self.headerSafe(unsubscribeURL) + ">"))
            head.append(("List-Unsubscribe-Post", "List-Unsubscribe=One-Click"))
        }
        head.append(("Content-Type", "multipart/alternative;\r\n boundary=\"\(boundary)\""))
        var out: [UInt8] = []
        for (name, value) in head { out += Array("\(name): \(value)\r\n".utf8) }
        out += Array("\r\n".utf8)
        for (type, body) in [("text/plain", text), ("text/html", html)] {
            out += Array("--\(boundary)\r\nContent-Type: \(type); charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n".utf8)
            out += QuotedPrintable.encode(body)
            out += Array("\r\n".utf8)
        }
        out += Array("--\(boundary)--\r\n".utf8)
        return out
    }

    /// A value of ours (a URL, a Message-ID) with anything that is not printable ASCII, and the
    /// angle brackets that delimit it, percent-encoded: a URL is ASCII already, so this changes
    /// nothing unless something upstream went wrong, and then it cannot break the header.
    static func headerSafe(_ value: String) -> String {
        var out = ""
        for byte in value.utf8 {
            if byte > 0x20, byte < 0x7F, byte != UInt8(ascii: "<"), byte != UInt8(ascii: ">") {
                out.unicodeScalars.append(UnicodeScalar(byte))
            } else {
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    /// `Tue, 04 Mar 2025 10:00:00 +0000` (RFC 5322 §3.3), in UTC, names in English whatever the locale.
    static func rfc5322Date(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let two: (Int32) -> String = { $0 < 10 ? "0\($0)" : "\($0)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) +0000"
    }
}
