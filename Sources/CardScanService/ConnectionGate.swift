import Foundation
import NIOCore
#if canImport(Glibc)
import Glibc
#endif

/// The connections open now, at most `limit` at once so that the process never runs out of file
/// descriptors: with `ulimit -n 1024` and 1,100 idle clients, accept(2) failed with EMFILE, NIO
/// retried at once, and the service spun at 100% of a core without answering `/health`.
///
/// At the limit, a new connection takes the place of the one that has been silent longest among
/// those with no request in the queue or being worked on (an idle client, a slow one); when
/// every connection has work in flight, the new one is refused with 503 `busy`.
///
/// `@unchecked Sendable` is safe: every field is only touched with `condition` locked.
final class ConnectionGate: @unchecked Sendable {
    private struct Entry {
        let channel: Channel
        var lastRead: NIODeadline
        var busy = false
    }

    private let condition = NSCondition()
    private var open: [ObjectIdentifier: Entry] = [:]
    /// The most connections held at once.
    let limit: Int

    init(limit: Int) { self.limit = max(1, limit) }

    /// The connection limit that leaves `reserve` descriptors of the process's limit
    /// (RLIMIT_NOFILE) for everything else (the listening socket, epoll, language data, logs).
    static func defaultLimit(reserve: Int = 32) -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 4096 }
        let current = limit.rlim_cur > UInt64(1 << 20) ? 1 << 20 : Int(limit.rlim_cur)  // RLIM_INFINITY included
        return max(8, current - reserve)
    }

    enum Admission {
        case admitted
        /// Admitted in the place of this connection, which the caller closes.
        case replacing(Channel)
        /// Every connection has work in flight.
        case refused
    }

    /// Counts `channel` in (it is removed when it closes).
    func admit(_ channel: Channel) -> Admission {
        condition.withLock {
            var admission = Admission.admitted
            if open.count >= limit {
                guard let victim = idlest() else { return .refused }
                admission = .replacing(open.removeValue(forKey: victim)!.channel)
            }
            open[ObjectIdentifier(channel)] = Entry(channel: channel, lastRead: .now())
            return admission
        }
    }

    /// The connection silent longest with nothing in flight. Called with `condition` locked.
    private func idlest() -> ObjectIdentifier? {
        open.filter { !$0.value.busy }.min { $0.value.lastRead < $1.value.lastRead }?.key
    }

    /// Closes the idlest connection (accept failed for want of a descriptor); false when none is idle.
    func closeIdlest() -> Bool {
        let victim: Channel? = condition.withLock {
            guard let id = idlest() else { return nil }
            return open.removeValue(forKey: id)?.channel
        }
        victim?.close(promise: nil)
        return victim != nil
    }

    /// Bytes arrived on `channel`.
    func touch(_ channel: Channel) {
        condition.withLock { open[ObjectIdentifier(channel)]?.lastRead = .now() }
    }

    /// Work for `channel` is queued or running (true) or answered (false).
    func setBusy(_ channel: Channel, _ busy: Bool) {
        condition.withLock { open[ObjectIdentifier(channel)]?.busy = busy }
    }

    func remove(_ channel: Channel) {
        condition.withLock {
            open[ObjectIdentifier(channel)] = nil
            condition.broadcast()
        }
    }

    /// The connections open now.
    var channels: [Channel] { condition.withLock { open.values.map(\.channel) } }

    /// Waits until every connection has closed, or `limit` has passed.
    func waitUntilEmpty(until limit: Date) {
        condition.withLock {
            while !open.isEmpty && condition.wait(until: limit) {}
        }
    }
}

/// An answer written as raw bytes before the HTTP handlers (by handlers that sit in front of them,
/// or to a connection refused as it opens), then the connection closed.
enum RawAnswer {
    static func bytes(_ answer: ServiceAnswer, reason: String) -> [UInt8] {
        var head = "HTTP/1.1 \(answer.status) \(reason)\r\nContent-Type: \(answer.contentType)\r\n"
        head += "Content-Length: \(answer.body.count)\r\nCache-Control: no-store\r\n"
        for (name, value) in answer.headers { head += "\(name): \(value)\r\n" }
        head += "Connection: close\r\n\r\n"
        return Array(head.utf8) + answer.body
    }

    /// Writes `answer` on `channel`, then closes it.
    static func close(_ channel: Channel, with answer: ServiceAnswer, reason: String) {
        let buffer = channel.allocator.buffer(bytes: bytes(answer, reason: reason))
        channel.writeAndFlush(buffer).whenComplete { _ in channel.close(promise: nil) }
    }
}
