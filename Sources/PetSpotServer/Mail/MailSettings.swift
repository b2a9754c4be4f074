import Foundation
import Mail

/// How the server sends mail (`--smtp-url`, `--mail-from` and the rest); without it the server
/// sends none and its pages say which features need it.
public struct MailSettings: Sendable {
    public var relay: SMTPRelay
    public var sender: MailAddress
    /// When a deferred message is tried again, and when trying stops.
    public var retry = RetrySchedule.standard
    /// How often a replica looks for rows another replica queued (its own wake it at once).
    public var pollInterval: Duration = .seconds(5)
    /// Possible-match mails one missing report's owner gets in 24 hours at most.
    public var matchMailsPerDay = 3
    /// How long mail about a report created without a photo waits for one: the app creates the
    /// report, then uploads its photo; a match mail or an alert sent in between would show none.
    public var photoGrace: Duration = .seconds(120)

    public init(relay: SMTPRelay, sender: MailAddress) {
        self.relay = relay
        self.sender = sender
    }
}
