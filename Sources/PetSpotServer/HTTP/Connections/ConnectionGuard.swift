import Foundation
import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import PetSpot

/// One per connection, after the HTTP decoder: enforces ``ConnectionLimits``' timers, answers
/// what never reaches a route (an over-long request line or head, a head that does not arrive,
/// a request the decoder cannot parse) with the contract's JSON error, and closes the
/// connection after any answer that says `Connection: close` instead of reading on.
///
/// Time waiting on the application (a body the route has not asked for yet, a photo being
/// decoded) never counts against the client; only time the server was ready to read does.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let limits: ConnectionLimits
    private let logger: Logger

    private enum Phase {
        /// Between requests, nothing received: closed after the head timeout (before the first
        /// request) or the keep-alive timeout (after one).
        case idle(since: NIODeadline)
        /// Bytes of a head arrived, the head is not complete.
        case readingHead(since: NIODeadline, requestLineDone: Bool)
        /// A request is being served: its body read and/or its response written.
        case serving
    }

    private var phase: Phase = .idle(since: .now())
    private var servedAny = false
    /// A response was started for the request in hand and its `.end` not yet written.
    private var awaitingResponseEnd = false
    private var readingBody = false
    private var readPending = false
    private var bodyBytesInWindow = 0
    private var waitedInWindow = TimeAmount.zero
    private var unwritableSince: NIODeadline?
    private var closeAfterResponse = false
    private var closing = false
    private var timer: Scheduled<Void>?

    init(limits: ConnectionLimits, logger: Logger) {
        self.limits = limits
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // The raw-byte watcher goes in front of the decoder.
        try? context.pipeline.syncOperations.addHandler(ByteArrivalHandler(), position: .first)
        phase = .idle(since: .now())
        schedule(context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        context.fireChannelInactive()
    }

    // MARK: inbound

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let arrived = event as? ByteArrivalHandler.Arrived else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        switch phase {
        case .idle:
            phase = .readingHead(since: .now(), requestLineDone: arrived.endsALine)
        case .readingHead(let since, let done):
            phase = .readingHead(since: since, requestLineDone: done || arrived.endsALine)
        case .serving:
            if readingBody { bodyBytesInWindow += arrived.bytes }
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        readPending = false
        switch unwrapInboundIn(data) {
        case .head(let head):
            if let target = head.path, target.utf8.count > limits.maxURILength {
                refuse(context, status: .uriTooLong, code: .uriTooLong,
                       message: "The request target is \(target.utf8.count) bytes; this server reads at most \(limits.maxURILength).")
                return
            }
            phase = .serving
            awaitingResponseEnd = true
            readingBody = true
            bodyBytesInWindow = 0
            waitedInWindow = .zero
        case .body:
            break
        case .end:
            readingBody = false
            if !awaitingResponseEnd { phase = .idle(since: .now()) }
        }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError, !awaitingResponseEnd, !closing else {
            context.fireErrorCaught(error)
            return
        }
        if parserError == .headerOverflow {
            if case .readingHead(_, requestLineDone: false) = phase {
                refuse(context, status: .uriTooLong, code: .uriTooLong,
                       message: "The request line is longer than this server reads (\(limits.maxURILength) bytes of target). Shorten the URL.")
            } else {
                refuse(context, status: .requestHeaderFieldsTooLarge, code: .headersTooLarge,
                       message: "The request's header fields are larger than this server reads (\(limits.maxHeaderBytes) bytes). Send fewer or shorter headers.")
            }
        } else {
            refuse(context, status: .badRequest, code: .malformedRequest,
                   message: "The request is not valid HTTP/1.1 (\(parserError)).")
        }
    }

    // MARK: outbound

    func read(context: ChannelHandlerContext) {
        // Once the answer is out, nothing more is read: a refused 1 GB body stays with its sender.
        guard !closing else { return }
        readPending = true
        context.read()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head) where head.status.kind != .informational:
            if head.headerFields[.connection]?.lowercased() == "close" { closeAfterResponse = true }
        case .end:
            awaitingResponseEnd = false
            servedAny = true
            if !readingBody { phase = .idle(since: .now()) }
            if closeAfterResponse {
                context.writeAndFlush(data, promise: promise)
                finish(context)
                return
            }
        default:
            break
        }
        context.write(data, promise: promise)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        unwritableSince = context.channel.isWritable ? nil : .now()
        context.fireChannelWritabilityChanged()
    }

    // MARK: timers

    private func schedule(_ context: ChannelHandlerContext) {
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: limits.tick) { [self] in
            check(context)
        }
    }

    private func check(_ context: ChannelHandlerContext) {
        guard !closing, context.channel.isActive else { return }
        let now = NIODeadline.now()
        switch phase {
        case .idle(let since):
            let limit = servedAny ? limits.keepAliveTimeout : limits.requestHeadTimeout
            if now - since > limit {
                logger.debug("closing an idle connection", metadata: ["peer": "\(context.remoteAddress?.ipAddress ?? "?")"])
                context.close(promise: nil)
                return
            }
        case .readingHead(let since, _):
            if now - since > limits.requestHeadTimeout {
                cut(context, reason: "request head not complete after \(limits.requestHeadTimeout.seconds) s")
                refuse(context, status: .requestTimeout, code: .requestTimeout,
                       message: "The request head did not arrive within \(limits.requestHeadTimeout.seconds) seconds.")
                return
            }
        case .serving:
            if readingBody && readPending {
                waitedInWindow = waitedInWindow + limits.tick
                if waitedInWindow >= limits.bodyRateWindow {
                    let floor = Double(limits.minimumBodyRate) * Double(waitedInWindow.nanoseconds) / 1e9
                    if Double(bodyBytesInWindow) < floor {
                        cut(context, reason: "request body slower than \(limits.minimumBodyRate) bytes/s "
                            + "(\(bodyBytesInWindow) bytes in \(waitedInWindow.seconds) s)")
                        context.close(promise: nil)
                        return
                    }
                    bodyBytesInWindow = 0
                    waitedInWindow = .zero
                }
            }
        }
        if let since = unwritableSince, now - since > limits.responseStallTimeout {
            cut(context, reason: "response not read for \(limits.responseStallTimeout.seconds) s")
            context.close(promise: nil)
            return
        }
        schedule(context)
    }

    private func cut(_ context: ChannelHandlerContext, reason: String) {
        logger.notice("closing a connection: \(reason)", metadata: ["client": "\(context.remoteAddress?.ipAddress ?? "unknown")"])
    }

    // MARK: answers of our own

    /// Answers `status` with the contract's error body and closes, when no response is under way.
    private func refuse(_ context: ChannelHandlerContext, status: HTTPResponse.Status, code: APIErrorCode, message: String) {
        guard !awaitingResponseEnd, !closing else {
            context.close(promise: nil)
            return
        }
        let data = (try? PetSpotJSON.encode(APIErrorBody(error: APIError(code: code, message: message)))) ?? Data()
        let body = context.channel.allocator.buffer(bytes: data)
        let head = HTTPResponse(status: status, headerFields: [
            .contentType: "application/json; charset=utf-8", .contentLength: String(body.readableBytes),
            .connection: "close", .xContentTypeOptions: "nosniff",
        ])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        finish(context)
    }

    /// Ends the connection after an answer: the sending side first, so the answer arrives even
    /// when the client is still sending a body we will not read; the rest shortly after.
    private func finish(_ context: ChannelHandlerContext) {
        guard !closing else { return }
        closing = true
        context.close(mode: .output, promise: nil)
        context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(2)) {
            context.close(promise: nil)
        }
    }
}

private extension TimeAmount {
    var seconds: Int { Int(nanoseconds / 1_000_000_000) }
}
