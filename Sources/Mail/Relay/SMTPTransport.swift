import Dispatch

/// Sends messages to the relay from a thread of its own, one at a time, so a slow or dead
/// relay (up to libcurl's 60 s per message) never holds an event loop or a task's thread.
/// Messages go over one kept-open connection while they come one after another.
public final class SMTPTransport: Sendable {
    public let relay: SMTPRelay
    private let queue = DispatchQueue(label: "petspot.smtp")
    private let session: SessionBox

    /// - Parameter heloDomain: the name given in `EHLO` (the `--mail-from` domain).
    public init(relay: SMTPRelay, heloDomain: String) throws(MailError) {
        self.relay = relay
        session = SessionBox(try CurlSMTPSession(relay: relay, heloDomain: heloDomain))
    }

    /// Sends `message` from `sender` to `recipient` and says what became of it.
    public func send(_ message: [UInt8], from sender: MailAddress, to recipient: MailAddress) async -> DeliveryOutcome {
        await withCheckedContinuation { continuation in
            queue.async { [session] in
                continuation.resume(returning: session.value.send(message, from: sender, to: recipient))
            }
        }
    }
}

/// The session, touched only on the transport's serial queue.
private final class SessionBox: @unchecked Sendable {
    let value: CurlSMTPSession

    init(_ value: CurlSMTPSession) {
        self.value = value
    }
}
