import PetSpot

/// One kind of message: what it says, as plain text and as HTML, and whether its reader can
/// stop it. ``MailLayout`` puts either in the frame every message shares; ``Mailer`` makes it an
/// outbox item.
protocol MailTemplate: Sendable {
    /// Which outbox kind it is (counted, capped and checked by kind).
    static var kind: OutboxItem.Kind { get }
    /// The subject line (people's text in it is encoded by the mail layer).
    var subject: String { get }
    /// The message as plain text, without the footer.
    var text: String { get }
    /// The message as HTML inside the layout's frame: every value escaped by ``HTML``, every link
    /// absolute, a photo as a linked thumbnail.
    var html: HTML { get }
    /// One sentence on why this address gets it.
    var reason: String { get }
    /// The one-click unsubscribe link (RFC 8058) for mail the reader did not ask for right then;
    /// `nil` for a confirmation.
    var unsubscribeURL: String? { get }
}

extension MailTemplate {
    var unsubscribeURL: String? { nil }
}

/// A message to a report's owner about their report: its page, and the report as a sentence
/// names it.
protocol ReportMailTemplate: MailTemplate {
    var details: PetDetails { get }
    /// The public URL, without a trailing slash.
    var base: String { get }
}

extension ReportMailTemplate {
    var pageURL: String { "\(base)/pets/\(details.id.rawValue)" }

    /// "missing dog, labrador", "found cat".
    var what: String {
        let title = PetPage.title(details).lowercased()
        return details.isFoundReport ? "found \(title)" : "missing \(title)"
    }
}
