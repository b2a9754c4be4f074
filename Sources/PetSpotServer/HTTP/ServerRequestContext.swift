import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTPTypes

/// The request context of every route: Hummingbird's basics plus the peer's socket address,
/// from which ``ClientAddress`` finds the client (throttles, rate limits, log lines), and the
/// connection, for `100 Continue`.
public struct ServerRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The TCP peer: the client, or a proxy in front of it.
    public let remoteAddress: SocketAddress?
    let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
    }
}

/// Contexts that can tell a waiting client to send its body.
protocol ContinueRequestContext: RequestContext {
    /// Sends `100 Continue` when the request asked for it (`Expect: 100-continue`). A route
    /// calls it once it has decided to read the body, so a refused client never sends it.
    func continueIfExpected(_ request: Request) async throws
}

extension ServerRequestContext: ContinueRequestContext {
    func continueIfExpected(_ request: Request) async throws {
        guard request.headers[.expect]?.lowercased() == "100-continue" else { return }
        try await channel.writeAndFlush(HTTPResponsePart.head(HTTPResponse(status: .continue))).get()
    }
}
