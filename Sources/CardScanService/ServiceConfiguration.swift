import CardScan
import Foundation

/// How `ScanService` listens and works.
public struct ServiceConfiguration: Sendable {
    /// The Unix socket's path (at most `maxSocketPathBytes` bytes).
    public var socketPath: String
    /// The longest socket path the service binds, in bytes.
    public static let maxSocketPathBytes = SocketFile.maxPathBytes
    /// The socket file's mode (0600 by default: only this user may connect).
    public var socketMode: UInt32 = 0o600
    /// Requests waiting beyond those being worked on; when full, the answer is 503 with Retry-After.
    public var queueCapacity: Int
    /// Longest time from a request's last byte to its answer; then 503 (code "timeout").
    public var requestTimeout: Duration = .seconds(60)
    /// Longest pause while a request is sent; then the connection is closed.
    public var idleTimeout: Duration = .seconds(30)
    /// From a request's first byte: the time it may take to arrive, plus its bytes' time at
    /// `minimumUploadRate`; a slower client (slowloris) is answered 408 and disconnected.
    public var readTimeout: Duration = .seconds(20)
    /// The slowest upload kept, past `readTimeout`, in bytes a second.
    public var minimumUploadRate = 64 << 10
    /// The most connections held at once (nil: the descriptor limit, RLIMIT_NOFILE, less 32); at
    /// the limit a new connection replaces the idlest one (no work in flight).
    public var maxConnections: Int?
    /// When set, only peers with these user IDs (checked with SO_PEERCRED) are served.
    public var allowedUIDs: Set<UInt32>?
    /// Different `lang` sets kept loaded at once (each has its own engines, ~30 MB each).
    public var maxLanguageSets = 4
    /// Request bodies held at once, over all connections (being received, queued or being scanned);
    /// a body that would pass it is answered 503. Nil: 512 MiB, or one largest body when that is more.
    public var maxHeldBodyBytes: Int?
    /// The pipeline's configuration: workers, languages, limits, region (as `cardscan scan`).
    public var scan: ScanConfiguration

    public init(socketPath: String, scan: ScanConfiguration = ScanConfiguration()) {
        self.socketPath = socketPath
        self.scan = scan
        queueCapacity = 4 * max(1, scan.workers)
    }

    /// The largest body accepted: the scan's byte limit.
    public var maxBodyBytes: Int { scan.limits.maxBytes }

    /// The bound on all bodies held at once.
    public var heldBodyBytes: Int { maxHeldBodyBytes ?? max(maxBodyBytes, 512 << 20) }
}
