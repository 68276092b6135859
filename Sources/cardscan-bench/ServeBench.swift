import CardScanClient
import Foundation

/// `cardscan-bench serve DIR [--soak SECONDS]`: `cardscan serve` against a `cardscan scan FILE`
/// process per card and against `cardscan scan --jobs N DIR`, in one run, on the same photos.
///
/// Prints, for 1, 2 and 8 concurrent clients: latency p50 and p99 per card and cards/s; for one
/// client, the latency against the card's own decode + detect + OCR + parse from `timingsMs`; and,
/// with --soak, the service's RSS at the start and end of that many seconds at full load.
enum ServeBench {
    static let binary = ".build/release/cardscan"

    struct Level {
        var clients: Int
        var latencies: [Double] = []
        var stageSums: [Double] = []
        var seconds = 0.0
        var failures = 0
        var cardsPerSecond: Double { Double(latencies.count) / max(seconds, 1e-9) }
    }

    static func run(_ dir: String, soakSeconds: Int) async throws {
        let files = jpegFiles(in: dir)
        guard !files.isEmpty else { print("no JPEG files in \(dir)"); return }
        let photos = try files.map { [UInt8](try Data(contentsOf: URL(fileURLWithPath: $0))) }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let socket = "/tmp/cardscan-bench-\(getpid()).sock"
        let service = Process()
        service.executableURL = URL(fileURLWithPath: binary)
        service.arguments = ["serve", "--socket", socket, "--queue", "32"]
        service.standardError = FileHandle.nullDevice
        try service.run()
        defer { if service.isRunning { kill(service.processIdentifier, SIGTERM); service.waitUntilExit() } }
        let client = CardScanClient(socketPath: socket)
        let ready = ContinuousClock.now
        while (try? await client.health()) == nil { try await Task.sleep(for: .milliseconds(20)) }
        print(String(format: "service ready %.0f ms after launch (engines loaded before the socket opens)", (ContinuousClock.now - ready).milliseconds))
        _ = try await client.scan(photos[0])  // the first request's one-off costs (libphonenumber's metadata)
        print("photos: \(files.count) in \(dir); \(cores) cores; service with \(cores) workers")
        // The batch anchor runs before and after the levels; the faster run counts (the stricter comparison).
        let batchBefore = batchSeconds(dir)
        print("clients  serve p50 ms  p99 ms  cards/s  | process-per-card p50 ms  p99 ms  cards/s")
        var levels: [Level] = []
        for clients in [1, 2, 8] {
            let served = try await serveLevel(client, photos: photos, clients: clients)
            let processes = processLevel(files, clients: clients)
            levels.append(served)
            print(String(format: "%7d  %12.1f  %6.1f  %7.2f  | %23.1f  %6.1f  %7.2f", clients,
                         percentile(served.latencies, 0.5), percentile(served.latencies, 0.99), served.cardsPerSecond,
                         percentile(processes.latencies, 0.5), percentile(processes.latencies, 0.99), processes.cardsPerSecond)
                  + (served.failures > 0 ? "  (\(served.failures) failed)" : ""))
        }
        report(levels, files: files, batch: min(batchBefore, batchSeconds(dir)), cores: cores)
        if soakSeconds > 0 { try await soak(client, pid: service.processIdentifier, photos: photos, seconds: soakSeconds) }
    }

    static func report(_ levels: [Level], files: [String], batch: Double, cores: Int) {
        let one = levels[0]
        let ratios = zip(one.latencies, one.stageSums).map { $0 / max($1, 1e-9) }
        print(String(format: "one client: p50 latency %.1f ms against p50 decode+detect+ocr+parse %.1f ms; per card, latency / stages: median %.3f, max %.3f (target <= 1.2)",
                     percentile(one.latencies, 0.5), percentile(one.stageSums, 0.5), percentile(ratios, 0.5), ratios.max() ?? 0))
        let batchRate = Double(files.count) / batch
        print(String(format: "cardscan scan --jobs %d DIR (faster of a run before and after): %.2f s, %.2f cards/s", cores, batch, batchRate))
        for level in levels.dropFirst() {
            print(String(format: "%d clients: %.2f cards/s = %.1f%% of the batch's (target >= 90%%)",
                         level.clients, level.cardsPerSecond, 100 * level.cardsPerSecond / batchRate))
        }
    }

    /// Every photo once, `clients` requests at a time.
    static func serveLevel(_ client: CardScanClient, photos: [[UInt8]], clients: Int) async throws -> Level {
        let next = Counter()
        let start = ContinuousClock.now
        let results = try await withThrowingTaskGroup(of: [(Double, Double, Bool)].self) { group in
            for _ in 0..<clients {
                group.addTask {
                    var mine: [(Double, Double, Bool)] = []
                    while let index = next.take(below: photos.count) {
                        let t = ContinuousClock.now
                        let answer = try await client.scan(photos[index])
                        let latency = (ContinuousClock.now - t).milliseconds
                        mine.append((latency, stageSum(answer.json), answer.status == 200))
                    }
                    return mine
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        var level = Level(clients: clients)
        level.seconds = (ContinuousClock.now - start).milliseconds / 1000
        level.latencies = results.map(\.0)
        level.stageSums = results.map(\.1)
        level.failures = results.filter { !$0.2 }.count
        return level
    }

    /// decode + detect + ocr + parse from the record's timingsMs.
    static func stageSum(_ record: [String: Any]?) -> Double {
        let timings = record?["timingsMs"] as? [String: Any] ?? [:]
        return ["decode", "detect", "ocr", "parse"].reduce(0) { $0 + ((timings[$1] as? NSNumber)?.doubleValue ?? 0) }
    }

    /// Every photo once through its own `cardscan scan FILE` process, `clients` at a time.
    static func processLevel(_ files: [String], clients: Int) -> Level {
        let next = Counter()
        let latencies = Latencies()
        let start = ContinuousClock.now
        DispatchQueue.concurrentPerform(iterations: clients) { _ in
            while let index = next.take(below: files.count) {
                let t = ContinuousClock.now
                runQuietly(binary, ["scan", files[index]])
                latencies.add((ContinuousClock.now - t).milliseconds)
            }
        }
        var level = Level(clients: clients)
        level.seconds = (ContinuousClock.now - start).milliseconds / 1000
        level.latencies = latencies.all
        return level
    }

    static func batchSeconds(_ dir: String) -> Double {
        let t = ContinuousClock.now
        runQuietly(binary, ["scan", dir])
        return (ContinuousClock.now - t).milliseconds / 1000
    }

    static func runQuietly(_ executable: String, _ arguments: [String]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try? process.run()
        process.waitUntilExit()
    }

    /// Full load (8 clients, photos over and over) for `seconds`; the service's RSS along the way.
    static func soak(_ client: CardScanClient, pid: Int32, photos: [[UInt8]], seconds: Int) async throws {
        let startRSS = rss(pid)
        print(String(format: "soak: %d s at full load (8 clients); service RSS at start %.1f MB", seconds, startRSS))
        let end = ContinuousClock.now + .seconds(seconds)
        let count = Counter()
        let failures = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var index = 0
                    while ContinuousClock.now < end {
                        let answer = try await client.scan(photos[index % photos.count])
                        _ = (answer.status == 200 ? count : failures).take(below: Int.max)
                        index += 1
                    }
                }
            }
            group.addTask {
                var minute = 1
                while ContinuousClock.now + .seconds(60) < end {
                    try await Task.sleep(for: .seconds(60))
                    print(String(format: "soak: after %d min, RSS %.1f MB", minute, rss(pid)))
                    minute += 1
                }
            }
            try await group.waitForAll()
        }
        print(String(format: "soak: %d cards (%d failed); service RSS at start %.1f MB, at end %.1f MB (x%.3f), peak %.1f MB",
                     count.value, failures.value, startRSS, rss(pid), rss(pid) / max(startRSS, 1e-9), rss(pid, field: "VmHWM")))
    }

    /// A process's resident memory in MB, from /proc.
    static func rss(_ pid: Int32, field: String = "VmRSS") -> Double {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
              let kb = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) }) else { return 0 }
        return kb / 1024
    }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((Double(sorted.count) * p).rounded(.up)) - 1
        return sorted[min(sorted.count - 1, max(0, rank))]
    }

    /// Latencies gathered from several threads.
    final class Latencies: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Double] = []
        var all: [Double] { lock.withLock { values } }
        func add(_ value: Double) { lock.withLock { values.append(value) } }
    }

    /// A shared counter handing out indices.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var n = 0
        var value: Int { lock.withLock { n } }
        func take(below limit: Int) -> Int? {
            lock.withLock {
                guard n < limit else { return nil }
                n += 1
                return n - 1
            }
        }
    }
}
