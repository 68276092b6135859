import NIOCore

/// Cuts off a client that sends its request too slowly (slowloris: a byte a second in its head or
/// its body, which the idle timeout never cuts off, since the connection is never silent).
///
/// From a request's first byte, the request must have arrived within `grace` plus the time its
/// bytes so far take at `minimumRate`: a byte a second is cut after about `grace`; an upload at
/// `minimumRate` or faster is never cut, however large. Past the deadline the client is answered
/// 408 `timeout` (JSON, as every refusal) and the connection closed. The HTTP handler says when
/// the request's last byte has arrived (`requestRead`); between requests the idle timeout applies.
///
/// It sits first in the pipeline, on the raw bytes, so it sees a request head as it arrives.
final class RequestDeadline: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let grace: TimeAmount
    private let minimumRate: Int
    private let gate: ConnectionGate
    /// The first byte of the request being read; nil between requests.
    private var since: NIODeadline?
    private var received = 0
    private var check: Scheduled<Void>?
    private var context: ChannelHandlerContext?

    init(grace: TimeAmount, minimumRate: Int, gate: ConnectionGate) {
        self.grace = grace
        self.minimumRate = max(1, minimumRate)
        self.gate = gate
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func handlerRemoved(context: ChannelHandlerContext) {
        check?.cancel()
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        gate.touch(context.channel)
        if since == nil {
            let now = NIODeadline.now()
            since = now
            received = 0
            schedule(at: now + grace, context: context)
        }
        received += unwrapInboundIn(data).readableBytes
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        check?.cancel()
        check = nil
        context.fireChannelInactive()
    }

    /// The request's last byte has arrived: no deadline until the next request's first byte.
    func requestRead() {
        since = nil
        check?.cancel()
        check = nil
    }

    private func schedule(at deadline: NIODeadline, context: ChannelHandlerContext) {
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        check = context.eventLoop.scheduleTask(deadline: deadline) { bound.value.due() }
    }

    /// The time the request's bytes so far may have taken.
    private var allowed: TimeAmount {
        grace + .nanoseconds(Int64(Double(received) / Double(minimumRate) * 1e9))
    }

    private func due() {
        guard let since, let context else { return }
        let deadline = since + allowed
        if NIODeadline.now() < deadline {
            schedule(at: deadline, context: context)
            return
        }
        self.since = nil
        let seconds = grace.nanoseconds / 1_000_000_000
        let answer = ServiceAnswer.error(408, "timeout",
                                         "the request did not arrive in time (\(seconds) s, then \(minimumRate >> 10) KB/s at least; --read-timeout)")
        let buffer = context.channel.allocator.buffer(bytes: RawAnswer.bytes(answer, reason: "Request Timeout"))
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(NIOAny(buffer)).whenComplete { _ in bound.value.close(promise: nil) }
    }
}
