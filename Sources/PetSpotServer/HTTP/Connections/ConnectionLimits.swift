import NIOCore

/// How long and how slowly a client may hold a connection, and how many it may hold: what
/// keeps idle, slowloris and stalled clients from tying the server up.
public struct ConnectionLimits: Sendable, Hashable {
    /// From the first byte of a request (or the connection's opening) to the end of its head.
    public var requestHeadTimeout: TimeAmount = .seconds(10)
    /// An idle keep-alive connection is closed after this long.
    public var keepAliveTimeout: TimeAmount = .seconds(15)
    /// A request body must arrive at least this fast (bytes per second), measured over
    /// ``bodyRateWindow`` of time the server spent waiting for it.
    public var minimumBodyRate: Int = 1024
    public var bodyRateWindow: TimeAmount = .seconds(10)
    /// A response the client does not read for this long is cut.
    public var responseStallTimeout: TimeAmount = .seconds(60)
    /// Connections open at once; beyond it new ones wait in the listen queue.
    public var maxConnections: Int = 512
    /// The longest request target (path and query) read, in bytes; longer is 414.
    public var maxURILength: Int = 8 * 1024
    /// The largest request head (all header fields together); larger is 431.
    public var maxHeaderBytes: Int = 32 * 1024
    /// How often the timers are checked.
    var tick: TimeAmount = .milliseconds(250)

    public init() {}
}
