import AsyncHTTPClient
import NIOCore
import NIOPosix

/// Sorts transport failures into "offline" (the server was never reached) and "network" (the
/// connection broke or stalled), with a short cause for `--verbose`.
enum TransportErrors {
    static func classify(_ error: any Error) -> SubmissionError {
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
            return .offline(connect.connectionErrors.first.map { String(describing: $0.error) } ?? "cannot connect to \(connect.host):\(connect.port)")
        case let io as IOError where [ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, ECONNRESET].contains(io.errnoCode):
            return io.errnoCode == ECONNRESET ? .network("connection reset") : .offline(io.description)
        case is ChannelError:
            return .network(String(describing: error))
        default:
            let text = String(describing: error)
            if text.contains("connectionRefused") || text.contains("Connection refused") || text.contains("NXDOMAIN")
                || text.contains("lookup") {
                return .offline(text)
            }
            return .network(text)
        }
    }
}
