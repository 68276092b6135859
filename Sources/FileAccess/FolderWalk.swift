#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A folder walked recursively in sorted (byte) order, one listing at a time, names kept as bytes.
///
/// - Hidden entries (a leading dot) are skipped.
/// - Only regular files are offered; a FIFO, socket or device is refused with an error (never
///   opened, so it cannot hang the walk).
/// - Symbolic links: a link to a file inside the folder is followed; a link to a folder, or one
///   that leads out of the folder, is skipped unless `followLinks`. Every folder is entered once
///   (by device and inode), so link cycles end.
/// - `accept` sees a file's first bytes and says whether it is wanted (an image); empty files
///   and unwanted ones are skipped.
public struct FolderWalk: Sequence, IteratorProtocol {
    public enum Item: Sendable, Equatable {
        case file(FilePathBytes)
        /// Left out on purpose, with the reason (for --verbose).
        case skipped(FilePathBytes, reason: String)
        /// Could not be read or is not a regular file.
        case refused(FileError)
    }

    private let followLinks: Bool
    private let accept: ([UInt8]) -> Bool
    private let headLength: Int
    private var pending: [FilePathBytes] = []         // paths still to visit, in reverse order
    private var visited = Set<[UInt64]>()               // (device, inode) of folders entered
    private var rootReal: FilePathBytes?
    private var started = false
    private var reports: [Item] = []                    // skipped hidden entries, reported first
    private let root: FilePathBytes

    public init(root: FilePathBytes, followLinks: Bool = false, headLength: Int = 32, accept: @escaping ([UInt8]) -> Bool) {
        self.root = root
        self.followLinks = followLinks
        self.accept = accept
        self.headLength = headLength
    }

    public mutating func next() -> Item? {
        if !started {
            started = true
            do {
                rootReal = try SystemFile.realPath(root)
                let status = try SystemFile.status(root)
                visited.insert([status.device, status.inode])
                if let failure = list(root) { return failure }
            } catch {
                return .refused(error)
            }
        }
        while true {
            if !reports.isEmpty { return reports.removeFirst() }
            guard let path = pending.popLast() else { break }
            if let item = visit(path) { return item }
        }
        return nil
    }

    /// One entry: a file to offer, something to report, or nil when it was a folder now listed.
    private mutating func visit(_ path: FilePathBytes) -> Item? {
        let own: SystemFile.Status
        do {
            own = try SystemFile.status(path, followLinks: false)
        } catch {
            return .refused(error)
        }
        var status = own
        if own.kind == .symlink {
            do {
                status = try SystemFile.status(path)
            } catch where error.code == .notFound {
                return .skipped(path, reason: "a broken symbolic link")
            } catch {
                return .refused(error)
            }
            if status.kind == .directory && !followLinks {
                return .skipped(path, reason: "a link to a folder (--follow-links follows it)")
            }
            if status.kind != .directory && !followLinks && !leadsInside(path) {
                return .skipped(path, reason: "a link that leads out of the folder (--follow-links follows it)")
            }
        }
        switch status.kind {
        case .directory:
            guard visited.insert([status.device, status.inode]).inserted else {
                return .skipped(path, reason: "a folder already walked (a link cycle)")
            }
            return list(path)
        case .regular:
            guard status.size > 0 else { return .skipped(path, reason: "an empty file") }
            do {
                let head = try SystemFile.readHead(path, count: headLength)
                return accept(head) ? .file(path) : .skipped(path, reason: "not an image")
            } catch {
                return .refused(error)
            }
        default:
            return .refused(FileError(.notRegular, path: path.display,
                                      reason: "is \(status.kind.phrase), not a regular file; it was not read"))
        }
    }

    /// Queues a folder's entries (sorted, hidden ones skipped); an error item when it cannot be listed.
    private mutating func list(_ folder: FilePathBytes) -> Item? {
        guard let dir = folder.withCString({ opendir($0) }) else {
            return .refused(FileError.system(errno, path: folder.display, doing: "read"))
        }
        defer { closedir(dir) }
        var names: [[UInt8]] = []
        errno = 0
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw -> [UInt8] in
                Array(raw.prefix { $0 != 0 })
            }
            if name.first != UInt8(ascii: ".") {
                names.append(name)
            } else if name != [0x2E] && name != [0x2E, 0x2E] {
                reports.append(.skipped(folder.appending(name), reason: "hidden"))
            }
        }
        if errno != 0 { return .refused(FileError.system(errno, path: folder.display, doing: "read")) }
        names.sort { $0.lexicographicallyPrecedes($1) }
        pending.append(contentsOf: names.reversed().map { folder.appending($0) })
        return nil
    }

    /// True when `path` (a link) resolves to a place inside the walked folder.
    private func leadsInside(_ path: FilePathBytes) -> Bool {
        guard let rootReal, let real = try? SystemFile.realPath(path) else { return false }
        let prefix = rootReal.bytes.last == UInt8(ascii: "/") ? rootReal.bytes : rootReal.bytes + [UInt8(ascii: "/")]
        return real.bytes.starts(with: prefix)
    }
}
