import CardFormats
import CardScan
import ContactBook
import FileAccess
import Foundation

/// Where records go: standard output, or a file written as FILE.partial while the scan runs and
/// renamed to FILE when it completes (so FILE is never half-written, and an interrupted or failed
/// run leaves FILE.partial with complete records only). Every write is checked.
final class RecordSink {
    private var exporter: RecordExporter
    /// A terminal's readable table instead of records (`scan` without --format on a terminal).
    private var table: ScanTable?
    /// The batch's contacts, merged by the book's rules and written when it completes (--merge).
    private var groups: ContactGroups?
    private let fd: Int32
    /// The output file (its real path when -o named a link); nil for standard output.
    let path: FilePathBytes?
    private let name: String
    /// Bytes of FILE.partial up to the end of the last whole record.
    private var committed: off_t = 0
    var partialPath: FilePathBytes? { path.map { $0.appendingSuffix(".partial") } }

    /// - Parameter carryOver: records of an earlier run (--resume) written first, as they were.
    /// - Parameter table: a readable table on standard output instead of records.
    /// - Parameter merge: contacts merged by the book's rules, written when the batch completes.
    init(format: ExportFormat, path: FilePathBytes?, carryOver: [String] = [], table: Bool = false, merge: Bool = false) throws(FileError) {
        exporter = RecordExporter(format: format)
        self.path = path
        self.table = table && path == nil ? ScanTable() : nil
        groups = merge && self.table == nil ? ContactGroups() : nil
        guard let path else {
            fd = STDOUT_FILENO
            name = "standard output"
            try SystemFile.writeAll(fd, Array((self.table?.header ?? exporter.header()).utf8), name: name)
            return
        }
        let partial = path.appendingSuffix(".partial")
        name = partial.display
        // The carried-over records go into a new file which then replaces FILE.partial, so the
        // earlier run's records are never lost to a failed write.
        let fresh = partial.appendingSuffix(".new-\(getpid())")
        let fd = fresh.withCString { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
        guard fd >= 0 else { throw FileError.system(errno, path: fresh.display, doing: "write") }
        do {
            let start = exporter.header() + carryOver.map { $0 + "\n" }.joined()
            try SystemFile.writeAll(fd, Array(start.utf8), name: fresh.display)
            try SystemFile.sync(fd, name: fresh.display)
            try SystemFile.rename(fresh, to: partial)
            committed = lseek(fd, 0, SEEK_CUR)
        } catch {
            close(fd)
            _ = fresh.withCString { unlink($0) }
            throw error
        }
        self.fd = fd
    }

    /// Writes one record in a single write(2): a reader of the pipe or the partial file sees
    /// whole records only. On a failed write FILE.partial is cut back to its last whole record.
    func write(_ record: ScanRecord) throws(FileError) {
        if table != nil {
            try put(table?.row(record) ?? "")
        } else if groups != nil {
            if let contact = record.usableContact { groups?.add(contact) }
        } else {
            try put(exporter.text(for: record))
        }
    }

    private func put(_ text: String) throws(FileError) {
        guard !text.isEmpty else { return }
        do {
            try SystemFile.writeAll(fd, Array(text.utf8), name: name)
            if path != nil { committed = lseek(fd, 0, SEEK_CUR) }
        } catch {
            if path != nil { _ = ftruncate(fd, committed); _ = lseek(fd, committed, SEEK_SET) }
            throw error
        }
    }

    /// Completes the output: footer, flush, and for a file the rename from FILE.partial to FILE.
    func finish() throws(FileError) {
        if let groups {
            for contact in groups.merged { try put(exporter.text(for: .scanned("merged", contact))) }
            if groups.count > groups.merged.count {
                Diagnostics.notice("\(groups.count) contacts merged into \(groups.merged.count) (--no-merge keeps each)")
            }
        }
        try put(table?.summary ?? exporter.footer())
        guard let path, let partial = partialPath else { return }
        defer { close(fd) }
        try SystemFile.sync(fd, name: partial.display)
        try SystemFile.rename(partial, to: path)
        SystemFile.syncFolder(path.parent)
    }

    /// Leaves FILE.partial as it is (interrupted or failed run): flushed, complete records only.
    func abandon() {
        guard path != nil else { return }
        fsync(fd)
        close(fd)
    }
}

/// Checks made before -o FILE (or --report FILE) is touched, so that no file a user has is lost to it.
enum OutputTarget {
    /// The path to write (a link's real file), after refusing what must not be replaced: a
    /// device, FIFO or folder; a file being scanned; a file that does not hold cardscan records
    /// in this format (unless `force`). With `resume` the file must hold JSON Lines records.
    /// `replacesExports`: an earlier file of this format is replaced without --force (`contacts
    /// export`, whose output the book makes again); `scan -o` keeps an earlier run's records.
    static func check(_ output: String, format: ExportFormat, inputs: [FilePathBytes], resume: Bool, force: Bool,
                      replacesExports: Bool = false) throws(FileError) -> FilePathBytes {
        guard let (path, head) = try existing(output, option: "-o", inputs: inputs, writes: "records",
                                              elsewhere: " (use -o - or a shell redirection for standard output)")
        else { return RawArguments.path(output) }
        if resume && !RecordExporter.recognises(head, format: .jsonl) {
            throw FileError(.exists, path: path.display,
                            reason: "does not hold cardscan's JSON Lines records; --resume continues only a file cardscan wrote")
        }
        if !force && !RecordExporter.recognises(head, format: format) {
            throw FileError(.exists, path: path.display,
                            reason: "exists and does not hold cardscan's \(format.rawValue) records; choose another name, or --force to replace it")
        }
        if !force && !resume && !replacesExports {
            throw FileError(.exists, path: path.display,
                            reason: "holds the records of an earlier run; continue it with --resume, choose another name, or --force to replace it")
        }
        return path
    }

    /// The file `output` names when it exists (a link's real file) with its first 4 KB, after
    /// refusing a link that leads nowhere, what is not a regular file, and an input; nil for a new file.
    /// `option` names the option in the messages ("-o", "--report"), `writes` what it writes, and
    /// `elsewhere` how to write somewhere that is not a file (or "").
    static func existing(_ output: String, option: String, inputs: [FilePathBytes], writes: String,
                         elsewhere: String) throws(FileError) -> (FilePathBytes, [UInt8])? {
        var path = RawArguments.path(output)
        guard let own = try? SystemFile.status(path, followLinks: false) else { return nil }  // a new file
        if own.kind == .symlink {
            guard let real = try? SystemFile.realPath(path) else {
                throw FileError(.notRegular, path: path.display,
                                reason: "is a symbolic link that leads nowhere; name the file to write itself")
            }
            path = real
        }
        let status = try SystemFile.status(path)
        guard status.kind == .regular else {
            throw FileError(.notRegular, path: path.display,
                            reason: "is \(status.kind.phrase), not a regular file; \(option) writes files only" + elsewhere)
        }
        for input in inputs {
            if let s = try? SystemFile.status(input), s.isSameFile(as: status) {
                throw FileError(.exists, path: path.display, reason: "is one of the inputs; \(option) would replace it with \(writes)")
            }
        }
        let head: [UInt8]
        do {
            head = try SystemFile.readHead(path, count: 4096)
        } catch {
            throw FileError(error.code, path: error.path, reason: error.reason + " (checking what \(option) would replace)")
        }
        // A photo in a scanned folder is an input too, and no output of cardscan is an image:
        // an image is never replaced, --force or not.
        if CardScanner.looksLikeImage(head) {
            throw FileError(.exists, path: path.display,
                            reason: "is an image (an input, or a photo you keep); \(option) never replaces one, even with --force; choose another name")
        }
        return (path, head)
    }
}

/// What an earlier run of `scan -o FILE` recorded: for --resume.
enum ResumeState {
    /// The complete JSON Lines records of FILE and FILE.partial, and the sources they cover.
    static func load(_ path: FilePathBytes) throws(FileError) -> (lines: [String], sources: Set<String>) {
        var lines: [String] = []
        var sources = Set<String>()
        for candidate in [path, path.appendingSuffix(".partial")] {
            let data: [UInt8]
            do {
                data = try SystemFile.readRegularFile(candidate, maxBytes: 1 << 30)
            } catch where error.code == .notFound {
                continue
            }
            let text = String(decoding: data, as: UTF8.self)
            // A last line without its newline is a record cut off mid-write: not complete.
            var records = text.components(separatedBy: "\n")
            if !text.hasSuffix("\n") { records.removeLast() }
            for line in records where !line.isEmpty {
                guard let object = try? JSONValue.parse(line), let source = object["source"]?.stringValue,
                      object["status"]?.stringValue != nil else {
                    throw FileError(.exists, path: candidate.display,
                                    reason: "holds a line that is not a cardscan record; --resume continues only a file cardscan wrote")
                }
                guard sources.insert(source).inserted else { continue }
                lines.append(line)
            }
        }
        return (lines, sources)
    }
}

/// The files a run's outputs write, checked against each other before any is opened: two
/// outputs naming one file would each destroy the other's work (`-o X --db X` would turn the book
/// into JSON Lines; SQLite deletes the file of `contacts export -o BOOK-wal`).
struct OutputClaims {
    private var claims: [(option: String, files: [FilePathBytes])] = []

    /// The files `scan -o FILE` writes.
    static func records(_ path: FilePathBytes) -> [FilePathBytes] { [path, path.appendingSuffix(".partial")] }

    /// The files an SQLite book at `path` consists of (its WAL, its shared memory, a rollback journal).
    static func book(_ path: FilePathBytes) -> [FilePathBytes] {
        [path] + ["-wal", "-shm", "-journal"].map { path.appendingSuffix($0) }
    }

    /// Adds the files `option` writes; refuses when one of them is another output's.
    mutating func claim(_ option: String, _ files: [FilePathBytes]) throws(FileError) {
        let canonical = files.map(SystemFile.canonicalPath)
        for claim in claims {
            for (index, file) in canonical.enumerated() where claim.files.contains(file) {
                throw FileError(.exists, path: files[index].display,
                                reason: "is written by both \(claim.option) and \(option); give each output a file of its own")
            }
        }
        claims.append((option, canonical))
    }
}
