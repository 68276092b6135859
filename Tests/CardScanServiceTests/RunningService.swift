import CardScanClient
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `cardscan serve` run as a child process on a socket in a fresh folder, as a user would run it.
final class RunningService: @unchecked Sendable {
    let process = Process()
    let folder: URL
    let socketPath: String
    private let errors = Pipe()
    private var launched = false
    var client: CardScanClient { CardScanClient(socketPath: socketPath, timeout: .seconds(60)) }

    /// Starts the service (through `launcher`, e.g. strace, when given) and waits until it answers /health.
    init(_ arguments: [String] = [], socketName: String = "s.sock", launcher: [String] = [], folder: URL? = nil) async throws {
        self.folder = folder ?? Self.newFolder()
        socketPath = self.folder.appendingPathComponent(socketName).path
        let command = ["serve", "--socket", socketPath] + arguments
        if let tool = launcher.first {
            launched = true
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = Array(launcher.dropFirst()) + [TestPaths.binary.path] + command
        } else {
            process.executableURL = TestPaths.binary
            process.arguments = command
        }
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        try await waitUntilServing()
    }

    static func newFolder() -> URL {
        // Short: a socket path holds at most 103 bytes.
        let url = URL(fileURLWithPath: "/tmp/cs-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private func waitUntilServing() async throws {
        for _ in 0..<300 {
            guard process.isRunning else { return }
            if (try? await client.health()) != nil { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the service did not answer /health within 15 s")
    }

    /// Waits until the service's /health satisfies `condition` (the queue's `waiting` and
    /// `running`, the upload bytes held): explicit synchronisation on the service's own state,
    /// instead of sleeping and hoping an event has happened.
    func waitUntil(_ what: String, _ condition: (_ waiting: Int, _ running: Int, _ heldBytes: Int) -> Bool) async throws {
        for _ in 0..<3000 {
            let health = try await client.health().json
            let queue = health?["queue"] as? [String: Any], uploads = health?["uploads"] as? [String: Any]
            if condition(queue?["waiting"] as? Int ?? -1, queue?["running"] as? Int ?? -1, uploads?["heldBytes"] as? Int ?? -1) { return }
            try await Task.sleep(for: .milliseconds(10))  // the poll's pace, not an order of events
        }
        Issue.record("the service's /health never showed \(what)")
    }

    /// Sends SIGTERM and waits for the exit; the exit status and what was said on stderr.
    @discardableResult
    func stop() -> (status: Int32, stderr: String) {
        if process.isRunning { kill(servicePID, SIGTERM) }
        return waitForExit()
    }

    /// The service's process: the child itself, or the child of its launcher (strace does not
    /// pass SIGTERM on to the program it traces).
    var servicePID: pid_t {
        let pid = process.processIdentifier
        guard launched,
              let children = try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8),
              let child = children.split(separator: " ").first.flatMap({ pid_t($0) }) else { return pid }
        return child
    }

    func waitForExit() -> (status: Int32, stderr: String) {
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    deinit {
        if process.isRunning {
            kill(servicePID, SIGKILL)
            kill(process.processIdentifier, SIGKILL)
        }
        try? FileManager.default.removeItem(at: folder)
    }
}

/// A raw connection to a Unix socket, for what no polite client does (hanging up mid-upload).
struct RawConnection {
    let fd: Int32

    init(_ path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let rc = withUnixAddress(path) { connect(fd, $0, $1) }
        try #require(rc == 0, "connect: \(String(cString: strerror(errno)))")
    }

    func send(_ text: String) { send(Array(text.utf8)) }
    /// Sends what the socket takes (no SIGPIPE when the service has closed the connection).
    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            offset += n
        }
    }
    func close() { _ = Glibc.close(fd) }
    /// Half-closes: the service reads the end of the input, and may still answer.
    func shutdownWrite() { _ = shutdown(fd, Int32(SHUT_WR)) }

    /// True once the service has closed its end (a read returns end of file at once).
    var isClosedByPeer: Bool {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, 0) > 0 else { return false }
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) == 0
    }

    /// Sends `bytes` one at a time, waiting up to 0.2 s for an answer after each (a client
    /// trickling its request); stops when the service answers or closes. The answer, and how
    /// many bytes were sent.
    func trickle(_ bytes: [UInt8]) -> (answer: String, sent: Int) {
        for (index, byte) in bytes.enumerated() {
            send([byte])
            let answer = receive(within: 0.2)
            if !answer.isEmpty { return (answer + receiveToEnd(within: 2), index + 1) }
            if isClosedByPeer { return ("", index + 1) }
        }
        return (receiveToEnd(within: 2), bytes.count)
    }

    /// Everything until the service closes the connection (up to `seconds`), as text.
    func receiveToEnd(within seconds: Double) -> String {
        var received: [UInt8] = []
        let end = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while Date() < end {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, Int32(max(1, end.timeIntervalSinceNow * 1000))) > 0 else { break }
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { break }
            received += buffer.prefix(n)
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// What arrives within `seconds` (up to 64 KiB), as text.
    func receive(within seconds: Double) -> String {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, Int32(seconds * 1000)) > 0 else { return "" }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = read(fd, &buffer, buffer.count)
        return n > 0 ? String(decoding: buffer.prefix(n), as: UTF8.self) : ""
    }
}

/// A socket file nobody listens on: bound, then its descriptor closed.
func makeStaleSocket(at path: String) throws {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    let rc = withUnixAddress(path) { bind(fd, $0, $1) }
    close(fd)
    try #require(rc == 0)
}

/// Calls `body` with the socket address of `path` and its length.
func withUnixAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (i, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
    }
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
}

/// The record's contact as sorted JSON, for comparing records without their timings.
func contactJSON(_ object: [String: Any]?) throws -> String {
    let contact = try #require(object?["contact"])
    return String(decoding: try JSONSerialization.data(withJSONObject: contact, options: [.sortedKeys]), as: UTF8.self)
}
