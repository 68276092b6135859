#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes files so that a crash never leaves a half-written one: a temporary file in the same
/// folder, flushed to disk, then renamed over the target (or, with `replace` false, linked to
/// it, which fails rather than replace a file that is there).
public enum AtomicFile {
    /// Writes `bytes` to `path` atomically. With `permissionsFrom`, the new file gets that file's
    /// mode; else `mode`. With `replace` false an existing `path` is left alone and the error's
    /// code is `.exists`. A `path` that is a symbolic link is written through: the file it
    /// leads to is replaced, the link stays.
    /// - Throws: `FileError` naming the path; nothing is changed when it throws.
    public static func write(_ bytes: some ContiguousBytes, to target: FilePathBytes, permissionsFrom original: FilePathBytes? = nil,
                             mode defaultMode: mode_t = 0o644, replace: Bool = true) throws(FileError) {
        var path = target
        if let status = try? SystemFile.status(target, followLinks: false), status.kind == .symlink {
            path = try SystemFile.realPath(target)
        }
        if replace, let status = try? SystemFile.status(path), status.kind != .regular {
            throw FileError(.notRegular, path: path.display, reason: "is \(status.kind.phrase); only a regular file is replaced")
        }
        let dir = path.parent
        var mode = defaultMode
        if let original, let status = try? SystemFile.status(original) { mode = mode_t(status.mode & 0o7777) }
        let temp = dir.appending(Array(".".utf8) + path.lastComponent
                                 + Array(".cardscan-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp".utf8))
        let fd = temp.withCString { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode) }
        guard fd >= 0 else {
            let e = FileError.system(errno, path: path.display, doing: "write")
            throw FileError(e.code, path: e.path, reason: "cannot create a file beside it: " + e.reason, errno: e.errno)
        }
        do {
            try SystemFile.writeAll(fd, bytes, name: path.display)
            try SystemFile.sync(fd, name: path.display)
            // The mode asked for, whatever the umask made of it.
            _ = fchmod(fd, mode)
        } catch {
            close(fd)
            _ = temp.withCString { unlink($0) }
            throw FileError(error.code, path: error.path, reason: error.reason + "; nothing was changed", errno: error.errno)
        }
        close(fd)
        if replace {
            do {
                try SystemFile.rename(temp, to: path)
            } catch {
                _ = temp.withCString { unlink($0) }
                throw error
            }
        } else {
            let rc = temp.withCString { t in path.withCString { link(t, $0) } }
            let err = errno
            _ = temp.withCString { unlink($0) }
            if rc != 0 {
                if err == EEXIST { throw FileError(.exists, path: path.display, reason: "already exists; it was left as it is", errno: err) }
                throw FileError.system(err, path: path.display, doing: "write")
            }
        }
        SystemFile.syncFolder(dir)
    }
}
