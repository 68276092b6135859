import FileAccess
import Foundation
import Logging

/// Diagnostics on stderr through swift-log: one short line each, "cardscan: ...". Messages name
/// files and say what to do; they never carry text read from a card.
enum Diagnostics {
    private static let setUp: Bool = {
        LoggingSystem.bootstrap { label in LineLogHandler(label: label) }
        return true
    }()

    static var logger: Logger {
        _ = setUp
        return Logger(label: "cardscan")
    }

    /// Raises the level to `.info` (--verbose).
    static func setVerbose(_ verbose: Bool) {
        LineLogHandler.level.withLock { $0 = verbose ? .info : .warning }
    }

    static func error(_ message: String) { logger.error("\(message)") }
    static func warning(_ message: String) { logger.warning("\(message)") }
    static func info(_ message: String) { logger.info("\(message)") }
    /// What a command did, said on stderr whatever the level ("exported 12 contacts as vcard3 to out.vcf").
    static func notice(_ message: String) {
        _ = try? SystemFile.writeAll(STDERR_FILENO, Array(("cardscan: " + DisplayText.escaping(message) + "\n").utf8), name: "standard error")
    }
}

/// A log handler printing "cardscan: message" lines to stderr.
struct LineLogHandler: LogHandler {
    static let level = LockedValue(Logger.Level.warning)

    let label: String
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level {
        get { Self.level.withLock { $0 } }
        set { Self.level.withLock { $0 = newValue } }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let prefix = event.level >= .warning ? "cardscan: " : "cardscan: [\(event.level)] "
        // File names and option values may hold terminal controls (ESC[2J ...): printed escaped.
        let fields = metadata.merging(event.metadata ?? [:]) { $1 }.sorted { $0.key < $1.key }
        let details = fields.isEmpty ? "" : " (" + fields.map { "\($0.key)=\($0.value)" }.joined(separator: ", ") + ")"
        let line = prefix + DisplayText.escaping(event.message.description + details) + "\n"
        _ = try? SystemFile.writeAll(STDERR_FILENO, Array(line.utf8), name: "standard error")
    }
}

/// A value behind a lock.
final class LockedValue<Value>: @unchecked Sendable {
    // Safe: `value` is only touched with `lock` held.
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
