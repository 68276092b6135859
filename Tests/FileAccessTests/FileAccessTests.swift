import FileAccess
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A fresh folder for one test, removed afterwards.
final class Scratch {
    let url: URL
    var path: String { url.path }
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-fa-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
    func file(_ name: String, _ bytes: [UInt8]) throws {
        try Data(bytes).write(to: url.appendingPathComponent(name))
    }
}

let jpegHead: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0, count: 40)
func isJPEG(_ head: [UInt8]) -> Bool { head.starts(with: [0xFF, 0xD8, 0xFF]) }

func walk(_ root: String, followLinks: Bool = false) -> [FolderWalk.Item] {
    Array(FolderWalk(root: FilePathBytes(root), followLinks: followLinks, accept: isJPEG))
}

func files(_ items: [FolderWalk.Item], under root: String) -> [String] {
    items.compactMap { if case .file(let p) = $0 { return String(p.display.dropFirst(root.count + 1)) }; return nil }
}

@Suite("File access")
struct FileAccessTests {
    @Test("names print escaped: invalid UTF-8 and terminal controls as \\xNN, the rest as is")
    func displayEscapes() {
        #expect(FilePathBytes(bytes: Array("caf".utf8) + [0xE9] + Array(".jpg".utf8)).display == "caf\\xe9.jpg")
        #expect(FilePathBytes("Jäntsch.jpg").display == "Jäntsch.jpg")
        #expect(FilePathBytes("a\u{1B}[2Jb").display == "a\\x1b[2Jb")
        #expect(DisplayText.escaping("line\nbreak\u{202E}") == "line\\x0abreak\\u{202e}")
    }

    @Test("a FIFO is refused at once, never read (no writer: it would block)")
    func fifoRefused() throws {
        let s = try Scratch()
        let fifo = s.path + "/pipe.jpg"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: FileError.self) { try SystemFile.readRegularFile(FilePathBytes(fifo), maxBytes: 100) }
        do {
            _ = try SystemFile.readRegularFile(FilePathBytes(fifo), maxBytes: 100)
        } catch {
            #expect(error.code == .notRegular)
            #expect(error.description.contains("FIFO"))
        }
    }

    @Test("a device is refused, and reading stops at the byte limit")
    func boundedReads() throws {
        do {
            _ = try SystemFile.readRegularFile(FilePathBytes("/dev/zero"), maxBytes: 100)
            Issue.record("read /dev/zero")
        } catch {
            #expect(error.code == .notRegular)
        }
        let s = try Scratch()
        try s.file("big.jpg", [UInt8](repeating: 7, count: 5000))
        do {
            _ = try SystemFile.readRegularFile(FilePathBytes(s.path + "/big.jpg"), maxBytes: 4999)
            Issue.record("read over the limit")
        } catch {
            #expect(error.code == .tooLarge)
        }
        #expect(try SystemFile.readRegularFile(FilePathBytes(s.path + "/big.jpg"), maxBytes: 5000).count == 5000)
        // An endless pipe is cut at the limit, holding at most limit + 1 bytes.
        let zero = open("/dev/zero", O_RDONLY)
        defer { close(zero) }
        do {
            _ = try SystemFile.readAll(zero, name: "standard input", maxBytes: 1 << 20, shouldStop: { false })
            Issue.record("read /dev/zero whole")
        } catch {
            #expect(error.code == .tooLarge)
            #expect(error.description.hasPrefix("standard input: "))
        }
    }

    @Test("a silent pipe gives way to an interrupt")
    func pollingReadStops() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let start = Date()
        do {
            _ = try SystemFile.readAll(fds[0], name: "standard input", maxBytes: 100, shouldStop: { Date().timeIntervalSince(start) > 0.3 })
            Issue.record("returned data from a silent pipe")
        } catch {
            #expect(error.code == .interrupted)
        }
        #expect(Date().timeIntervalSince(start) < 2)
    }

    @Test("the walk: sorted, names as bytes, link cycles end, links out of the folder and to folders skipped")
    func walkSafely() throws {
        let s = try Scratch()
        try FileManager.default.createDirectory(atPath: s.path + "/sub", withIntermediateDirectories: true)
        try s.file("b.jpg", jpegHead)
        try s.file("a.jpg", jpegHead)
        try s.file("sub/c.jpg", jpegHead)
        try s.file("notes.txt", Array("hello".utf8))
        try s.file("empty.jpg", [])
        try s.file(".hidden.jpg", jpegHead)
        let raw = s.path + "/caf"
        let rawName = Array(raw.utf8) + [0xE9] + Array(".jpg".utf8) + [0]
        let fd = rawName.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) } }
        #expect(fd >= 0)
        _ = jpegHead.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
        close(fd)
        // Links: back up (a cycle), to itself, a loop, out of the folder, to a file inside.
        let outside = try Scratch()
        try outside.file("secret.jpg", jpegHead)
        try FileManager.default.createSymbolicLink(atPath: s.path + "/sub/up", withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: s.path + "/self", withDestinationPath: ".")
        try FileManager.default.createSymbolicLink(atPath: s.path + "/loop", withDestinationPath: "loop")
        try FileManager.default.createSymbolicLink(atPath: s.path + "/out.jpg", withDestinationPath: outside.path + "/secret.jpg")
        try FileManager.default.createSymbolicLink(atPath: s.path + "/outdir", withDestinationPath: outside.path)
        try FileManager.default.createSymbolicLink(atPath: s.path + "/z-link.jpg", withDestinationPath: "a.jpg")
        #expect(mkfifo(s.path + "/pipe.jpg", 0o600) == 0)

        let items = walk(s.path)
        #expect(files(items, under: s.path) == ["a.jpg", "b.jpg", "caf\\xe9.jpg", "sub/c.jpg", "z-link.jpg"])
        let refused = items.compactMap { if case .refused(let e) = $0 { return e }; return nil }
        #expect(Set(refused.map(\.code)) == [.linkLoop, .notRegular])
        #expect(refused.first { $0.code == .notRegular }?.path.hasSuffix("/pipe.jpg") == true)
        // The raw name reads back with its bytes.
        if case .file(let p)? = items.first(where: { if case .file(let p) = $0 { return p.display.contains("caf") }; return false }) {
            #expect(try SystemFile.readRegularFile(p, maxBytes: 100) == jpegHead)
        }
        // With --follow-links: out of the folder too, but every folder once.
        let followed = files(walk(s.path, followLinks: true), under: s.path)
        #expect(followed == ["a.jpg", "b.jpg", "caf\\xe9.jpg", "out.jpg", "outdir/secret.jpg", "sub/c.jpg", "z-link.jpg"])
    }

    @Test("atomic writes: through a link to the real file, never over a device, never over a file when told not to")
    func atomicWrites() throws {
        let s = try Scratch()
        try s.file("real.jpg", [1, 2, 3])
        try FileManager.default.createSymbolicLink(atPath: s.path + "/link.jpg", withDestinationPath: "real.jpg")
        try AtomicFile.write([9, 9], to: FilePathBytes(s.path + "/link.jpg"))
        #expect(try Data(contentsOf: s.url.appendingPathComponent("real.jpg")) == Data([9, 9]))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: s.path + "/link.jpg") == "real.jpg")
        do {
            try AtomicFile.write([1], to: FilePathBytes("/dev/null"))
            Issue.record("replaced a device")
        } catch {
            #expect(error.code == .notRegular)
        }
        do {
            try AtomicFile.write([1], to: FilePathBytes(s.path + "/real.jpg"), replace: false)
            Issue.record("replaced a file")
        } catch {
            #expect(error.code == .exists)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: s.path).sorted() == ["link.jpg", "real.jpg"])
    }

    @Test("a failed write is an error naming the file (/dev/full)")
    func writeFailures() throws {
        let fd = open("/dev/full", O_WRONLY)
        defer { close(fd) }
        do {
            try SystemFile.writeAll(fd, [UInt8](repeating: 1, count: 10), name: "standard output")
            Issue.record("wrote to /dev/full")
        } catch {
            #expect(error.code == .writeFailed)
            #expect(error.description == "standard output: no space left on the device; free some space and run again")
        }
    }
}
