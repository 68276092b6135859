import CardScanClient
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `cardscan serve` end to end: the real binary, a real Unix socket, a real HTTP client.
@Suite(.serialized) struct ServeTests {
    static let cards = ["card-us-full.jpg", "card-de-band.jpg", "card-au-small.jpg", "card-gb-dark.jpg"]

    @Test func concurrentClientsGetTheRecordsTheCLIPrints() async throws {
        let service = try await RunningService(["--jobs", "2", "--region", "US"])
        let files = Self.cards.map { TestPaths.cards.appendingPathComponent($0) }
        let cli = try runProcess(TestPaths.binary, ["scan", "--region", "US"] + files.map(\.path))
        #expect(cli.status == 0, "\(cli.stderr)")
        var expected: [String: String] = [:]
        for line in cli.stdout.split(separator: "\n") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            expected[URL(fileURLWithPath: object?["source"] as? String ?? "").lastPathComponent] = try contactJSON(object)
        }
        let client = service.client
        // Each card twice, all at once.
        let answers = try await withThrowingTaskGroup(of: (String, CardScanClient.Response).self) { group in
            for file in files + files {
                let bytes = try TestPaths.bytes(file)
                group.addTask { (file.lastPathComponent, try await client.scan(bytes, name: file.lastPathComponent)) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers.count == 8)
        for (name, answer) in answers {
            #expect(answer.status == 200, "\(name): \(answer.text)")
            #expect(answer.header("Content-Type") == "application/json")
            #expect(answer.json?["source"] as? String == name)
            #expect(try contactJSON(answer.json) == expected[name], "\(name)")
        }
        let vcard = try await client.scan(try TestPaths.bytes(files[0]), format: "vcard")
        #expect(vcard.status == 200)
        #expect(vcard.text.hasPrefix("BEGIN:VCARD\r\n") && vcard.text.contains("EMAIL"))
        let metrics = try await client.metrics().text
        #expect(metrics.contains("cardscan_cards_total 9"), "\(metrics)")
        #expect(metrics.contains("cardscan_stage_duration_seconds_count{stage=\"ocr\"} 9"))
        let exit = service.stop()
        #expect(exit.status == 0, "\(exit.stderr)")
        #expect(!FileManager.default.fileExists(atPath: service.socketPath), "the socket file is removed on exit")
    }

    @Test func badBodiesGet4xxJSONErrorsAndTheServiceGoesOn() async throws {
        let service = try await RunningService(["--jobs", "1", "--max-megabytes", "1"])
        let client = service.client
        let jpeg = try TestPaths.bytes(TestPaths.cards.appendingPathComponent("card-us-plain.jpg"))
        let cases: [(String, String, [UInt8], Int, String)] = [
            ("empty", "/scan", [], 400, "empty-input"),
            ("not an image", "/scan", Array("BEGIN:VCARD\r\nFN:x\r\nEND:VCARD\r\n".utf8), 415, "not-an-image"),
            ("truncated", "/scan", Array(jpeg.prefix(600)), 422, "corrupt-image"),
            ("oversized", "/scan", [UInt8](repeating: 0xFF, count: 1_600_000), 413, "too-large"),
            ("bad region", "/scan?region=XX", jpeg, 400, "bad-request"),
            ("unknown option", "/scan?colour=red", jpeg, 400, "bad-request"),
            ("strip of text", "/strip", Array("hello".utf8), 415, "not-an-image"),
        ]
        for (what, uri, body, status, code) in cases {
            let answer = try await client.send("POST", uri, body: body)
            #expect(answer.status == status, "\(what): \(answer.text)")
            #expect(answer.header("Content-Type") == "application/json", "\(what)")
            let error = (answer.json?["error"] as? [String: Any])
            #expect(error?["code"] as? String == code, "\(what): \(answer.text)")
            #expect((error?["message"] as? String)?.isEmpty == false, "\(what)")
            #expect(try await client.health().status == 200, "after \(what)")
        }
        #expect(try await client.send("GET", "/scan").status == 405)
        #expect(try await client.send("GET", "/nowhere").status == 404)
        // A client that hangs up mid-upload, and one that sends garbage instead of HTTP.
        let hangUp = try RawConnection(service.socketPath)
        hangUp.send("POST /scan HTTP/1.1\r\nHost: x\r\nContent-Length: 500000\r\n\r\n")
        hangUp.send(Array(jpeg.prefix(4000)))
        hangUp.close()
        let garbage = try RawConnection(service.socketPath)
        garbage.send([UInt8](repeating: 0x00, count: 300))
        garbage.close()
        // A client that asks before sending its body (curl does, for bodies over 1 MB) is told at once.
        let asking = try RawConnection(service.socketPath)
        asking.send("POST /strip HTTP/1.1\r\nHost: x\r\nContent-Length: \(jpeg.count)\r\nExpect: 100-continue\r\n\r\n")
        #expect(asking.receive(within: 0.5).hasPrefix("HTTP/1.1 100 Continue\r\n"))
        asking.send(jpeg)
        #expect(asking.receive(within: 5).hasPrefix("HTTP/1.1 200 OK\r\n"))
        asking.close()
        let after = try await client.scan(jpeg)
        #expect(after.status == 200, "\(after.text)")
        #expect(try await client.strip(jpeg).status == 200)
        #expect(service.stop().status == 0)
    }

    @Test func theSocketIsPrivateAndOnlyAStaleSocketIsReplaced() async throws {
        let first = try await RunningService()
        var status = stat()
        #expect(lstat(first.socketPath, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600, "mode \(String(status.st_mode & 0o777, radix: 8))")
        // A second service on the same path while the first listens: refused, the first goes on.
        let second = try runProcess(TestPaths.binary, ["serve", "--socket", first.socketPath])
        #expect(second.status == 1)
        #expect(second.stderr.contains("another service is listening"), "\(second.stderr)")
        #expect(try await first.client.health().status == 200)
        #expect(first.stop().status == 0)

        // A regular file at the path is never replaced.
        let folder = RunningService.newFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("notes.sock")
        try Data("keep me".utf8).write(to: file)
        let refused = try runProcess(TestPaths.binary, ["serve", "--socket", file.path])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("is not a socket"), "\(refused.stderr)")
        #expect(try String(contentsOf: file, encoding: .utf8) == "keep me")

        // A stale socket (nobody listening) is replaced; --socket-mode widens the mode.
        let stale = folder.appendingPathComponent("stale.sock").path
        try makeStaleSocket(at: stale)
        let widened = try await RunningService(["--socket-mode", "660"], socketName: "stale.sock", folder: folder)
        #expect(try await widened.client.health().status == 200)
        #expect(lstat(stale, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o660)
        #expect(widened.stop().status == 0)
        #expect(!FileManager.default.fileExists(atPath: stale))
    }

    /// A service that cannot listen is released at once while its worker threads are still
    /// starting: they must not die of a signal reading their queue. Every start on a bad path
    /// exits with the reason: 1 when binding fails, 2 for a path longer than SwiftNIO takes
    /// (104-107 bytes, which sun_path would hold).
    @Test func aServiceThatCannotListenSaysWhyAndNeverDiesOfASignal() throws {
        let folder = RunningService.newFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("plain")
        try Data("x".utf8).write(to: file)
        var cases: [(path: String, status: Int32, says: String, rounds: Int)] = [
            (folder.appendingPathComponent("missing/s.sock").path, 1, "the folder does not exist; create it first", 10),
            (file.appendingPathComponent("s.sock").path, 1, "a part of the path is not a folder", 10),
        ]
        for length in 104...107 {
            let name = String(repeating: "s", count: length - folder.path.utf8.count - 1)
            cases.append((folder.appendingPathComponent(name).path, 2, "a socket path holds at most 103 bytes", 1))
        }
        if getuid() != 0 {  // root may create files anywhere
            let closed = folder.appendingPathComponent("closed")
            try FileManager.default.createDirectory(at: closed, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o500])
            cases.append((closed.appendingPathComponent("s.sock").path, 1, "choose a folder this user may create files in", 10))
        }
        for (path, status, says, rounds) in cases {
            for round in 0..<rounds {
                let start = try runProcess(TestPaths.binary, ["serve", "--socket", path])
                #expect(start.status == status, "\(path.utf8.count) bytes, start \(round + 1): \(start.stderr)")
                #expect(start.stderr.contains(says), "\(start.stderr)")
                guard start.status == status else { break }
            }
        }
    }

    /// A malformed request is refused with a JSON body, as every refusal is, and a client that
    /// half-closes after a complete request still gets its answer.
    @Test func malformedHTTPIsRefusedInJSONAndAHalfClosedClientIsAnswered() async throws {
        let service = try await RunningService(["--jobs", "1"])
        for garbage in ["\0\0\0\r\n\r\n", "GET /health HTTP/1.1\r\nHost x\r\n\r\n", "POST /scan HTTP/1.1\r\nContent-Length: -4\r\n\r\n"] {
            let connection = try RawConnection(service.socketPath)
            connection.send(garbage)
            let answer = connection.receiveToEnd(within: 10)
            connection.close()
            #expect(answer.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), "\(answer)")
            #expect(answer.contains("Content-Type: application/json\r\n") && answer.contains("Connection: close\r\n"), "\(answer)")
            #expect(answer.hasSuffix("{\"error\":{\"code\":\"bad-request\",\"message\":\"the request is not valid HTTP/1.1; the connection is closed\"}}\n"),
                    "\(answer)")
        }
        let jpeg = try TestPaths.bytes(TestPaths.cards.appendingPathComponent("card-us-plain.jpg"))
        let halfClosed = try RawConnection(service.socketPath)
        halfClosed.send("POST /scan?name=half HTTP/1.1\r\nHost: x\r\nContent-Length: \(jpeg.count)\r\n\r\n")
        halfClosed.send(jpeg)
        halfClosed.shutdownWrite()
        let answer = halfClosed.receiveToEnd(within: 60)
        halfClosed.close()
        #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(answer.prefix(300))")
        #expect(answer.contains("Connection: close\r\n") && answer.contains("\"source\":\"half\",\"status\":\"ok\""), "\(answer.prefix(300))")
        // Half-closed with nothing asked: closed at once.
        let idle = try RawConnection(service.socketPath)
        idle.shutdownWrite()
        #expect(idle.receiveToEnd(within: 10).isEmpty)
        idle.close()
        #expect(service.stop().status == 0)
    }

    /// With its descriptors used up by idle clients (`ulimit -n 64`, 128 of them) the service
    /// still answers /health rather than spin on accept(2) failing with EMFILE: connections are
    /// capped below the descriptor limit, at the cap a new client takes the place of the idlest,
    /// and a failed accept waits 50 ms.
    @Test func runningOutOfDescriptorsNeverStopsHealth() async throws {
        let service = try await RunningService(["--jobs", "1"], launcher: ["/bin/sh", "-c", "ulimit -n 64 && exec \"$@\"", "sh"])
        var idle: [RawConnection] = []
        defer { idle.forEach { $0.close() } }
        for _ in 0..<128 { idle.append(try RawConnection(service.socketPath)) }  // twice the limit
        let health = try await service.client.health()
        #expect(health.status == 200, "\(health.text)")
        // The clients that made way were disconnected, not left hanging; the last ones are kept.
        let dropped = idle.filter { $0.receiveToEnd(within: 0.01).isEmpty && $0.isClosedByPeer }
        #expect(dropped.count >= 128 - 64, "\(dropped.count) of 128 disconnected")
        let jpeg = try TestPaths.bytes(TestPaths.cards.appendingPathComponent("card-us-plain.jpg"))
        #expect(try await service.client.scan(jpeg).status == 200)
        #expect(service.stop().status == 0)
    }

    /// A client sending a byte at a time in its head or its body is cut off (the idle timeout
    /// never sees it silent): from a request's first byte it has --read-timeout seconds, then
    /// must keep coming at 64 KB/s; slower, it is answered 408 and disconnected.
    @Test func aClientTricklingItsRequestIsCutOff() async throws {
        let service = try await RunningService(["--jobs", "1", "--read-timeout", "1"])
        let requests = ["GET /health HTTP/1.1\r\nHost: " + String(repeating: "h", count: 60) + "\r\n\r\n",
                        "POST /scan HTTP/1.1\r\nHost: x\r\nContent-Length: 60\r\n\r\n" + String(repeating: "\u{FF}", count: 60)]
        for request in requests {
            let connection = try RawConnection(service.socketPath)
            let (answer, sent) = connection.trickle(Array(request.utf8))
            connection.close()
            #expect(sent < request.utf8.count, "the whole request was taken at a byte each 0.2 s: \(answer.prefix(80))")
            #expect(answer.hasPrefix("HTTP/1.1 408 Request Timeout\r\n") && answer.contains("\"code\":\"timeout\""), "\(answer)")
        }
        // A client that sends its request at once is not affected.
        let jpeg = try TestPaths.bytes(TestPaths.cards.appendingPathComponent("card-us-plain.jpg"))
        #expect(try await service.client.scan(jpeg).status == 200)
        #expect(service.stop().status == 0)
    }

    @Test func sigtermFinishesTheRequestInFlightAndExitsZero() async throws {
        let service = try await RunningService(["--jobs", "1"])
        let client = service.client
        let photo = try TestPaths.bytes(TestPaths.conditions.appendingPathComponent("cond-paper-beside.jpg"))
        async let answer = client.scan(photo)
        try await service.waitUntil("the scan running") { _, running, _ in running == 1 }
        kill(service.servicePID, SIGTERM)
        let response = try await answer
        #expect(response.status == 200, "\(response.text)")
        #expect(response.json?["status"] as? String == "ok")
        let exit = service.waitForExit()
        #expect(exit.status == 0, "\(exit.stderr)")
        #expect(!FileManager.default.fileExists(atPath: service.socketPath))
    }

    @Test func aFullQueueIsAnswered503WithRetryAfter() async throws {
        let service = try await RunningService(["--jobs", "1", "--queue", "1"])
        let client = service.client
        // The one worker is busy with a large photo; then five requests at once: one may wait, the rest are refused.
        let photo = try TestPaths.bytes(TestPaths.conditions.appendingPathComponent("cond-paper-beside.jpg"))
        async let first = client.scan(photo)
        try await service.waitUntil("the first scan running") { _, running, _ in running == 1 }
        let bytes = try TestPaths.bytes(TestPaths.cards.appendingPathComponent("card-us-full.jpg"))
        let answers = try await withThrowingTaskGroup(of: CardScanClient.Response.self) { group in
            for _ in 0..<5 { group.addTask { try await client.scan(bytes) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(try await first.status == 200)
        let busy = answers.filter { $0.status == 503 }
        #expect(busy.count >= 3, "\(answers.map(\.status))")
        #expect(answers.allSatisfy { $0.status == 200 || $0.status == 503 }, "\(answers.map(\.status))")
        #expect(busy.allSatisfy { $0.header("Retry-After") == "1" && ($0.json?["error"] as? [String: Any])?["code"] as? String == "busy" })
        #expect(try await client.metrics().text.contains("cardscan_http_responses_total{endpoint=\"scan\",code=\"503\"}"))
        #expect(service.stop().status == 0)
    }

    @Test func aClientThatLeavesHasItsQueuedWorkDropped() async throws {
        let service = try await RunningService(["--jobs", "1"])
        let client = service.client
        let photo = try TestPaths.bytes(TestPaths.conditions.appendingPathComponent("cond-paper-beside.jpg"))
        async let first = client.scan(photo)
        try await service.waitUntil("the first scan running") { _, running, _ in running == 1 }
        // Sent whole, so it is queued behind the first; then the client leaves.
        let leaving = try RawConnection(service.socketPath)
        leaving.send("POST /scan HTTP/1.1\r\nHost: x\r\nContent-Length: \(photo.count)\r\n\r\n")
        leaving.send(photo)
        try await service.waitUntil("the second request queued") { waiting, _, _ in waiting == 1 }
        leaving.close()
        #expect(try await first.status == 200)
        // Nothing waits or runs any more: the second was dropped, or (the fault) scanned.
        try await service.waitUntil("the queue empty") { waiting, running, _ in waiting == 0 && running == 0 }
        let metrics = try await client.metrics().text
        #expect(metrics.contains("cardscan_cards_total 1\n"), "only the first photo was scanned: \(metrics)")
        #expect(service.stop().status == 0)
    }

    @Test func bodiesHeldAtOnceAreBoundedOverAllConnections() async throws {
        let service = try await RunningService(["--jobs", "1", "--max-megabytes", "2", "--max-uploads-megabytes", "2"])
        let slow = try RawConnection(service.socketPath)
        slow.send("POST /scan HTTP/1.1\r\nHost: x\r\nContent-Length: 1500000\r\n\r\n")
        slow.send([UInt8](repeating: 0xFF, count: 1_200_000))
        try await service.waitUntil("the first upload's bytes held") { _, _, held in held >= 1_200_000 }
        let second = try RawConnection(service.socketPath)
        second.send("POST /scan HTTP/1.1\r\nHost: x\r\nContent-Length: 1500000\r\n\r\n")
        second.send([UInt8](repeating: 0xFF, count: 1_200_000))
        let refused = second.receive(within: 5)
        #expect(refused.hasPrefix("HTTP/1.1 503"), "\(refused.prefix(200))")
        #expect(refused.contains("Retry-After: 1") && refused.contains("\"busy\""))
        second.close()
        slow.close()
        try await service.waitUntil("the uploads released") { _, _, held in held == 0 }
        // The first upload's bytes are released when its client leaves.
        let jpeg = try TestPaths.bytes(TestPaths.cards.appendingPathComponent("card-us-plain.jpg"))
        #expect(try await service.client.scan(jpeg).status == 200)
        #expect(service.stop().status == 0)
    }

    @Test func allowUIDServesOnlyThoseUsers() async throws {
        let other = try await RunningService(["--allow-uid", String(getuid() + 1)])
        let refused = try await other.client.health()
        #expect(refused.status == 403)
        #expect((refused.json?["error"] as? [String: Any])?["code"] as? String == "forbidden")
        other.stop()
        let own = try await RunningService(["--allow-uid", String(getuid())])
        #expect(try await own.client.health().status == 200)
        own.stop()
    }

    @Test func underStraceTheServiceCreatesNoSocketButAFUnix() async throws {
        let strace = "/usr/bin/strace"
        guard FileManager.default.isExecutableFile(atPath: strace) else { try Test.cancel("strace is not installed") }
        let folder = RunningService.newFolder()
        let log = folder.appendingPathComponent("trace.txt")
        let service = try await RunningService([], launcher: [strace, "-f", "-qq", "-e", "trace=socket,socketpair,connect,bind", "-o", log.path],
                                               folder: folder)
        let bytes = try TestPaths.bytes(TestPaths.cards.appendingPathComponent("card-us-plain.jpg"))
        #expect(try await service.client.scan(bytes).status == 200)
        let exit = service.stop()
        if exit.stderr.contains("ptrace") { try Test.cancel("strace cannot attach here") }
        #expect(exit.status == 0, "\(exit.stderr)")
        let trace = try String(contentsOf: log, encoding: .utf8)
        let calls = trace.split(separator: "\n").filter { $0.contains("socket(") || $0.contains("socketpair(") }
        #expect(!calls.isEmpty, "strace saw the listening socket")
        #expect(calls.allSatisfy { $0.contains("AF_UNIX") }, "\(calls.filter { !$0.contains("AF_UNIX") }.prefix(5))")
        #expect(!trace.contains("AF_INET"), "no network address family appears at all")
    }
}
