import NIOCore

/// Sits first in a connection's pipeline and tells ``ConnectionGuard`` (further in, after the
/// HTTP decoder) when raw bytes arrive and whether they end a line: the decoder says nothing
/// until a whole request head is in, and the guard needs to know when a request began and
/// whether its request line was complete when a head overflowed (414 or 431).
final class ByteArrivalHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// The event fired ahead of each read.
    struct Arrived {
        var bytes: Int
        var endsALine: Bool
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        let endsALine = buffer.readableBytesView.contains(UInt8(ascii: "\n"))
        context.fireUserInboundEventTriggered(Arrived(bytes: buffer.readableBytes, endsALine: endsALine))
        context.fireChannelRead(data)
    }
}
