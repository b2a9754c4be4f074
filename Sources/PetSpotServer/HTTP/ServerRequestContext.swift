import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTPTypes

/// The request context of every route: Hummingbird's basics, the peer's socket address and
/// the client it stands for, and the connection, for `100 Continue`.
public struct ServerRequestContext: ClientRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The TCP peer: the client, or a proxy in front of it.
    public let remoteAddress: SocketAddress?
    public var client = "unknown"
    let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
    }
}

/// Contexts that know who sent the request: ``RequestBoundaryMiddleware`` resolves it once
/// with ``ClientAddress`` (the peer, or `X-Forwarded-For` from a trusted proxy), and the
/// throttles, rate limits and log lines all use that one answer.
public protocol ClientRequestContext: RequestContext, RemoteAddressRequestContext {
    var client: String { get set }
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
