import NIOCore
import NIOHTTP1

/// Answers what is not HTTP/1.1 (a malformed request line or header, a body cut off by the end of
/// the input) with the JSON refusal every other refusal has, 400 `bad-request`, then lets the
/// connection close. NIO's own `HTTPServerProtocolErrorHandler` answered with an empty body.
/// It sits where that handler would, after the pipelining handler, and sees every response part
/// so it never starts an answer in the middle of another.
final class ProtocolErrorAnswer: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private var answering = false

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        guard error is HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        if !answering {
            let answer = ServiceAnswer.error(400, "bad-request", "the request is not valid HTTP/1.1; the connection is closed")
            var headers = HTTPHeaders([("Content-Type", answer.contentType), ("Content-Length", String(answer.body.count))])
            headers.add(name: "Connection", value: "close")
            headers.add(name: "Cache-Control", value: "no-store")
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .badRequest, headers: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: answer.body)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
        // The decoder closes the connection once this returns.
        context.fireErrorCaught(error)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head) where head.status.code < 200: break
        case .head: answering = true
        case .body: break
        case .end: answering = false
        }
        context.write(data, promise: promise)
    }
}
