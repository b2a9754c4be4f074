#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Whether two spellings of a server's URL name the same server: "http://localhost:8080" and
/// "http://127.0.0.1:8080/" do, "http://127.0.0.1:8081" does not. A management password kept
/// for one is given to the other only when they are the same.
public enum ServerAddress {
    /// Same scheme, same port (a default one counted), same path, and the same host: by name
    /// (any case), or by one of the addresses both names resolve to.
    public static func same(_ a: String, _ b: String) -> Bool {
        guard let first = URLComponents(string: ClientConfiguration.withoutAPIPath(a)),
              let second = URLComponents(string: ClientConfiguration.withoutAPIPath(b)),
              let scheme = first.scheme?.lowercased(), scheme == second.scheme?.lowercased(),
              let firstHost = first.host?.lowercased(), let secondHost = second.host?.lowercased()
        else { return false }
        let defaultPort = scheme == "https" ? 443 : 80
        guard (first.port ?? defaultPort) == (second.port ?? defaultPort), first.path == second.path else { return false }
        if firstHost == secondHost { return true }
        let addresses = Self.addresses(firstHost)
        return !addresses.isEmpty && !addresses.isDisjoint(with: Self.addresses(secondHost))
    }

    /// The numeric addresses a host name resolves to (from /etc/hosts or DNS), "127.0.0.1", "::1".
    static func addresses(_ host: String) -> Set<String> {
        let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(name, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var found = Set<String>()
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            if getnameinfo(entry.pointee.ai_addr, entry.pointee.ai_addrlen, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0 {
                let bytes = text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
                found.insert(String(decoding: bytes, as: UTF8.self))
            }
            cursor = entry.pointee.ai_next
        }
        return found
    }
}
