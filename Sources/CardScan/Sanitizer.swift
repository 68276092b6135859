import Foundation
import ImageIngest
import MetadataStripper

/// Metadata for people and scripts: what a photo carries, and sanitized copies without it.
public enum Sanitizer {
    /// What metadata a file carries; values only when `values` is true.
    public static func inspect(bytes: [UInt8], values: Bool = false) -> MetadataReport {
        MetadataReport.read(bytes, values: values)
    }

    /// The file without its metadata (JPEG and PNG, losslessly).
    /// - Throws: `ScanError` for other formats and for damaged files.
    public static func strip(bytes: [UInt8], source: String, keepOrientation: Bool = true,
                             keepICC: Bool = false) throws(ScanError) -> [UInt8] {
        do {
            return try Stripper.strip(bytes, source: source,
                                      options: StripOptions(keepOrientation: keepOrientation, keepICC: keepICC))
        } catch {
            throw ScanError(code: error.code.rawValue, message: error.description)
        }
    }
}

/// Writes files so that a crash never leaves a half-written one: a temporary file in the same
/// folder, flushed to disk, then renamed over the target (or, with `replace` false, linked to
/// it, which fails rather than replace a file that is there).
public enum AtomicFile {
    /// Writes `bytes` to `path` atomically. With `permissionsFrom`, the new file gets that file's
    /// mode; else `mode`. With `replace` false an existing `path` is left alone and the error's
    /// code is "exists".
    /// - Throws: `ScanError` ("write-failed" or "exists") naming the path.
    public static func write(_ bytes: [UInt8], to path: String, permissionsFrom original: String? = nil,
                             mode defaultMode: mode_t = 0o644, replace: Bool = true) throws(ScanError) {
        let url = URL(fileURLWithPath: path)
        let dir = url.deletingLastPathComponent().path
        let temp = dir + "/." + url.lastPathComponent + ".cardscan-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        var mode = defaultMode
        if let original, let attributes = try? FileManager.default.attributesOfItem(atPath: original),
           let permissions = attributes[.posixPermissions] as? NSNumber {
            mode = mode_t(permissions.uint16Value)
        }
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else {
            throw ScanError(code: "write-failed", message: "\(path): cannot create a file in \(dir) (\(String(cString: strerror(errno))))")
        }
        var ok = bytes.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let n = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 { if errno == EINTR { continue }; return false }
                offset += n
            }
            return true
        }
        if ok { ok = fsync(fd) == 0 }
        var savedErrno = errno
        close(fd)
        if ok {
            if replace {
                ok = rename(temp, path) == 0
            } else {
                ok = link(temp, path) == 0
                savedErrno = errno
                unlink(temp)
                if !ok && savedErrno == EEXIST {
                    throw ScanError(code: "exists", message: "\(path): already exists; it was left as it is")
                }
            }
            if !ok && replace { savedErrno = errno }
        }
        guard ok else {
            let reason = String(cString: strerror(savedErrno))
            unlink(temp)
            throw ScanError(code: "write-failed", message: "\(path): cannot be written (\(reason)); nothing was changed")
        }
        // Make the rename itself durable.
        let dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 { fsync(dfd); close(dfd) }
    }
}
