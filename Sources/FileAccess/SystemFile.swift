#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The system calls every reader and writer of cardscan goes through: EINTR retried, every
/// result checked, sizes bounded while reading, errors typed and naming the path.
public enum SystemFile {
    /// What a path is, without following a final symbolic link.
    public enum Kind: Sendable, Equatable {
        case regular, directory, symlink, fifo, socket, characterDevice, blockDevice, other

        init(mode: mode_t) {
            switch mode & S_IFMT {
            case S_IFREG: self = .regular
            case S_IFDIR: self = .directory
            case S_IFLNK: self = .symlink
            case S_IFIFO: self = .fifo
            case S_IFSOCK: self = .socket
            case S_IFCHR: self = .characterDevice
            case S_IFBLK: self = .blockDevice
            default: self = .other
            }
        }

        /// How a refusal names it: "a FIFO (named pipe)", "a device" ...
        public var phrase: String {
            switch self {
            case .regular: return "a file"
            case .directory: return "a folder"
            case .symlink: return "a symbolic link"
            case .fifo: return "a FIFO (named pipe)"
            case .socket: return "a socket"
            case .characterDevice, .blockDevice: return "a device"
            case .other: return "not a regular file"
            }
        }
    }

    /// The identity and kind of a file (following links unless `followLinks` is false).
    public struct Status: Sendable, Equatable {
        public let kind: Kind
        public let device: UInt64
        public let inode: UInt64
        public let size: Int64
        public let mode: UInt32

        init(_ s: stat) {
            kind = Kind(mode: s.st_mode)
            device = UInt64(s.st_dev)
            inode = UInt64(s.st_ino)
            size = Int64(s.st_size)
            mode = UInt32(s.st_mode)
        }

        /// True when both name the same file.
        public func isSameFile(as other: Status) -> Bool { device == other.device && inode == other.inode }
    }

    /// The status of `path`, or the error stat(2) gave.
    public static func status(_ path: FilePathBytes, followLinks: Bool = true) throws(FileError) -> Status {
        var s = stat()
        let rc = path.withCString { followLinks ? stat($0, &s) : lstat($0, &s) }
        guard rc == 0 else { throw FileError.system(errno, path: path.display, doing: "read") }
        return Status(s)
    }

    /// Opens a regular file for reading without ever blocking on it: a FIFO, socket or device is
    /// refused before a byte is read (a FIFO with no writer would otherwise hang the batch), and
    /// before it is opened (opening a device can act on it: a terminal, a tape that rewinds).
    public static func openRegularForReading(_ path: FilePathBytes) throws(FileError) -> Int32 {
        try requireRegular(try status(path).kind, path)
        let fd = path.withCString { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY) }
        guard fd >= 0 else { throw FileError.system(errno, path: path.display, doing: "read") }
        var s = stat()
        guard fstat(fd, &s) == 0 else {
            let err = errno
            close(fd)
            throw FileError.system(err, path: path.display, doing: "read")
        }
        // Checked again on what was opened: the name may have been given to something else since.
        do {
            try requireRegular(Kind(mode: s.st_mode), path)
        } catch {
            close(fd)
            throw error
        }
        // Regular files never block; clear O_NONBLOCK anyway so reads behave plainly.
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        return fd
    }

    /// Refuses what is not a regular file, saying what it is.
    private static func requireRegular(_ kind: Kind, _ path: FilePathBytes) throws(FileError) {
        guard kind != .regular else { return }
        if kind == .directory { throw FileError(.isDirectory, path: path.display, reason: "is a folder, not an image file") }
        throw FileError(.notRegular, path: path.display,
                        reason: "is \(kind.phrase), not a regular file; only image files (and - for standard input) are read")
    }

    /// The whole of a regular file, refused (without reading it all) when over `maxBytes`.
    public static func readRegularFile(_ path: FilePathBytes, maxBytes: Int) throws(FileError) -> [UInt8] {
        let fd = try openRegularForReading(path)
        defer { close(fd) }
        var s = stat()
        let size = fstat(fd, &s) == 0 ? Int(s.st_size) : 0
        return try readAll(fd, name: path.display, maxBytes: maxBytes, shouldStop: nil, expectedSize: size)
    }

    /// The first `count` bytes of a regular file (fewer when it is shorter).
    public static func readHead(_ path: FilePathBytes, count: Int) throws(FileError) -> [UInt8] {
        let fd = try openRegularForReading(path)
        defer { close(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: count)
        while out.count < count, let n = try readOnce(fd, into: &chunk, count: count - out.count, name: path.display, shouldStop: nil),
              n > 0 {
            out += chunk[0..<n]
        }
        return out
    }

    /// Reads `fd` to its end, never holding more than `maxBytes + 1` bytes: over the limit the
    /// read stops and the error says so. With `shouldStop`, the descriptor is polled so a pipe
    /// that stays silent does not keep an interrupt from being honoured (checked 5 times a second).
    ///
    /// The buffer is given its room at once (`expectedSize`, a regular file's size, or else the
    /// limit: address space, of which only what is read becomes memory), so that it never grows
    /// by copying itself into one twice its size (a 200 MB file took 328 MB to read).
    public static func readAll(_ fd: Int32, name: String, maxBytes: Int,
                               shouldStop: (() -> Bool)?, expectedSize: Int? = nil) throws(FileError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(min(expectedSize ?? maxBytes, maxBytes) + 1)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let want = min(chunk.count, maxBytes + 1 - out.count)
            guard let n = try readOnce(fd, into: &chunk, count: want, name: name, shouldStop: shouldStop) else {
                throw FileError(.interrupted, path: name, reason: "reading was interrupted")
            }
            if n == 0 { return out }
            out.append(contentsOf: chunk[0..<n])
            if out.count > maxBytes {
                throw FileError(.tooLarge, path: name,
                                reason: "is over the limit of \(maxBytes) bytes; raise --max-megabytes if it is genuine")
            }
        }
    }

    /// Up to `count` bytes from `fd` (fewer at its end, empty at the end), polling like `readAll`.
    /// Nil when `shouldStop` said stop.
    public static func readSome(_ fd: Int32, name: String, count: Int,
                                shouldStop: @escaping () -> Bool) throws(FileError) -> [UInt8]? {
        var chunk = [UInt8](repeating: 0, count: count)
        guard let n = try readOnce(fd, into: &chunk, count: count, name: name, shouldStop: shouldStop) else { return nil }
        return Array(chunk[0..<n])
    }

    /// One read of up to `count` bytes into `buffer`, after waiting for data when `shouldStop` is
    /// given; EINTR and EAGAIN retried. The byte count (0 at the end); nil when told to stop.
    private static func readOnce(_ fd: Int32, into buffer: inout [UInt8], count: Int, name: String,
                                 shouldStop: (() -> Bool)?) throws(FileError) -> Int? {
        while true {
            if let shouldStop {
                guard try waitReadable(fd, name: name, shouldStop: shouldStop) else { return nil }
            }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, count) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw FileError.system(errno, path: name, doing: "read")
            }
            return n
        }
    }

    /// Waits until `fd` can be read (or is at its end); false when `shouldStop` says stop first.
    static func waitReadable(_ fd: Int32, name: String, shouldStop: () -> Bool) throws(FileError) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            if shouldStop() { return false }
            let rc = poll(&p, 1, 200)
            if rc < 0 {
                if errno == EINTR { continue }
                throw FileError.system(errno, path: name, doing: "read")
            }
            if rc > 0 { return true }
        }
    }

    /// Writes all of `bytes` to `fd`, retrying short writes and EINTR.
    /// - Throws: `FileError` naming `name` (the file, or "standard output").
    public static func writeAll(_ fd: Int32, _ bytes: some ContiguousBytes, name: String) throws(FileError) {
        let failure: Int32? = bytes.withUnsafeBytes { raw -> Int32? in
            var offset = 0
            while offset < raw.count {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    return errno
                }
                if n == 0 { return EIO }
                offset += n
            }
            return nil
        }
        if let failure { throw FileError.system(failure, path: name, doing: "write") }
    }

    /// fsync(2), checked. Descriptors that cannot be synced (pipes, terminals) are not an error.
    public static func sync(_ fd: Int32, name: String) throws(FileError) {
        while fsync(fd) != 0 {
            if errno == EINTR { continue }
            if errno == EINVAL || errno == EROFS { return }
            throw FileError.system(errno, path: name, doing: "write")
        }
    }

    /// rename(2), checked.
    public static func rename(_ from: FilePathBytes, to: FilePathBytes) throws(FileError) {
        let rc = from.withCString { f in to.withCString { t in systemRename(f, t) } }
        guard rc == 0 else { throw FileError.system(errno, path: to.display, doing: "write") }
    }

    /// Makes a rename inside `folder` durable (fsync of the folder); best effort.
    public static func syncFolder(_ folder: FilePathBytes) {
        let dfd = folder.withCString { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        if dfd >= 0 { fsync(dfd); close(dfd) }
    }

    /// The path a file has or would have once created: `realPath` of the file when it exists,
    /// else of its folder with the name appended; the path itself when neither exists. Two
    /// names of one file (a link, `./`, `..`) give the same answer.
    public static func canonicalPath(_ path: FilePathBytes) -> FilePathBytes {
        if let real = try? realPath(path) { return real }
        guard let folder = try? realPath(path.parent) else { return path }
        return folder.appending(path.lastComponent)
    }

    /// The canonical absolute path of an existing file or folder (links resolved).
    public static func realPath(_ path: FilePathBytes) throws(FileError) -> FilePathBytes {
        guard let resolved = path.withCString({ realpath($0, nil) }) else {
            throw FileError.system(errno, path: path.display, doing: "read")
        }
        defer { free(resolved) }
        return FilePathBytes(bytes: UnsafeBufferPointer(start: UnsafeRawPointer(resolved).assumingMemoryBound(to: UInt8.self),
                                                        count: strlen(resolved)))
    }
}

#if canImport(Glibc)
private let systemRename = Glibc.rename
#else
private let systemRename = Darwin.rename
#endif

/// Raw bytes a writer can hand to write(2) without copying.
public protocol ContiguousBytes {
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R
}

extension Array: ContiguousBytes where Element == UInt8 {}
extension ArraySlice: ContiguousBytes where Element == UInt8 {}
