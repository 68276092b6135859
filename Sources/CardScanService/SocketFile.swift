import FileAccess
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The socket's file: checked before binding (only a stale socket is ever replaced), given its
/// mode, and removed on exit only while it is still the one this service created.
struct SocketFile: Sendable {
    let path: String
    /// The file's identity once bound (device and inode), so exit never removes a file put there since.
    private(set) var identity: (device: UInt64, inode: UInt64)?

    init(path: String) { self.path = path }

    /// The longest path bound: SwiftNIO refuses more than 103 bytes (`sun_path` holds 108 with
    /// its NUL; paths of 104-107 bytes always failed, after the engines had loaded).
    static let maxPathBytes = 103

    /// A system error met on the way to listening, with what to do about it.
    static func explain(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        switch code {
        case ENOENT: return "\(text): the folder does not exist; create it first"
        case ENOTDIR: return "\(text): a part of the path is not a folder"
        case EACCES, EPERM, EROFS: return "\(text): choose a folder this user may create files in"
        default: return text
        }
    }

    /// The refusal of a path over `maxPathBytes`.
    static func tooLong(_ path: String) -> String {
        "\(path): a socket path holds at most \(maxPathBytes) bytes (this one has \(path.utf8.count)); choose a shorter one"
    }

    /// Makes the path free to bind: nothing there, or a socket nobody listens on (removed).
    /// - Throws: `ServiceError` when the path is too long, is not a socket, or is in use.
    func clearStale() throws(ServiceError) {
        guard path.utf8.count <= Self.maxPathBytes else {
            throw ServiceError(.socketFailed, Self.tooLong(path))
        }
        var status = stat()
        guard lstat(path, &status) == 0 else {
            if errno == ENOENT { return }
            throw ServiceError(.socketFailed, "\(path): \(Self.explain(errno))")
        }
        guard (status.st_mode & S_IFMT) == S_IFSOCK else {
            throw ServiceError(.notASocket, "\(path): exists and is not a socket; cardscan serve never replaces it (choose another path)")
        }
        if Self.someoneListens(at: path) {
            throw ServiceError(.socketInUse, "\(path): another service is listening on this socket; stop it or choose another path")
        }
        guard unlink(path) == 0 || errno == ENOENT else {
            throw ServiceError(.socketFailed, "\(path): the stale socket could not be removed: \(String(cString: strerror(errno)))")
        }
    }

    /// True when a connection to the socket at `path` is accepted.
    static func someoneListens(at path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM_VALUE), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
        }
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        return rc == 0 || errno == EAGAIN
    }

    /// Gives the bound socket `mode` and remembers which file it is.
    mutating func adopt(mode: mode_t) throws(ServiceError) {
        guard chmod(path, mode) == 0 else {
            throw ServiceError(.socketFailed, "\(path): could not set the socket's mode: \(String(cString: strerror(errno)))")
        }
        var status = stat()
        guard lstat(path, &status) == 0 else {
            throw ServiceError(.socketFailed, "\(path): the bound socket is gone: \(String(cString: strerror(errno)))")
        }
        identity = (UInt64(status.st_dev), UInt64(status.st_ino))
    }

    /// Removes the socket file when it is still the one bound by this service.
    func remove() {
        guard let identity else { return }
        var status = stat()
        guard lstat(path, &status) == 0, UInt64(status.st_dev) == identity.device,
              UInt64(status.st_ino) == identity.inode else { return }
        unlink(path)
    }
}

#if canImport(Glibc)
private let SOCK_STREAM_VALUE = SOCK_STREAM.rawValue
#else
private let SOCK_STREAM_VALUE = SOCK_STREAM
#endif
