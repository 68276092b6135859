import CSeccomp
import Foundation

/// The no-network guarantee: after `engage()`, this process cannot create any socket but a local
/// (AF_UNIX) one. Enforced by the kernel with a seccomp filter, for every thread, for good.
///
/// On Linux (x86_64 and arm64) the filter makes socket() and socketpair() fail with EACCES for
/// every address family but AF_UNIX, and refuses io_uring (which could open sockets another way).
/// Elsewhere it is a documented no-op: `status` says so.
public enum NetworkLockdown {
    public enum Status: Sendable, Equatable {
        /// The filter is installed: no network socket can be created.
        case active
        /// This platform has no seccomp (or an architecture the filter does not cover).
        case unsupported
        /// The kernel refused the filter; the message says why.
        case failed(String)
    }

    private static let state = LockdownState()

    /// Installs the filter (once; later calls return the first result). Irreversible.
    @discardableResult
    public static func engage() -> Status {
        state.engage()
    }

    /// What `engage()` achieved, or nil when it has not been called.
    public static var status: Status? { state.current }

    /// True when the process runs under a seccomp filter (as /proc/self/status reports).
    public static var filterPresent: Bool { cs_lockdown_filter_present() == 1 }

    /// Tries to create a socket; nil when it worked, else the errno (EACCES under the lockdown).
    public static func trySocket(domain: Int32, type: Int32) -> Int32? {
        let rc = cs_lockdown_try_socket(domain, type)
        return rc == 0 ? nil : rc
    }

    /// True where a second system call ABI shares the process's architecture (x32 on x86_64).
    public static var hasX32: Bool { cs_lockdown_has_x32() == 1 }

    /// Tries to create a socket through the x32 ABI (x86_64 only): nil when it worked, else the
    /// errno (EACCES under the lockdown, whether or not the kernel has x32).
    public static func trySocketThroughX32(domain: Int32, type: Int32) -> Int32? {
        let rc = cs_lockdown_try_socket_x32(domain, type)
        return rc == 0 ? nil : rc
    }
}

/// `@unchecked Sendable` is safe: `result` is only touched with `lock` held.
final class LockdownState: @unchecked Sendable {
    private let lock = NSLock()
    private var result: NetworkLockdown.Status?

    var current: NetworkLockdown.Status? { lock.withLock { result } }

    func engage() -> NetworkLockdown.Status {
        lock.withLock {
            if let result { return result }
            var error: Int32 = 0
            let status: NetworkLockdown.Status
            switch cs_lockdown_engage(&error) {
            case Int32(CS_LOCKDOWN_ACTIVE): status = .active
            case Int32(CS_LOCKDOWN_UNSUPPORTED): status = .unsupported
            default: status = .failed(String(cString: strerror(error)))
            }
            result = status
            return status
        }
    }
}
