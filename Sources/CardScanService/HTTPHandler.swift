import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// One connection: reads each request (the body bounded as it arrives), routes it, hands scans
/// and strips to the work queue, and writes the answer. Runs on the connection's event loop.
final class ServiceHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let core: ServiceCore
    private let peerAllowed: Bool
    private let clock = ContinuousClock()
    private var head: HTTPRequestHead?
    /// The request's path (its URI without the query).
    private var path = ""
    private var body = ByteBuffer()
    /// Bytes of this request's body reserved in the service's budget (released with the answer).
    private var held = 0
    /// The request was answered before its body ended (too large): the rest is dropped, then the connection closed.
    private var answeredEarly = false
    /// The request being worked on: its number, its place in the queue, its time limit.
    private var request = 0
    private var answered = true
    /// Set from queueing a request's work to its answer (the connection is then not idle).
    private var ticket: WorkQueue.Ticket?
    private var deadline: Scheduled<Void>?
    private var started: ContinuousClock.Instant?
    /// The client will send nothing more: close once the request in flight is answered.
    private var inputClosed = false

    /// The slowloris cut-off, told when a request has been read.
    private let readDeadline: RequestDeadline
    private let gate: ConnectionGate

    init(core: ServiceCore, peerAllowed: Bool, deadline: RequestDeadline, gate: ConnectionGate) {
        self.core = core
        self.peerAllowed = peerAllowed
        readDeadline = deadline
        self.gate = gate
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            begin(head, context: context)
        case .body(var chunk):
            guard !answeredEarly else { return }
            guard body.readableBytes + chunk.readableBytes <= core.configuration.maxBodyBytes else {
                refuseTooLarge(context: context)
                return
            }
            guard core.bodies.reserve(chunk.readableBytes) else {
                refuseBusyUploads(context: context)
                return
            }
            held += chunk.readableBytes
            body.writeBuffer(&chunk)
        case .end:
            readDeadline.requestRead()
            if answeredEarly {
                answeredEarly = false
                return
            }
            route(context: context)
        }
    }

    private func begin(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        self.head = head
        path = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        body.clear()
        answeredEarly = false
        request += 1
        answered = false
        started = clock.now
        if let length = head.headers.first(name: "content-length").flatMap(Int.init), length > core.configuration.maxBodyBytes {
            refuseTooLarge(context: context)
            return
        }
        // curl and other clients wait (a second, for curl) for "100 Continue" before sending a
        // large body: tell them at once that the body is welcome.
        if peerAllowed, head.headers.first(name: "expect")?.lowercased() == "100-continue" {
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .continue))), promise: nil)
        }
    }

    private func refuseTooLarge(context: ChannelHandlerContext) {
        answeredEarly = true
        body.clear()
        answer(.error(413, "too-large", "the body is over the \(core.configuration.maxBodyBytes)-byte limit (--max-megabytes)"),
               context: context, close: true)
    }

    private func refuseBusyUploads(context: ChannelHandlerContext) {
        answeredEarly = true
        body.clear()
        answer(.error(503, "busy", "the service holds as many uploads as it may (\(core.configuration.heldBodyBytes) bytes); try again shortly",
                      headers: [("Retry-After", "1")]), context: context, close: true)
    }

    private func releaseBody() {
        core.bodies.release(held)
        held = 0
    }

    /// The endpoint's name for the metrics: "scan", "strip", "health", "metrics" or "other".
    private var endpoint: String {
        ["/scan", "/strip", "/health", "/metrics"].contains(path) ? String(path.dropFirst()) : "other"
    }

    private func route(context: ChannelHandlerContext) {
        guard let head else { return }
        guard peerAllowed else {
            answer(.error(403, "forbidden", "this service serves only the user IDs given with --allow-uid"), context: context, close: true)
            return
        }
        let parts = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard let query = RequestQuery(parts.count > 1 ? parts[1] : nil) else {
            answer(.error(400, "bad-request", "the query string is malformed or names an option twice"), context: context)
            return
        }
        let method = head.method
        switch path {
        case "/health" where method == .GET: answer(core.health(), context: context)
        case "/metrics" where method == .GET:
            let load = core.queue.load
            core.metrics.queue(waiting: load.waiting, running: load.running)
            answer(ServiceAnswer(status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8", body: core.metrics.exposition()),
                   context: context)
        case "/scan" where method == .POST, "/strip" where method == .POST:
            guard body.readableBytes > 0 else {
                answer(.error(400, "empty-input", "the request has no body; send the image's bytes"), context: context)
                return
            }
            let bytes = body.readBytes(length: body.readableBytes) ?? []
            body = ByteBuffer()
            let core = core
            if path == "/scan" {
                queue(core.scanWork(query: query), context: context) { core.scan(bytes, $0) }
            } else {
                queue(core.stripWork(query: query), context: context) { core.strip(bytes, $0) }
            }
        case "/health", "/metrics", "/scan", "/strip":
            let allow = path == "/scan" || path == "/strip" ? "POST" : "GET"
            answer(.error(405, "method-not-allowed", "\(path) takes \(allow)", headers: [("Allow", allow)]), context: context)
        default:
            answer(.error(404, "not-found", "no such endpoint; there are POST /scan, POST /strip, GET /health and GET /metrics"),
                   context: context)
        }
    }

    /// Work checked before it is queued: a refusal is answered at once, the rest goes to `enqueue`.
    private func queue<Work: Sendable>(_ checked: Result<Work, AnswerError>, context: ChannelHandlerContext,
                                       _ run: @escaping @Sendable (Work) -> ServiceAnswer) {
        switch checked {
        case .failure(let refusal): answer(.error(refusal.status, refusal.code, refusal.message), context: context)
        case .success(let work): enqueue(context: context) { run(work) }
        }
    }

    /// Queues `work`; its answer is written back on this event loop, unless the request timed out
    /// or the client left meanwhile. A full queue is answered 503 with Retry-After.
    private func enqueue(context: ChannelHandlerContext, _ work: @escaping @Sendable () -> ServiceAnswer) {
        let loop = context.eventLoop
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: loop)
        let number = request
        let submitted = core.queue.submit {
            let result = work()
            loop.execute { bound.value.handler.finished(number, result, context: bound.value.context) }
        }
        guard let submitted else {
            answer(.error(503, "busy", "the queue is full; try again shortly", headers: [("Retry-After", "1")]), context: context)
            return
        }
        ticket = submitted
        gate.setBusy(context.channel, true)
        deadline = loop.scheduleTask(in: TimeAmount(core.configuration.requestTimeout)) {
            bound.value.handler.timedOut(number, context: bound.value.context)
        }
    }

    private func finished(_ number: Int, _ result: ServiceAnswer, context: ChannelHandlerContext) {
        guard number == request, !answered else { return }
        ticket = nil
        answer(result, context: context)
    }

    private func timedOut(_ number: Int, context: ChannelHandlerContext) {
        guard number == request, !answered else { return }
        if let ticket { core.queue.cancel(ticket) }
        ticket = nil
        let seconds = core.configuration.requestTimeout.components.seconds
        answer(.error(503, "timeout", "the request was not finished within \(seconds) s (--timeout)", headers: [("Retry-After", "5")]),
               context: context, close: true)
    }

    /// A client that hangs up: its queued work is dropped (work already running finishes unseen).
    func channelInactive(context: ChannelHandlerContext) {
        if let ticket, core.queue.cancel(ticket) {
            core.logger.debug("client left; its queued request was dropped")
        }
        ticket = nil
        deadline?.cancel()
        answered = true
        releaseBody()
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ServiceStopping {
            if ticket == nil { context.close(promise: nil) }
            return
        }
        // The client half-closed (shutdown(SHUT_WR)) after its request: the answer is still
        // written, then the connection closed. (A client that closes altogether is a hangup,
        // channelInactive: its queued work is dropped.)
        if let event = event as? ChannelEvent, event == .inputClosed {
            inputClosed = true
            if answered { context.close(promise: nil) }
            return
        }
        // Idle while a request is sent (a client that stalls mid-upload) or between requests.
        if event is IdleStateHandler.IdleStateEvent, ticket == nil {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        core.logger.debug("connection error", metadata: ["error": "\(type(of: error))"])
        context.close(promise: nil)
    }

    private func answer(_ answer: ServiceAnswer, context: ChannelHandlerContext, close: Bool = false) {
        guard !answered, let head else { return }
        answered = true
        gate.setBusy(context.channel, false)
        releaseBody()
        deadline?.cancel()
        deadline = nil
        core.metrics.response(endpoint: endpoint, status: answer.status)
        if let started { core.metrics.requestFinished(after: clock.now - started) }
        let keepAlive = head.isKeepAlive && !close && !core.stopping.isSet && !inputClosed
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: answer.contentType)
        headers.add(name: "Content-Length", value: String(answer.body.count))
        headers.add(name: "Cache-Control", value: "no-store")
        for (name, value) in answer.headers { headers.add(name: name, value: value) }
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        let status = HTTPResponseStatus(statusCode: answer.status)
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: answer.body)))), promise: nil)
        let written = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive {
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            written.whenComplete { _ in bound.value.close(promise: nil) }
        }
    }
}
