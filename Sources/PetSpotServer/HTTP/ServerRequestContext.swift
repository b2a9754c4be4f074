import Hummingbird
import NIOCore

/// The request context of every route: Hummingbird's basics plus the peer's socket address,
/// from which ``ClientAddress`` finds the client (throttles, rate limits, log lines).
public struct ServerRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The TCP peer: the client, or a proxy in front of it.
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
