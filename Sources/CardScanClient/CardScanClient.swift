import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A client of `cardscan serve`: HTTP/1.1 over its Unix socket, one connection per request.
///
/// ```swift
/// let client = CardScanClient(socketPath: "/run/user/1000/cardscan.sock")
/// let answer = try await client.scan(imageBytes, region: "DE")
/// ```
public struct CardScanClient: Sendable {
    public let socketPath: String
    /// Longest wait for a whole answer.
    public var timeout: Duration

    public init(socketPath: String, timeout: Duration = .seconds(120)) {
        self.socketPath = socketPath
        self.timeout = timeout
    }

    /// An answer: status, headers and body.
    public struct Response: Sendable {
        public var status: Int
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]

        /// The first value of a header (names compared without case).
        public func header(_ name: String) -> String? {
            headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
        }

        /// The body as UTF-8 text.
        public var text: String { String(decoding: body, as: UTF8.self) }

        /// The body parsed as a JSON object (nil when it is not one).
        public var json: [String: Any]? {
            (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
        }
    }

    /// Why a request got no answer.
    public struct ClientError: Error, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// `POST /scan`: the record of one photo (`format` "json" or "vcard").
    public func scan(_ image: [UInt8], region: String? = nil, lang: String? = nil, format: String? = nil,
                     name: String? = nil) async throws -> Response {
        try await send("POST", "/scan" + Self.query([("region", region), ("lang", lang), ("format", format), ("name", name)]), body: image)
    }

    /// `POST /strip`: the photo without its metadata.
    public func strip(_ image: [UInt8], dropOrientation: Bool = false) async throws -> Response {
        try await send("POST", "/strip" + (dropOrientation ? "?orientation=drop" : ""), body: image)
    }

    /// `GET /health`.
    public func health() async throws -> Response { try await send("GET", "/health") }

    /// `GET /metrics`: Prometheus text.
    public func metrics() async throws -> Response { try await send("GET", "/metrics") }

    /// Any request: `method` and `uri` as sent, with `body` when given.
    public func send(_ method: String, _ uri: String, body: [UInt8]? = nil, headers: [(String, String)] = []) async throws -> Response {
        let promise = MultiThreadedEventLoopGroup.singleton.next().makePromise(of: Response.self)
        let collector = ResponseCollector(promise: promise)
        let channel: Channel
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        try channel.pipeline.syncOperations.addHandler(collector)
                    }
                }
                .connect(unixDomainSocketPath: socketPath).get()
        } catch {
            promise.fail(error)
            throw ClientError(message: "\(socketPath): could not connect: \(error)")
        }
        var head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method), uri: uri)
        head.headers.add(name: "Host", value: "localhost")
        head.headers.add(name: "Connection", value: "close")
        if let body { head.headers.add(name: "Content-Length", value: String(body.count)) }
        for (name, value) in headers { head.headers.add(name: name, value: value) }
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        if let body { channel.write(HTTPClientRequestPart.body(.byteBuffer(channel.allocator.buffer(bytes: body))), promise: nil) }
        // A write that fails (the service answered early and closed) still lets its answer be read.
        channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
        let limit = timeout
        let deadline = channel.eventLoop.scheduleTask(in: TimeAmount(limit)) {
            promise.fail(ClientError(message: "\(socketPath): no answer within \(limit)"))
            channel.close(promise: nil)
        }
        defer { deadline.cancel() }
        let response = try await promise.futureResult.get()
        try? await channel.close()
        return response
    }

    static func query(_ pairs: [(String, String?)]) -> String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        let parts = pairs.compactMap { name, value in
            value.map { "\(name)=\($0.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }
        }
        return parts.isEmpty ? "" : "?" + parts.joined(separator: "&")
    }
}

/// Gathers one response and fulfils the promise; a connection closed before the end fails it.
final class ResponseCollector: ChannelInboundHandler, Sendable {
    typealias InboundIn = HTTPClientResponsePart
    private let promise: EventLoopPromise<CardScanClient.Response>
    private let state = NIOLockedResponse()

    init(promise: EventLoopPromise<CardScanClient.Response>) { self.promise = promise }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            state.begin(status: Int(head.status.code), headers: head.headers.map { ($0.name, $0.value) })
        case .body(let buffer):
            state.append(Array(buffer.readableBytesView))
        case .end:
            if let response = state.finish() { promise.succeed(response) }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        promise.fail(CardScanClient.ClientError(message: "the service closed the connection before answering"))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        promise.fail(CardScanClient.ClientError(message: "the connection failed: \(error)"))
        context.close(promise: nil)
    }
}

/// The response being read (touched on the channel's event loop only; locked to be Sendable).
final class NIOLockedResponse: @unchecked Sendable {
    private let lock = NSLock()
    private var response: CardScanClient.Response?

    func begin(status: Int, headers: [(String, String)]) {
        lock.withLock { response = CardScanClient.Response(status: status, headers: headers.map { (name: $0.0, value: $0.1) }, body: []) }
    }

    func append(_ bytes: [UInt8]) { lock.withLock { response?.body += bytes } }

    func finish() -> CardScanClient.Response? { lock.withLock { response } }
}
