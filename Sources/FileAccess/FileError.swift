#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What went wrong reading, writing or walking a file: the path (as printed: escaped), a code
/// scripts can test, and a reason a person can act on. Never carries the file's contents.
public struct FileError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        case notFound = "not-found"
        case permission = "permission"
        case notRegular = "not-regular"
        case isDirectory = "is-directory"
        case linkLoop = "link-loop"
        case tooLarge = "too-large"
        case exists = "exists"
        case readFailed = "read-failed"
        case writeFailed = "write-failed"
        case interrupted = "interrupted"
    }

    public let code: Code
    /// The path as printed (invalid UTF-8 and control characters escaped).
    public let path: String
    public let reason: String
    /// The errno behind it, when there is one.
    public let errno: Int32?

    public init(_ code: Code, path: String, reason: String, errno: Int32? = nil) {
        self.code = code
        self.path = path
        self.reason = reason
        self.errno = errno
    }

    public var description: String { "\(path): \(reason)" }

    /// An error for a failed system call, worded for what was being done ("read", "write" ...).
    public static func system(_ err: Int32, path: String, doing: String) -> FileError {
        switch err {
        case ENOENT: return FileError(.notFound, path: path, reason: "no such file or folder; check the path", errno: err)
        case EACCES, EPERM:
            return FileError(.permission, path: path, reason: "permission denied; check its permissions", errno: err)
        case ELOOP:
            return FileError(.linkLoop, path: path, reason: "too many levels of symbolic links (a link that leads to itself)", errno: err)
        case EISDIR: return FileError(.isDirectory, path: path, reason: "is a folder, not a file", errno: err)
        case ENOSPC: return FileError(doing == "read" ? .readFailed : .writeFailed, path: path,
                                      reason: "no space left on the device; free some space and run again", errno: err)
        case EFBIG: return FileError(.writeFailed, path: path, reason: "the file has grown over the allowed size (EFBIG)", errno: err)
        default:
            let reason = String(cString: strerror(err))
            return FileError(doing == "read" ? .readFailed : .writeFailed, path: path,
                             reason: "cannot \(doing) (\(reason))", errno: err)
        }
    }
}
