import CardScan
import Foundation
import Lockdown
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
#if canImport(Glibc)
import Glibc
#endif

/// `cardscan serve`: the pipeline behind HTTP/1.1 on a Unix domain socket, with warm engines.
///
/// `start()` engages the network lockdown, clears a stale socket (never anything else), binds with
/// the configured mode and accepts connections; `shutdown()` stops accepting, lets the work in
/// flight finish and be answered, closes every connection and removes the socket file.
///
/// `@unchecked Sendable` is safe: the mutable state is only touched with `lock` held.
public final class ScanService: @unchecked Sendable {
    public let configuration: ServiceConfiguration
    private let core: ServiceCore
    private let group: MultiThreadedEventLoopGroup
    private let lock = NSCondition()
    private var server: Channel?
    /// The connections open, at most `maxConnections`.
    private let gate: ConnectionGate
    private var socketFile: SocketFile
    private var phase = Phase.created

    private enum Phase { case created, serving, stopping, stopped }

    /// Loads the OCR engines (one per worker) so the first request finds them warm.
    /// - Throws: `ServiceError` (code "engine-failed") when the language data is missing.
    public init(configuration: ServiceConfiguration, logger: Logger = Logger(label: "cardscan.serve")) throws(ServiceError) {
        self.configuration = configuration
        core = try ServiceCore(configuration: configuration, logger: logger)
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        socketFile = SocketFile(path: configuration.socketPath)
        gate = ConnectionGate(limit: configuration.maxConnections ?? ConnectionGate.defaultLimit())
    }

    /// A service released without having served (its start failed, or it was never started) ends
    /// its worker threads and its event loop; one that served did so in `shutdown()`.
    deinit {
        guard phase == .created else { return }
        core.queue.drainAndStop()
        group.shutdownGracefully { _ in }
    }

    /// What the network lockdown is, in words (for `/health` and logs).
    public static var lockdownState: String {
        switch NetworkLockdown.status {
        case .active?: return "active"
        case .unsupported?: return "unsupported"
        case .failed?: return "failed"
        case nil: return "not engaged"
        }
    }

    /// Engages the lockdown, then binds the socket and starts accepting.
    /// - Throws: `ServiceError` when the lockdown fails, the path is taken or not a socket, or binding fails.
    public func start() throws(ServiceError) {
        if case .failed(let reason) = NetworkLockdown.engage() {
            throw ServiceError(.noLockdown, "the network lockdown could not be installed (\(reason)); the service does not open a socket without it")
        }
        try socketFile.clearStale()
        let channel: Channel
        do {
            // The socket file is created with no permission beyond the owner's, then given its mode.
            let previous = umask(0o177)
            defer { umask(previous) }
            channel = try bootstrap().bind(unixDomainSocketPath: configuration.socketPath).wait()
        } catch {
            throw ServiceError(.socketFailed, "\(configuration.socketPath): could not listen: \(Self.reason(error))")
        }
        do {
            try socketFile.adopt(mode: mode_t(configuration.socketMode))
        } catch {
            channel.close(promise: nil)
            throw error
        }
        lock.withLock {
            server = channel
            phase = .serving
        }
        core.logger.info("listening", metadata: ["socket": "\(configuration.socketPath)", "workers": "\(core.queue.workers)",
                                                 "lockdown": "\(Self.lockdownState)"])
    }

    /// Why binding failed, in words a person can act on.
    static func reason(_ error: Error) -> String {
        guard let io = error as? IOError else { return "\(error)" }
        return SocketFile.explain(io.errnoCode)
    }

    private func bootstrap() -> ServerBootstrap {
        let core = core, gate = gate
        let allowed = configuration.allowedUIDs
        let idle = TimeAmount(configuration.idleTimeout)
        let (grace, rate) = (TimeAmount(configuration.readTimeout), configuration.minimumUploadRate)
        return ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Self.acceptBackoff(gate: gate))
                }
            }
            // A client that half-closes after its request (shutdown(SHUT_WR)) still gets the answer.
            .childChannelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { channel in
                guard Self.admit(channel, gate: gate) else { return channel.eventLoop.makeSucceededVoidFuture() }
                return PeerCredentials.isAllowed(channel, allowed: allowed).flatMapThrowing { peerAllowed in
                    let pipeline = channel.pipeline.syncOperations
                    let deadline = RequestDeadline(grace: grace, minimumRate: rate, gate: gate)
                    try pipeline.addHandler(deadline)
                    try pipeline.addHandler(IdleStateHandler(readTimeout: idle))
                    try pipeline.configureHTTPServerPipeline(withPipeliningAssistance: true, withErrorHandling: false)
                    try pipeline.addHandler(ProtocolErrorAnswer())
                    try pipeline.addHandler(ServiceHTTPHandler(core: core, peerAllowed: peerAllowed, deadline: deadline, gate: gate))
                }
            }
    }

    /// accept(2) failing (EMFILE: no descriptor left) is tried again after 50 ms rather than at
    /// once, in a loop that spun at 100% of a core; an idle connection is closed to free one.
    static func acceptBackoff(gate: ConnectionGate) -> AcceptBackoffHandler {
        AcceptBackoffHandler(shouldForwardIOErrorCaught: false) { error in
            if error.errnoCode == EMFILE || error.errnoCode == ENFILE { _ = gate.closeIdlest() }
            return .milliseconds(50)
        }
    }

    /// Counts a new connection in (replacing the idlest at the limit); false when it was refused
    /// (503 `busy`, every connection having work in flight).
    static func admit(_ channel: Channel, gate: ConnectionGate) -> Bool {
        switch gate.admit(channel) {
        case .admitted: break
        case .replacing(let idlest): idlest.close(promise: nil)
        case .refused:
            RawAnswer.close(channel, with: .error(503, "busy", "the service holds as many connections as it may (\(gate.limit)), each with work in flight; try again shortly",
                                                  headers: [("Retry-After", "1")]), reason: "Service Unavailable")
            return false
        }
        channel.closeFuture.whenComplete { _ in gate.remove(channel) }
        return true
    }

    /// Stops accepting, finishes and answers the requests in flight, closes the connections, removes
    /// the socket file and frees the engines. Safe to call more than once and from any thread.
    public func shutdown() {
        let (proceed, server): (Bool, Channel?) = lock.withLock {
            guard phase == .serving || phase == .created else { return (false, nil) }
            phase = .stopping
            return (true, self.server)
        }
        guard proceed else { return }
        core.stopping.set()
        try? server?.close().wait()
        core.queue.drainAndStop()
        // The answers of finished work are on their way; idle connections close now, busy ones after their answer.
        for channel in gate.channels {
            channel.pipeline.fireUserInboundEventTriggered(ServiceStopping())
        }
        gate.waitUntilEmpty(until: Date().addingTimeInterval(10))
        for channel in gate.channels { channel.close(promise: nil) }
        try? group.syncShutdownGracefully()
        socketFile.remove()
        core.releaseEngines()
        core.logger.info("stopped", metadata: ["socket": "\(configuration.socketPath)"])
        lock.withLock {
            phase = .stopped
            lock.broadcast()
        }
    }

    /// Blocks until `shutdown()` has finished.
    public func waitUntilStopped() {
        lock.withLock {
            while phase != .stopped { lock.wait() }
        }
    }
}

/// Sent through each connection's pipeline when the service stops.
struct ServiceStopping {}

/// The peer's user ID, from the kernel (SO_PEERCRED), against `--allow-uid`.
enum PeerCredentials {
    struct Credentials: Sendable {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
    }

    static func isAllowed(_ channel: Channel, allowed: Set<UInt32>?) -> EventLoopFuture<Bool> {
        guard let allowed else { return channel.eventLoop.makeSucceededFuture(true) }
        #if os(Linux)
        guard let provider = channel as? SocketOptionProvider else { return channel.eventLoop.makeSucceededFuture(false) }
        let credentials: EventLoopFuture<Credentials> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
        return credentials.map { allowed.contains($0.uid) }.recover { _ in false }
        #else
        return channel.eventLoop.makeSucceededFuture(false)
        #endif
    }
}
