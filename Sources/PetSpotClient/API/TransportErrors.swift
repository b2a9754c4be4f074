import AsyncHTTPClient
import NIOCore
import NIOPosix
#if canImport(Glibc)
import Glibc
#endif

/// Sorts transport failures into "offline" (the server was never reached) and "network" (the
/// connection broke or stalled), with a short cause for `--verbose`.
enum TransportErrors {
    /// - Parameter server: the server's URL, named in the cause when the error itself does not say where.
    static func classify(_ error: any Error, server: String) -> SubmissionError {
        switch error {
        case let client as HTTPClientError:
            switch client {
            case .connectTimeout, .getConnectionFromPoolTimeout:
                return .offline("connect timed out")
            case .readTimeout:
                return .network("no answer within the read timeout")
            case .remoteConnectionClosed:
                return .network("the server closed the connection")
            case .deadlineExceeded:
                return .network("the request took too long")
            default:
                return .network(String(describing: client))
            }
        case let connect as NIOConnectionError:
            // "127.0.0.1:9: connection refused", not NIO's "connection reset (error set): …".
            let reason = connect.connectionErrors.first.map { readable($0.error) } ?? "no address to connect to"
            return .offline("\(connect.host):\(connect.port): \(reason)")
        case let io as IOError where [ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, ECONNRESET].contains(io.errnoCode):
            return io.errnoCode == ECONNRESET ? .network("connection reset") : .offline("\(server): \(readable(io))")
        case is ChannelError:
            return .network(String(describing: error))
        default:
            let text = readable(error)
            // TLS spoken to a server that answers plain HTTP: BoringSSL reads "HTTP/1.1 400" as
            // a record of the wrong version.
            if server.lowercased().hasPrefix("https://"),
               text.contains("WRONG_VERSION_NUMBER") || text.contains("handshakeFailed") {
                let plain = "http://" + server.dropFirst("https://".count)
                return .configuration("The TLS handshake with \(server) failed (\(text.contains("WRONG_VERSION_NUMBER") ? "it does not speak TLS" : "no TLS answer")): "
                    + "is the server plain HTTP? If so, pass --server \(plain) (or set PETSPOT_SERVER).")
            }
            if text.contains("connectionRefused") || text.contains("Connection refused") || text.contains("NXDOMAIN")
                || text.contains("lookup") {
                return .offline(text)
            }
            return .network(text)
        }
    }

    /// An OS error as the system says it, lower-case ("connection refused"); anything else as
    /// it describes itself.
    static func readable(_ error: any Error) -> String {
        guard let io = error as? IOError else { return String(describing: error) }
        let text = String(cString: strerror(io.errnoCode))
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}
