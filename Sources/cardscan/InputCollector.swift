import CardScan
import Foundation

/// Where `scan` takes its inputs from: paths (files, folders walked in sorted order), standard
/// input as one image or a stream of images, and lists of paths (`--files-from`). Produced lazily:
/// a folder of 100,000 photos or an endless camera stream is never held in memory at once.
struct InputPlan {
    var paths: [String]
    var stream: Bool
    var filesFrom: String?
    var nulSeparated: Bool
    var maxBytes: Int

    /// The inputs in order. Problems found while walking (unreadable folders) come as failure inputs.
    func inputs() -> AnySequence<ScanInput> {
        var sources: [AnySequence<ScanInput>] = []
        for path in paths {
            sources.append(Self.inputs(forPath: path, stream: stream, maxBytes: maxBytes))
        }
        if let filesFrom {
            sources.append(Self.listed(in: filesFrom, nulSeparated: nulSeparated, stream: stream, maxBytes: maxBytes))
        }
        return AnySequence(sources.lazy.joined())
    }

    static func inputs(forPath path: String, stream: Bool, maxBytes: Int) -> AnySequence<ScanInput> {
        if path == "-" {
            if stream {
                let splitter = ImageStreamInputs(handle: FileHandle.standardInput, maxBytes: maxBytes)
                return AnySequence { splitter }
            }
            return AnySequence(CollectionOfOne(0).lazy.map { _ -> ScanInput in
                let data = FileHandle.standardInput.readDataToEndOfFile()
                return .bytes([UInt8](data), source: "-")
            })
        }
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue {
            return AnySequence(DirectoryWalk(root: path))
        }
        // Named explicitly: scanned whatever it is, so a non-image gets an error record.
        return AnySequence(CollectionOfOne(ScanInput.file(path)))
    }

    /// Paths listed one per line (or NUL-separated) in a file or on standard input.
    static func listed(in list: String, nulSeparated: Bool, stream: Bool, maxBytes: Int) -> AnySequence<ScanInput> {
        let data: Data
        if list == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else if let d = FileManager.default.contents(atPath: list) {
            data = d
        } else {
            return AnySequence(CollectionOfOne(ScanInput.failure(
                ScanError(code: "unreadable", message: "\(list): the list of files cannot be read; check the path"), source: list)))
        }
        let separator: UInt8 = nulSeparated ? 0 : 0x0A
        let entries = data.split(separator: separator).map { String(decoding: $0, as: UTF8.self) }
            .map { nulSeparated ? $0 : $0.trimmingCharacters(in: CharacterSet(charactersIn: "\r")) }
            .filter { !$0.isEmpty }
        return AnySequence(entries.lazy.flatMap { inputs(forPath: $0, stream: stream, maxBytes: maxBytes) })
    }
}

/// Images cut from a stream on standard input, named "-#1", "-#2", ...
final class ImageStreamInputs: IteratorProtocol {
    private let splitter: ImageStreamSplitterBox

    init(handle: FileHandle, maxBytes: Int) {
        splitter = ImageStreamSplitterBox(handle: handle, maxBytes: maxBytes)
    }

    func next() -> ScanInput? { splitter.next() }
}

/// A folder walked recursively in sorted order, one directory listing at a time. Hidden entries
/// are skipped; files are kept when their first bytes are an image's; symlink loops are survived by
/// remembering each folder's real path.
struct DirectoryWalk: Sequence, IteratorProtocol {
    private var pending: [String]          // paths still to visit, in reverse order
    private var visited = Set<String>()

    init(root: String) { pending = [root] }

    mutating func next() -> ScanInput? {
        while let path = pending.popLast() {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { continue }
            if isDir.boolValue {
                let real = (path as NSString).resolvingSymlinksInPath
                guard visited.insert(real).inserted else { continue }
                let names: [String]
                do {
                    names = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
                } catch {
                    return .failure(ScanError(code: "unreadable", message: "\(path): the folder cannot be read; check its permissions"),
                                    source: path)
                }
                let base = path.hasSuffix("/") ? path : path + "/"
                for hidden in names where hidden.hasPrefix(".") { Diagnostics.info("skipped hidden entry \(base + hidden)") }
                pending.append(contentsOf: names.filter { !$0.hasPrefix(".") }.reversed().map { base + $0 })
                continue
            }
            switch Self.sniff(path) {
            case .image: return .file(path)
            case .notImage:
                Diagnostics.info("skipped \(path): not an image")
                continue
            case .unreadable:
                return .failure(ScanError(code: "unreadable", message: "\(path): cannot be opened for reading; check its permissions"),
                                source: path)
            }
        }
        return nil
    }

    enum Sniff { case image, notImage, unreadable }

    /// Looks at a file's first bytes.
    static func sniff(_ path: String) -> Sniff {
        guard let handle = FileHandle(forReadingAtPath: path) else { return .unreadable }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 32) else { return .unreadable }
        return CardScanner.looksLikeImage([UInt8](head)) ? .image : .notImage
    }
}
