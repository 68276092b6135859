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

    /// ../shared beside the checkout, when present (CI and developers have it).
    public static var shared: URL? {
        let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    /// The `cardscan` binary built alongside the tests.
    public static var binary: URL {
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
