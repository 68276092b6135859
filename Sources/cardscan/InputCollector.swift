import CardScan
import FileAccess
import ImageIngest
import Foundation

/// Where `scan` takes its inputs from: paths (files, folders walked in sorted order), standard
/// input as one image or a stream of images, and lists of paths (`--files-from`). Produced lazily:
/// a folder of 100,000 photos or an endless camera stream is never held in memory at once.
/// Every read is bounded, and reads of standard input give way to an interrupt.
struct InputPlan {
    var paths: [String]
    var stream: Bool
    var filesFrom: String?
    var nulSeparated: Bool
    var maxBytes: Int
    /// The largest image a stream's assembler holds: no more than decoding may take, since its
    /// bytes are held while it is decoded (`--max-decode-megabytes`).
    var maxStreamImageBytes: Int
    var followLinks: Bool
    /// True once an interrupt asked to stop: blocked reads of standard input end.
    var shouldStop: @Sendable () -> Bool

    /// The largest list of paths read (--files-from).
    static let maxListBytes = 64 << 20

    /// The inputs in order. Problems found while walking (unreadable folders, FIFOs) come as failure inputs.
    func inputs() -> AnySequence<ScanInput> {
        var sources: [AnySequence<ScanInput>] = []
        for path in paths {
            sources.append(inputs(forPath: path == "-" ? nil : RawArguments.path(path)))
        }
        if let filesFrom {
            sources.append(listed(in: filesFrom))
        }
        return AnySequence(sources.lazy.joined())
    }

    /// The inputs one path gives: standard input (nil), a folder's images, or a named file.
    func inputs(forPath path: FilePathBytes?) -> AnySequence<ScanInput> {
        guard let path else {
            if stream {
                let splitter = ImageStreamSplitter(maxBytes: maxStreamImageBytes) { [shouldStop] n in
                    // An error reading the pipe ends the stream like its end does.
                    (try? SystemFile.readSome(STDIN_FILENO, name: "standard input", count: n, shouldStop: shouldStop)) ?? nil
                }
                return AnySequence {
                    AnyIterator { () -> ScanInput? in
                        switch splitter.next() {
                        case nil: return nil
                        case .image(let bytes)?: return .bytes(bytes, source: "-#\(splitter.position)")
                        case .failure(let error)?:
                            return .failure(ScanError(error), source: error.source)
                        }
                    }
                }
            }
            // One image: held while it is decoded, so bounded by what decoding may take as well.
            return AnySequence(CollectionOfOne(0).lazy.compactMap { [maxStreamImageBytes, shouldStop] _ -> ScanInput? in
                Self.readStandardInput(maxBytes: maxStreamImageBytes, shouldStop: shouldStop)
            })
        }
        if let status = try? SystemFile.status(path), status.kind == .directory {
            let walk = FolderWalk(root: path, followLinks: followLinks, accept: CardScanner.looksLikeImage)
            return AnySequence(walk.lazy.compactMap { item -> ScanInput? in
                switch item {
                case .file(let file): return .path(file)
                case .skipped(let file, let reason):
                    Diagnostics.info("skipped \(file.display): \(reason)")
                    return nil
                case .refused(let error): return .failure(ScanError(error), source: error.path)
                }
            })
        }
        // Named explicitly: scanned whatever it is, so a non-image gets an error record.
        return AnySequence(CollectionOfOne(ScanInput.path(path)))
    }

    /// Standard input as one image; nil when an interrupt ended the read (no record for it).
    static func readStandardInput(maxBytes: Int, shouldStop: @escaping @Sendable () -> Bool) -> ScanInput? {
        do throws(FileError) {
            let bytes = try SystemFile.readAll(STDIN_FILENO, name: "standard input", maxBytes: maxBytes, shouldStop: shouldStop)
            return .bytes(bytes, source: "-")
        } catch where error.code == .interrupted {
            return nil
        } catch {
            let reason = error.code != .tooLarge ? error.reason
                : "is over the limit of \(maxBytes) bytes; raise --max-megabytes (and --max-decode-megabytes: its bytes are held while it is decoded) if it is genuine"
            return .failure(ScanError(FileError(error.code, path: "-", reason: reason)), source: "-")
        }
    }

    /// Paths listed one per line (or NUL-separated) in a file or on standard input, as bytes.
    func listed(in list: String) -> AnySequence<ScanInput> {
        let data: [UInt8]
        do throws(FileError) {
            if list == "-" {
                data = try SystemFile.readAll(STDIN_FILENO, name: "standard input", maxBytes: Self.maxListBytes, shouldStop: shouldStop)
            } else {
                // A list may come through a pipe (--files-from <(find ...)): any readable file.
                let path = RawArguments.path(list)
                let fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC) }
                guard fd >= 0 else { throw FileError.system(errno, path: path.display, doing: "read") }
                defer { close(fd) }
                data = try SystemFile.readAll(fd, name: path.display, maxBytes: Self.maxListBytes, shouldStop: shouldStop)
            }
        } catch {
            let message = "\(error.path): the list of files cannot be read: \(error.reason)"
            return AnySequence(CollectionOfOne(ScanInput.failure(ScanError(.unreadable, message), source: error.path)))
        }
        let separator: UInt8 = nulSeparated ? 0 : 0x0A
        let entries = data.split(separator: separator).map { entry -> ArraySlice<UInt8> in
            nulSeparated || entry.last != 0x0D ? entry : entry.dropLast()
        }.filter { !$0.isEmpty }
        return AnySequence(entries.lazy.flatMap { entry -> AnySequence<ScanInput> in
            entry.elementsEqual("-".utf8) ? AnySequence(CollectionOfOne(ScanInput.failure(
                ScanError(.unreadable, "-: standard input cannot be listed in --files-from; name it on the command line"),
                source: "-")))
                : inputs(forPath: FilePathBytes(bytes: entry))
        })
    }
}
