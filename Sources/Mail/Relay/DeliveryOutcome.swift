/// What became of one message handed to the relay.
public enum DeliveryOutcome: Sendable, Equatable {
    /// The relay took it (250 after the data).
    case accepted
    /// Not now: a 4xx answer, a relay that cannot be reached or broke the connection, a timeout,
    /// TLS that failed, or a login refused (the operator's to fix, so the mail waits). The text
    /// says which, for the record.
    case deferred(String)
    /// Never: the relay refused this message or its recipient with a 5xx answer.
    case rejected(String)
}
