import CardOCR
import ContactParser
import Foundation
import ImageIngest
import MetadataStripper

/// How a scanner is set up: once, then used for any number of images.
public struct ScanConfiguration: Sendable {
    /// Tesseract languages, "eng" or "eng+deu".
    public var languages: String = "eng"
    /// Parallel workers, each with its own OCR engine. Default: the number of cores.
    public var workers: Int = ProcessInfo.processInfo.activeProcessorCount
    /// Limits against hostile input.
    public var limits: ImageLimits = ImageLimits()
    /// The region for national phone numbers and addresses when the card gives no clue (ISO 3166,
    /// e.g. "US"); by default the environment locale's (LC_ALL, LC_MESSAGES or LANG), nil when that
    /// names none: then national numbers are kept as printed, without an E.164 form.
    public var fallbackRegion: String? = ScanConfiguration.localeRegion()
    /// What `fallbackRegion` came from, for the record: "locale" or "option".
    public var fallbackRegionSource: String = "locale"
    /// Long side of the straightened card handed to OCR.
    public var ocrLongSide: Int = 1024
    /// With the default English OCR, read German-speaking cards (by the region the card itself
    /// shows) a second time with German language data when it is installed (tesseract-ocr-deu).
    public var germanSecondReading: Bool = true
    /// Find the card in the photo and straighten it; false reads the whole frame (scans already
    /// cropped to the card).
    public var detectCard: Bool = true
    /// Tesseract page segmentation.
    public var pageSegmentation: PageSegmentation = .singleBlock
    /// Where Tesseract's language files are; nil to search TESSDATA_PREFIX and the usual places.
    public var tessdataPath: String?
    /// When set, a sanitized copy (no metadata) of each scanned JPEG or PNG is written here, under
    /// the input's file name ("stdin-N.jpg" for standard input).
    public var stripDirectory: String?

    public init() {}

    /// The region of the environment's locale ("en_GB.UTF-8" -> "GB"), nil for C/POSIX or none.
    public static func localeRegion(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        for key in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment[key], !value.isEmpty else { continue }
            let base = value.split(separator: ".").first.map(String.init) ?? value
            let parts = base.split(separator: "@").first.map(String.init)?.split(separator: "_") ?? []
            guard parts.count >= 2, let code = parts.last, code.count == 2, code.allSatisfy(\.isLetter) else { return nil }
            return code.uppercased()
        }
        return nil
    }
}

/// One input of a batch: a file to read, or bytes already in memory (stdin).
public enum ScanInput: Sendable {
    case file(String)
    case bytes([UInt8], source: String)
    /// An input that failed before it could be scanned (unreadable folder entry, oversized stream image).
    case failure(ScanError, source: String)

    public var source: String {
        switch self {
        case .file(let path): return path
        case .bytes(_, let source): return source
        case .failure(_, let source): return source
        }
    }
}

/// Scans business-card photos into contact records, entirely on this machine.
///
/// ```swift
/// let scanner = try CardScanner()
/// let record = scanner.scan(file: "card.jpg")
/// print(record.contact?.emails ?? [])
/// ```
public final class CardScanner: Sendable {
    public let configuration: ScanConfiguration
    private let pool: EnginePool
    /// Engines with German language data, for the second reading of German-speaking cards.
    private let germanPool: EnginePool?

    /// Creates a scanner; checks that the OCR language data is installed.
    /// - Throws: `ScanError` (code "missing-language") naming the missing file and its package.
    public init(configuration: ScanConfiguration = ScanConfiguration()) throws(ScanError) {
        self.configuration = configuration
        pool = EnginePool(capacity: max(1, configuration.workers)) { () throws(OCRError) -> OCREngine in
            try OCREngine(languages: configuration.languages, dataPath: configuration.tessdataPath,
                          pageSegmentation: configuration.pageSegmentation)
        }
        // Create the first engine now, so a missing language is reported before any input is read.
        do {
            try pool.prewarm()
        } catch {
            throw ScanError(code: error.code.rawValue, message: error.message)
        }
        if configuration.germanSecondReading, configuration.languages == "eng",
           (try? OCREngine.locateTessdata(languages: "eng+deu", explicit: configuration.tessdataPath)) != nil {
            germanPool = EnginePool(capacity: max(1, configuration.workers)) { () throws(OCRError) -> OCREngine in
                try OCREngine(languages: "eng+deu", dataPath: configuration.tessdataPath,
                              pageSegmentation: configuration.pageSegmentation)
            }
        } else {
            germanPool = nil
        }
    }

    /// Regions whose cards are read a second time with German language data (ß, umlauts).
    static let germanRegions: Set<String> = ["DE", "AT", "CH", "LI"]

    /// Scans one image file.
    public func scan(file path: String) -> ScanRecord {
        let clock = ContinuousClock()
        let start = clock.now
        let bytes: [UInt8]
        do {
            bytes = try FileReading.read(path, maxBytes: configuration.limits.maxBytes)
        } catch {
            return .failure(path, error)
        }
        var record = scan(bytes: bytes, source: path)
        record.addTotal(clock.now - start)
        return record
    }

    /// Scans one image held in memory; `source` names it in the record and in errors.
    public func scan(bytes: [UInt8], source: String) -> ScanRecord {
        let clock = ContinuousClock()
        let start = clock.now
        var timings: [(String, Double)] = []
        let encoded: EncodedImage
        do {
            encoded = try EncodedImage(bytes: bytes, source: source, limits: configuration.limits)
        } catch {
            return .failure(source, ScanError(code: error.code.rawValue, message: error.description))
        }
        var t = clock.now
        let metadata = MetadataReport.read(bytes)
        var warnings: [String] = []
        if let dir = configuration.stripDirectory {
            do {
                try writeSanitizedCopy(bytes, source: source, format: encoded.format, into: dir)
            } catch {
                warnings.append("strip: \(error.message)")
            }
        }
        let stripMs = (clock.now - t).milliseconds

        let prepared: PreparedCard
        do {
            prepared = try CardPreparer.prepare(encoded, longSide: configuration.ocrLongSide, detectCard: configuration.detectCard)
        } catch {
            return .failure(source, ScanError(code: error.code.rawValue, message: error.description))
        }
        timings.append(("decode", prepared.decodeMs))
        timings.append(("strip", stripMs))
        timings.append(("detect", prepared.detectMs))

        t = clock.now
        let page: OCRPage
        let rotation: Int
        do {
            (page, rotation) = try pool.withEngine { engine throws(OCRError) in try engine.recognizeUpright(prepared.image) }
        } catch {
            return .failure(source, ScanError(code: error.code.rawValue, message: "\(source): \(error.message)"))
        }
        timings.append(("ocr", (clock.now - t).milliseconds))

        t = clock.now
        let parser = ContactParser(fallbackRegion: configuration.fallbackRegion, source: configuration.fallbackRegionSource)
        var contact = parser.parse(lines: page.lines.map(Self.textLine))
        var parseMs = (clock.now - t).milliseconds

        // A German-speaking card: read it again with German language data, which knows ß and the
        // umlauts English reads as "B", "f" or bare vowels; keep the English reading's fields
        // where the German one found none.
        if let germanPool, let region = contact.region?.code, Self.germanRegions.contains(region) {
            t = clock.now
            if let german = try? germanPool.withEngine({ engine throws(OCRError) in try engine.recognize(prepared.image.rotated(clockwise: rotation)) }) {
                timings[timings.count - 1].1 += (clock.now - t).milliseconds
                t = clock.now
                contact = Self.merge(parser.parse(lines: german.lines.map(Self.textLine)), fallback: contact)
                parseMs += (clock.now - t).milliseconds
            }
        }
        timings.append(("parse", parseMs))

        var record = ScanRecord(source: source, status: .ok)
        record.contact = contact
        record.image = ImageSummary(format: encoded.format, width: encoded.uprightWidth, height: encoded.uprightHeight,
                                    orientation: encoded.orientation, ocrWidth: page.width,
                                    ocrHeight: page.height, cardDetected: prepared.cardDetected, card: prepared.placement,
                                    textRotation: rotation)
        record.metadata = metadata
        record.warnings = prepared.warnings + warnings
        timings.append(("total", (clock.now - start).milliseconds))
        record.timingsMs = timings
        return record
    }

    /// The fields of `primary`, with `fallback`'s where `primary` has none.
    static func merge(_ primary: Contact, fallback: Contact) -> Contact {
        var c = primary
        if c.name == nil { c.name = fallback.name }
        if c.title == nil { c.title = fallback.title }
        if c.organization == nil { c.organization = fallback.organization }
        if c.phones.isEmpty { c.phones = fallback.phones }
        if c.emails.isEmpty { c.emails = fallback.emails }
        if c.urls.isEmpty { c.urls = fallback.urls }
        if c.address == nil { c.address = fallback.address }
        for (key, value) in fallback.confidence where c.confidence[key] == nil { c.confidence[key] = value }
        return c
    }

    /// Writes the sanitized copy of a scanned photo (never over an existing file).
    func writeSanitizedCopy(_ bytes: [UInt8], source: String, format: ImageFormat, into dir: String) throws(ScanError) {
        let clean = try Sanitizer.strip(bytes: bytes, source: source)
        var name = (source as NSString).lastPathComponent
        if source.hasPrefix("-") {
            let n = source.hasPrefix("-#") ? String(source.dropFirst(2)) : "1"
            name = "stdin-\(n).\(format == .png ? "png" : "jpg")"
        }
        let target = (dir as NSString).appendingPathComponent(name)
        guard !FileManager.default.fileExists(atPath: target) else {
            throw ScanError(code: "write-failed", message: "\(target): already exists; the sanitized copy was not written")
        }
        try AtomicFile.write(clean, to: target)
    }

    static func textLine(_ line: OCRLine) -> TextLine {
        TextLine(text: line.text, confidence: line.confidence, height: line.textHeight, top: Double(line.box.top),
                 left: Double(line.box.left),
                 words: line.words.map { TextWord(text: $0.text, left: Double($0.box.left), right: Double($0.box.right), confidence: $0.confidence) })
    }

    /// Frees the OCR engines not in use (about 30 MB each); they are created again when needed.
    /// Call it before the process exits, so Tesseract's caches are released in order.
    public func releaseEngines() { pool.releaseIdle() }

    /// How many OCR engines this scanner has created so far (at most `workers`).
    public var enginesCreated: Int { pool.createdTotal }
}

extension ScanRecord {
    mutating func addTotal(_ duration: Duration) {
        if let i = timingsMs.firstIndex(where: { $0.0 == "total" }) {
            timingsMs[i].1 = duration.milliseconds
        }
    }
}

/// Reading input files: bounded, no temp files, errors as `ScanError`.
enum FileReading {
    static func read(_ path: String, maxBytes: Int) throws(ScanError) -> [UInt8] {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw ScanError(code: "unreadable", message: "\(path): no such file; check the path")
        }
        guard !isDir.boolValue else {
            throw ScanError(code: "unreadable", message: "\(path): is a directory, not an image file")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ScanError(code: "unreadable", message: "\(path): cannot be opened for reading; check its permissions")
        }
        defer { try? handle.close() }
        do {
            let data = try handle.read(upToCount: maxBytes + 1) ?? Data()
            guard data.count <= maxBytes else {
                throw ScanError(code: "too-large", message: "\(path): the file is over the limit of \(maxBytes) bytes; raise --max-bytes if it is genuine")
            }
            return [UInt8](data)
        } catch let error as ScanError {
            throw error
        } catch {
            throw ScanError(code: "unreadable", message: "\(path): cannot be read (\(error.localizedDescription))")
        }
    }
}

extension CardScanner {
    /// True when `head` (a file's first bytes) starts like an image format cardscan reads.
    public static func looksLikeImage(_ head: [UInt8]) -> Bool { ImageFormat.detect(head) != nil }
}

/// Splits a stream of concatenated images on standard input into inputs named "-#1", "-#2", ...
public final class ImageStreamSplitterBox {
    private let splitter: ImageStreamSplitter

    public init(handle: FileHandle, maxBytes: Int) {
        splitter = ImageStreamSplitter(handle: handle, maxBytes: maxBytes)
    }

    public func next() -> ScanInput? {
        switch splitter.next() {
        case nil: return nil
        case .image(let bytes)?: return .bytes(bytes, source: "-#\(splitter.position)")
        case .failure(let error)?: return .failure(ScanError(code: error.code.rawValue, message: error.description), source: error.source)
        }
    }
}

/// Tesseract's page segmentation modes (re-exported for users of `ScanConfiguration`).
public typealias PageSegmentation = CardOCR.PageSegmentation
