/// What can go wrong in the mail layer before a message reaches a relay: a setting that cannot
/// work, or an address or message that cannot be sent as it is. What a relay answers is a
/// ``DeliveryOutcome``, not an error.
public enum MailError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `--smtp-url` cannot be used; the reason is a clause (the URL itself is never repeated: it
    /// may hold a password).
    case relayURL(String)
    /// The password file cannot be read or is empty.
    case passwordFile(path: String, reason: String)
    /// `--smtp-ca-file` cannot be read.
    case caFile(path: String, reason: String)
    /// `--mail-from` is not an address mail can come from.
    case sender(String)
    /// An address that cannot be put in an SMTP envelope as it is (control characters, spaces,
    /// angle brackets, anything but ASCII).
    case unusableAddress(String)
    /// libcurl could not be set up (out of memory, or built without SMTP).
    case transport(String)

    public var description: String {
        switch self {
        case .relayURL(let reason):
            "The mail relay URL cannot be used: \(reason). Give --smtp-url (or PETSPOT_SMTP_URL) as "
                + "smtp://USER@HOST:587 (STARTTLS), smtps://USER@HOST:465 (TLS from the start), or "
                + "smtp://127.0.0.1:25?tls=none for a relay on this machine without TLS."
        case .passwordFile(let path, let reason):
            "The mail relay's password file \(path) cannot be used: \(reason). Put the password alone on its first line, readable by the server only."
        case .caFile(let path, let reason):
            "The mail relay's CA file \(path) cannot be read: \(reason). Give a PEM file with the certificate that signed the relay's."
        case .sender(let reason):
            "--mail-from cannot be used: \(reason). Give an address such as alerts@pets.example.org, or \"PetSpot <alerts@pets.example.org>\"."
        case .unusableAddress(let reason):
            "This address cannot be written to: \(reason)."
        case .transport(let reason):
            "Mail cannot be sent from this process: \(reason)."
        }
    }
}
