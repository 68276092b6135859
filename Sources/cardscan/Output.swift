import CardScan
import Foundation

/// Where records go: standard output, or a file written as FILE.partial while the scan runs and
/// renamed to FILE when it completes (so FILE is never half-written, and an interrupted run
/// leaves FILE.partial with complete records only).
final class RecordSink {
    private var exporter: RecordExporter
    private let fd: Int32
    let path: String?
    var partialPath: String? { path.map { $0 + ".partial" } }

    /// - Parameter carryOver: records of an earlier run (--resume) written first, as they were.
    init(format: ExportFormat, path: String?, carryOver: [String] = []) throws(ScanError) {
        exporter = RecordExporter(format: format)
        self.path = path
        if let path {
            let partial = path + ".partial"
            let fd = open(partial + ".new", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                throw ScanError(code: "write-failed", message: "\(partial): cannot be created (\(String(cString: strerror(errno))))")
            }
            self.fd = fd
            // The carried-over records go into a new partial file which then replaces the old one,
            // so the earlier run's records are never lost to a failed write.
            Self.writeAll(fd, exporter.header())
            for line in carryOver { Self.writeAll(fd, line + "\n") }
            fsync(fd)
            guard rename(partial + ".new", partial) == 0 else {
                close(fd)
                throw ScanError(code: "write-failed", message: "\(partial): cannot be written (\(String(cString: strerror(errno))))")
            }
        } else {
            fd = STDOUT_FILENO
            Self.writeAll(fd, exporter.header())
        }
    }

    /// Writes one record in a single write(2): a reader of the pipe or the partial file sees
    /// whole records only.
    func write(_ record: ScanRecord) {
        Self.writeAll(fd, exporter.text(for: record))
    }

    /// Completes the output: footer, flush, and for a file the rename from FILE.partial to FILE.
    func finish() throws(ScanError) {
        Self.writeAll(fd, exporter.footer())
        guard let path, let partial = partialPath else { return }
        let synced = fsync(fd) == 0
        close(fd)
        guard synced, rename(partial, path) == 0 else {
            throw ScanError(code: "write-failed", message: "\(path): cannot be written (\(String(cString: strerror(errno)))); the records are in \(partial)")
        }
    }

    /// Leaves FILE.partial as it is (interrupted run): flushed, complete records only.
    func abandon() {
        guard path != nil else { return }
        fsync(fd)
        close(fd)
    }

    static func writeAll(_ fd: Int32, _ text: String) {
        guard !text.isEmpty else { return }
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { raw in
            var offset = 0
            while offset < raw.count, let base = raw.baseAddress {
                let n = Foundation.write(fd, base + offset, raw.count - offset)
                if n < 0 { if errno == EINTR { continue }; return }
                offset += n
            }
        }
    }
}

/// What an earlier run of `scan -o FILE` recorded: for --resume.
enum ResumeState {
    /// The complete JSON Lines records of FILE and FILE.partial, and the sources they cover.
    static func load(_ path: String) -> (lines: [String], sources: Set<String>) {
        var lines: [String] = []
        var sources = Set<String>()
        for candidate in [path, path + ".partial"] {
            guard let data = FileManager.default.contents(atPath: candidate) else { continue }
            let text = String(decoding: data, as: UTF8.self)
            // A last line without its newline is a record cut off mid-write: not complete.
            var records = text.components(separatedBy: "\n")
            if !text.hasSuffix("\n") { records.removeLast() }
            for line in records where !line.isEmpty {
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      let source = object["source"] as? String, !sources.contains(source) else { continue }
                sources.insert(source)
                lines.append(line)
            }
        }
        return (lines, sources)
    }
}
