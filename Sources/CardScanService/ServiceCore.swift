import CardFormats
import CardScan
import Foundation
import Logging

/// What every connection shares: the configuration, the work queue, the scanners and the metrics.
/// Its methods that scan or strip run on the queue's worker threads.
final class ServiceCore: Sendable {
    let configuration: ServiceConfiguration
    let queue: WorkQueue
    let metrics = ServiceMetrics()
    let logger: Logger
    /// Set when the service stops: connections close after their answer.
    let stopping = Flag()
    /// The bytes of request bodies held now, against `heldBodyBytes`.
    let bodies: ByteBudget
    private let scanners: ScannerSet

    init(configuration: ServiceConfiguration, logger: Logger) throws(ServiceError) {
        self.configuration = configuration
        self.logger = logger
        bodies = ByteBudget(total: configuration.heldBodyBytes)
        scanners = try ScannerSet(configuration: configuration)
        queue = WorkQueue(workers: configuration.scan.workers, capacity: configuration.queueCapacity)
    }

    static let scanOptions: Set<String> = ["region", "lang", "format", "name"]
    static let stripOptions: Set<String> = ["orientation", "icc", "name"]

    /// A scan request checked before it is queued: the work to do, or the 400 that refuses it.
    func scanWork(query: RequestQuery) -> Result<ScanWork, AnswerError> {
        let unknown = query.unknown(among: Self.scanOptions)
        guard unknown.isEmpty else { return .failure(.badRequest("unknown option \(unknown[0]); /scan takes region, lang, format and name")) }
        var work = ScanWork(source: query["name"].map(Self.cleanName) ?? "upload")
        if let region = query["region"] {
            guard CardScanner.isKnownRegion(region) else {
                return .failure(.badRequest("region takes an ISO 3166 country code such as US, GB or DE"))
            }
            work.region = region.uppercased()
        }
        if let lang = query["lang"] {
            guard let languages = OCRLanguages(lang) else {
                return .failure(.badRequest("lang takes Tesseract language codes joined by '+', such as eng or eng+deu"))
            }
            work.languages = languages
        }
        switch query["format"] ?? "json" {
        case "json": work.vcard = false
        case "vcard": work.vcard = true
        default: return .failure(.badRequest("format is json or vcard"))
        }
        return .success(work)
    }

    /// Scans `bytes` (on a worker thread).
    func scan(_ bytes: [UInt8], _ work: ScanWork) -> ServiceAnswer {
        let scanner: CardScanner
        switch scanners.scanner(for: work.languages) {
        case .success(let found): scanner = found
        case .failure(let error): return .error(error.status, error.code, error.message)
        }
        let record = scanner.scan(bytes: bytes, source: work.source, region: work.region)
        metrics.scanned(record)
        if let error = record.error {
            // The file name and the error code only: never text read from a card.
            logger.info("scan failed", metadata: ["source": "\(work.source)", "code": "\(error.code.rawValue)"])
            return .json(ServiceAnswer.status(for: error), record.json())
        }
        if work.vcard, let contact = record.contact, let card = VCardWriter.card(contact) {
            return ServiceAnswer(status: 200, contentType: "text/vcard; charset=utf-8", body: Array(card.utf8))
        }
        return .json(200, record.json())
    }

    /// A strip request checked before it is queued.
    func stripWork(query: RequestQuery) -> Result<StripWork, AnswerError> {
        let unknown = query.unknown(among: Self.stripOptions)
        guard unknown.isEmpty else { return .failure(.badRequest("unknown option \(unknown[0]); /strip takes orientation, icc and name")) }
        var work = StripWork(source: query["name"].map(Self.cleanName) ?? "upload")
        switch query["orientation"] ?? "keep" {
        case "keep": work.keepOrientation = true
        case "drop": work.keepOrientation = false
        default: return .failure(.badRequest("orientation is keep or drop"))
        }
        switch query["icc"] ?? "drop" {
        case "keep": work.keepICC = true
        case "drop": work.keepICC = false
        default: return .failure(.badRequest("icc is keep or drop"))
        }
        return .success(work)
    }

    /// The image without its metadata (on a worker thread).
    func strip(_ bytes: [UInt8], _ work: StripWork) -> ServiceAnswer {
        do {
            let clean = try Sanitizer.strip(bytes: bytes, source: work.source, keepOrientation: work.keepOrientation, keepICC: work.keepICC)
            let type = clean.starts(with: [0x89, 0x50, 0x4E, 0x47]) ? "image/png" : "image/jpeg"
            return ServiceAnswer(status: 200, contentType: type, body: clean)
        } catch {
            return .error(ServiceAnswer.status(for: error), error.code.rawValue, error.message)
        }
    }

    /// The service's state for `GET /health`.
    func health() -> ServiceAnswer {
        let load = queue.load
        return .json(200, .object([
            ("status", .string("ok")), ("workers", .integer(queue.workers)),
            ("queue", .object([("waiting", .integer(load.waiting)), ("running", .integer(load.running)),
                               ("capacity", .integer(queue.capacity))])),
            ("uploads", .object([("heldBytes", .integer(bodies.inUse)), ("capacity", .integer(bodies.total))])),
            ("lockdown", .string(ScanService.lockdownState)),
        ]))
    }

    /// A name for the record and errors: one line, at most 200 characters.
    static func cleanName(_ name: String) -> String {
        let line = String(name.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) })
        return line.isEmpty ? "upload" : String(line.prefix(200))
    }

    /// Frees the engines, in order, before the process exits.
    func releaseEngines() { scanners.release() }
}

/// A refusal decided before any work: status, code and message.
struct AnswerError: Error, Sendable {
    var status: Int
    var code: String
    var message: String
    static func badRequest(_ message: String) -> AnswerError { AnswerError(status: 400, code: "bad-request", message: message) }
}

struct ScanWork: Sendable {
    var source: String
    var region: String?
    var languages: OCRLanguages?
    var vcard = false
}

struct StripWork: Sendable {
    var source: String
    var keepOrientation = true
    var keepICC = false
}

/// One scanner per language set asked for; the configuration's own is created (and its engines
/// loaded) at start, others on first use, up to `maxLanguageSets`.
final class ScannerSet: @unchecked Sendable {
    private let lock = NSLock()
    private var scanners: [String: CardScanner]
    private let configuration: ServiceConfiguration
    private let defaultKey: String

    init(configuration: ServiceConfiguration) throws(ServiceError) {
        self.configuration = configuration
        defaultKey = configuration.scan.languages.description
        do {
            let scanner = try CardScanner(configuration: configuration.scan)
            try scanner.prewarm(engines: configuration.scan.workers)
            scanners = [defaultKey: scanner]
        } catch {
            throw ServiceError(.engineFailed, error.message)
        }
    }

    func scanner(for languages: OCRLanguages?) -> Result<CardScanner, AnswerError> {
        let key = languages?.description ?? defaultKey
        lock.lock()
        defer { lock.unlock() }
        if let scanner = scanners[key] { return .success(scanner) }
        guard scanners.count < configuration.maxLanguageSets, let languages else {
            return .failure(AnswerError(status: 400, code: "too-many-languages",
                                        message: "this service keeps \(configuration.maxLanguageSets) language sets loaded; use one of \(scanners.keys.sorted().joined(separator: ", "))"))
        }
        var scan = configuration.scan
        scan.languages = languages
        do {
            let scanner = try CardScanner(configuration: scan)
            scanners[key] = scanner
            return .success(scanner)
        } catch {
            return .failure(AnswerError(status: 400, code: error.code.rawValue, message: error.message))
        }
    }

    func release() {
        lock.lock()
        let all = Array(scanners.values)
        lock.unlock()
        all.forEach { $0.releaseEngines() }
    }
}

/// A flag set once, read from any thread.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

/// Bytes held against a total, from any thread.
final class ByteBudget: @unchecked Sendable {
    private let lock = NSLock()
    private var used = 0
    let total: Int
    init(total: Int) { self.total = total }

    /// Takes `bytes` when they fit; false otherwise (nothing taken).
    func reserve(_ bytes: Int) -> Bool {
        lock.withLock {
            guard used + bytes <= total else { return false }
            used += bytes
            return true
        }
    }

    func release(_ bytes: Int) { lock.withLock { used = max(0, used - bytes) } }
    var inUse: Int { lock.withLock { used } }
}
