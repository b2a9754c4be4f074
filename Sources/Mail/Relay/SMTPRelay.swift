import Foundation

/// The operator's mail relay, from `--smtp-url`:
///
/// - `smtp://[USER[:PASSWORD]@]HOST[:PORT]` — port 587 by default; STARTTLS is required (a relay
///   that does not offer it, or whose certificate does not verify, gets nothing);
/// - `smtps://…` — TLS from the first byte, port 465 by default;
/// - `smtp://HOST:PORT?tls=none` — no TLS at all, only to a relay on this machine (`localhost`,
///   `127.0.0.0/8`, `::1`), where the connection never leaves it.
///
/// USER and PASSWORD are percent-decoded; the password may come from a file instead. The
/// description names host, port, user and security, never the password.
public struct SMTPRelay: Sendable, CustomStringConvertible {
    public enum Security: String, Sendable {
        /// Plain connect, then STARTTLS before anything else, required.
        case startTLS = "STARTTLS"
        /// TLS from the first byte (SMTPS).
        case implicitTLS = "TLS"
        /// No TLS (a relay on loopback only).
        case none = "no TLS"
    }

    public let host: String
    public let port: Int
    public let security: Security
    public let username: String?
    /// Never printed, logged or put in an error.
    let password: String?
    /// A PEM file with the CA that signed the relay's certificate, instead of the system's.
    public let caFile: String?

    /// - Parameters:
    ///   - url: the `--smtp-url` value.
    ///   - passwordFile: a file whose first line is the password (`--smtp-password-file`).
    ///   - caFile: `--smtp-ca-file`.
    /// - Throws: ``MailError`` saying what is wrong, never echoing the URL.
    public init(url text: String, passwordFile: String? = nil, caFile: String? = nil) throws(MailError) {
        guard let components = URLComponents(string: text.trimmingASCIIWhitespace()), let scheme = components.scheme?.lowercased() else {
            throw .relayURL("it is not a URL")
        }
        guard scheme == "smtp" || scheme == "smtps" else { throw .relayURL("its scheme must be smtp or smtps, not \(scheme.prefix(10))") }
        guard let host = components.host, !host.isEmpty else { throw .relayURL("it names no host") }
        guard components.path.isEmpty || components.path == "/" else { throw .relayURL("it has a path, which a relay URL does not take") }
        guard components.fragment == nil else { throw .relayURL("it has a #fragment") }
        var security: Security = scheme == "smtps" ? .implicitTLS : .startTLS
        for item in components.queryItems ?? [] {
            switch (item.name, item.value?.lowercased()) {
            case ("tls", "none") where scheme == "smtp": security = .none
            case ("tls", "starttls") where scheme == "smtp": security = .startTLS
            case ("tls", _):
                throw .relayURL("tls= takes none or starttls, with smtp:// (smtps:// is TLS already)")
            default:
                throw .relayURL("it has the query parameter \(item.name.prefix(20)), which is not known (only tls=none or tls=starttls)")
            }
        }
        if security == .none, !Self.isLoopback(host) {
            throw .relayURL("tls=none is allowed only for a relay on this machine (localhost, 127.0.0.1, ::1), and \(host) is not one: "
                            + "without TLS the password and every message would cross the network readable")
        }
        if let port = components.port, !(1...65535).contains(port) { throw .relayURL("its port must be 1 to 65535") }
        self.host = host
        port = components.port ?? (scheme == "smtps" ? 465 : 587)
        self.security = security
        let user = components.user.flatMap { $0.isEmpty ? nil : $0 }
        username = user
        var password = components.password.flatMap { $0.isEmpty ? nil : $0 }
        if let passwordFile {
            guard password == nil else { throw .relayURL("it holds a password and --smtp-password-file gives one too: give it once") }
            password = try Self.readPassword(passwordFile)
        }
        if password != nil, user == nil { throw .relayURL("it gives a password without a user name (smtp://USER@HOST)") }
        self.password = password
        if let caFile {
            guard FileManager.default.isReadableFile(atPath: caFile) else { throw .caFile(path: caFile, reason: "it does not exist or is not readable") }
        }
        self.caFile = caFile
    }

    public var description: String {
        let scheme = security == .implicitTLS ? "smtps" : "smtp"
        let user = username.map { "\($0)@" } ?? ""
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(scheme)://\(user)\(shownHost):\(port) (\(security.rawValue)\(password == nil ? "" : ", password given"))"
    }

    /// Whether a password was given (to say so, never to show it).
    public var hasPassword: Bool { password != nil }

    /// Replaces the password in `text` (an error from below) with `***`, in case anything below
    /// ever repeats it.
    func redacted(_ text: String) -> String {
        guard let password, !password.isEmpty else { return text }
        return text.replacingOccurrences(of: password, with: "***")
    }

    static func isLoopback(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        if bare == "localhost" || bare == "::1" { return true }
        let octets = bare.split(separator: ".")
        return octets.count == 4 && octets.allSatisfy { UInt8($0) != nil } && octets[0] == "127"
    }

    private static func readPassword(_ path: String) throws(MailError) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .passwordFile(path: path, reason: "it does not exist or is not readable")
        }
        let text = String(decoding: data, as: UTF8.self)
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        guard !line.isEmpty else { throw .passwordFile(path: path, reason: "its first line is empty") }
        return line
    }
}
