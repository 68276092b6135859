import Foundation

/// Where the project's fixtures and the shared evaluation material are, for tests.
public enum TestPaths {
    /// The package root (the folder holding Package.swift).
    public static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }()

    public static var cards: URL { packageRoot.appendingPathComponent("Fixtures/Cards") }

    /// One photo per condition card finding must handle (scripts/make_photos.py --conditions).
    public static var conditions: URL { packageRoot.appendingPathComponent("Fixtures/Conditions") }

    /// ../shared beside the checkout, when present (CI and developers have it).
    public static var shared: URL? {
        let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    /// The `cardscan` binary built alongside the tests.
    public static var binary: URL {
        // make sanitize points the tests at its own, sanitized build.
        if let path = ProcessInfo.processInfo.environment["CARDSCAN_BINARY"] { return URL(fileURLWithPath: path) }
        let candidates = [".build/debug/cardscan", ".build/release/cardscan"].map { packageRoot.appendingPathComponent($0) }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }

    public static func bytes(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }
}

/// One expected record of Fixtures/Cards/expected.jsonl.
public struct ExpectedCard: Decodable, Sendable {
    public struct ExpectedPhone: Decodable, Sendable {
        public let type: String
        public let printed: String
        public let e164: String
    }
    public struct ExpectedAddress: Decodable, Sendable {
        public let street: String
        public let city: String
        public let postalCode: String
    }
    public let file: String
    public let name: String
    public let title: String
    public let organization: String
    public let emails: [String]
    public let urls: [String]
    public let phones: [ExpectedPhone]
    public let address: ExpectedAddress?
    public let orientation: Int
    public let metadata: [String]
    public let layout: String

    public static func all() throws -> [ExpectedCard] {
        let text = try String(contentsOf: TestPaths.cards.appendingPathComponent("expected.jsonl"), encoding: .utf8)
        return try text.split(separator: "\n").map { try JSONDecoder().decode(ExpectedCard.self, from: Data($0.utf8)) }
    }
}

/// Runs a program and collects its output.
public struct ProcessResult: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String
}

public func runProcess(_ executable: URL, _ arguments: [String], stdin: Data? = nil,
                       environment: [String: String]? = nil) throws -> ProcessResult {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let environment { process.environment = environment }
    let out = Pipe(), err = Pipe(), input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(stdin) }
    try input.fileHandleForWriting.close()
    // Read both pipes to the end before waiting, so a full pipe never blocks the child.
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ProcessResult(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                         stderr: String(decoding: errData, as: UTF8.self))
}

/// One record of Fixtures/Conditions/truth.jsonl: the card's fields and its corners in the photo.
public struct ConditionCard: Decodable, Sendable {
    public struct Phone: Decodable, Sendable {
        public let type: String
        public let e164: String
    }
    public let file: String
    public let name: String
    public let organization: String
    public let emails: [String]
    public let phones: [Phone]
    public let conditions: [String]
    /// Corners in the upright photo, clockwise from the card's own top-left.
    public let card_quad: [[Double]]

    public static func all() throws -> [ConditionCard] {
        let text = try String(contentsOf: TestPaths.conditions.appendingPathComponent("truth.jsonl"), encoding: .utf8)
        return try text.split(separator: "\n").map { try JSONDecoder().decode(ConditionCard.self, from: Data($0.utf8)) }
    }
}

/// Intersection over union of two convex quadrilaterals, both clipped to a w x h frame first
/// (a card cut off by the frame is compared on its visible part).
public func overlap(_ a: [[Double]], _ b: [[Double]], width: Double, height: Double) -> Double {
    typealias P = (x: Double, y: Double)
    func area(_ p: [P]) -> Double {
        guard p.count >= 3 else { return 0 }
        var s = 0.0
        for i in 0..<p.count { let q = p[(i + 1) % p.count]; s += p[i].x * q.y - q.x * p[i].y }
        return abs(s) / 2
    }
    func oriented(_ p: [P]) -> [P] {
        var s = 0.0
        for i in 0..<p.count { let q = p[(i + 1) % p.count]; s += p[i].x * q.y - q.x * p[i].y }
        return s > 0 ? p : p.reversed()
    }
    func clip(_ subject: [P], _ clipper: [P]) -> [P] {
        var out = oriented(subject)
        let c = oriented(clipper)
        for i in 0..<c.count {
            let a = c[i], b = c[(i + 1) % c.count]
            let input = out
            out = []
            guard !input.isEmpty else { break }
            func inside(_ p: P) -> Bool { (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) >= 0 }
            func cross(_ p: P, _ q: P) -> P {
                let d1 = (x: q.x - p.x, y: q.y - p.y), d2 = (x: b.x - a.x, y: b.y - a.y)
                let den = d1.x * d2.y - d1.y * d2.x
                guard den != 0 else { return q }
                let t = ((a.x - p.x) * d2.y - (a.y - p.y) * d2.x) / den
                return (p.x + t * d1.x, p.y + t * d1.y)
            }
            for j in 0..<input.count {
                let p = input[(j + input.count - 1) % input.count], q = input[j]
                if inside(q) {
                    if !inside(p) { out.append(cross(p, q)) }
                    out.append(q)
                } else if inside(p) {
                    out.append(cross(p, q))
                }
            }
        }
        return out
    }
    let frame: [P] = [(0, 0), (width, 0), (width, height), (0, height)]
    let pa = clip(a.map { ($0[0], $0[1]) }, frame), pb = clip(b.map { ($0[0], $0[1]) }, frame)
    let inter = area(clip(pa, pb))
    let union = area(pa) + area(pb) - inter
    return union > 0 ? inter / union : 0
}

/// A seeded generator (a 64-bit linear congruential step), so test data is the same every run.
public struct SeededGenerator: RandomNumberGenerator {
    public var state: UInt64
    public init(state: UInt64) { self.state = state }
    public mutating func next() -> UInt64 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return state
    }

    /// A w x h grid of random values 0...255.75 in quarter steps (a plane for the image kernels' tests).
    public static func grid(_ w: Int, _ h: Int, seed: UInt64) -> [Float] {
        var g = SeededGenerator(state: seed)
        return (0..<(w * h)).map { _ in Float(Int.random(in: 0...255, using: &g)) + Float(Int.random(in: 0...3, using: &g)) * 0.25 }
    }
}

/// What this processor can do, for tests of kernels that have an AVX2 copy: where it has no AVX2,
/// comparing the AVX2 kernel with the plain one compares the plain one with itself, so such a
/// test reports itself skipped rather than passed.
public enum TestProcessor {
    public static let hasAVX2: Bool = {
        #if arch(x86_64)
        guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return false }
        return info.split(separator: "\n").contains { $0.hasPrefix("flags") && $0.split(separator: " ").contains("avx2") }
        #else
        return false
        #endif
    }()
}
