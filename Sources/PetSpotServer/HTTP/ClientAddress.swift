import HTTPTypes
import Hummingbird
import NIOCore

/// Who sent a request, as an IP address string: the TCP peer, or — only when the peer is one of
/// the operator's `--trusted-proxy` addresses — the nearest untrusted address in
/// `X-Forwarded-For` (read from the right, as each proxy appends the address it saw). A client
/// cannot pick its own address by sending the header.
public struct ClientAddress: Sendable {
    /// Proxy addresses whose `X-Forwarded-For` is believed (normalised IP strings).
    public let trustedProxies: Set<String>

    public init(trustedProxies: [String] = []) {
        self.trustedProxies = Set(trustedProxies.map(Self.normalise))
    }

    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!

    /// The client's address for `request`, or `"unknown"` without a peer address.
    func resolve(_ request: Request, peer: SocketAddress?) -> String {
        guard let peerIP = peer?.ipAddress.map(Self.normalise) else { return "unknown" }
        guard trustedProxies.contains(peerIP) else { return peerIP }
        let hops = request.headers[values: Self.forwardedFor]
            .flatMap { $0.split(separator: ",") }
            .map { Self.normalise(String($0.trimmingWhitespace())) }
        for hop in hops.reversed() where !trustedProxies.contains(hop) {
            return Self.isPlausibleIP(hop) ? hop : peerIP
        }
        return hops.first.flatMap { Self.isPlausibleIP($0) ? $0 : nil } ?? peerIP
    }

    static let forwardedProto = HTTPField.Name("X-Forwarded-Proto")!

    /// Whether the request reached the proxy in front of the server over HTTPS: a trusted
    /// proxy's `X-Forwarded-Proto` (the last value, the one the nearest proxy set, as nginx's
    /// `proxy_set_header X-Forwarded-Proto $scheme` does) says `https`. The server itself speaks
    /// plain HTTP; anyone else's header is not believed.
    func cameOverHTTPS(_ request: Request, peer: SocketAddress?) -> Bool {
        guard isTrustedProxy(peer) else { return false }
        let values = request.headers[values: Self.forwardedProto].flatMap { $0.split(separator: ",") }
        return values.last.map { $0.trimmingWhitespace().lowercased() == "https" } ?? false
    }

    /// Whether `peer` is one of the trusted proxies.
    func isTrustedProxy(_ peer: SocketAddress?) -> Bool {
        guard !trustedProxies.isEmpty, let ip = peer?.ipAddress.map(Self.normalise) else { return false }
        return trustedProxies.contains(ip)
    }

    /// Lower-case, without IPv6 brackets or a `::ffff:` IPv4 mapping.
    public static func normalise(_ address: String) -> String {
        var text = address.lowercased()
        if text.hasPrefix("[") && text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        if text.hasPrefix("::ffff:") && text.contains(".") { text = String(text.dropFirst(7)) }
        return text
    }

    /// An IPv4 or IPv6 literal, so a forged header cannot put arbitrary text in logs or keys.
    public static func isPlausibleIP(_ text: String) -> Bool {
        guard (2...45).contains(text.utf8.count) else { return false }
        return (try? SocketAddress(ipAddress: text, port: 0)) != nil
    }
}
