import CardCodes
import CardDetection
import CardFormats
import CardOCR
import ContactParser
import FileAccess
import Foundation
import ImageIngest
import MetadataStripper
import Synchronization

/// How a scanner is set up: once, then used for any number of images.
public struct ScanConfiguration: Sendable {
    /// Tesseract languages, "eng" or "eng+deu".
    public var languages: OCRLanguages = .english
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
    /// With the default English OCR, read a card from a country of another language (by the region
    /// the card itself shows) a second time with that language's data when it is installed
    /// (tesseract-ocr-deu, -fra, -spa, -ita, -por, -nld, -pol, -swe, -dan, -nor, -fin, -ces ...):
    /// it knows the letters English reads wrongly (ß, umlauts, accents, å, ø).
    public var nativeSecondReading: Bool = true
    /// Read a card printed mainly in Japanese, Chinese or Korean again in its own script (with
    /// English languages and `nativeSecondReading` only; see docs/cjk.md).
    public var cardScripts: Bool = true
    /// Read a card whose first reading is poor and which has colour in it a second time in colour
    /// contrast (`CardScanner.withColourReading`): coloured text on a coloured ground of the same gray.
    public var colourReading: Bool = true
    /// Read again, alone, the rows of print the card's reading left out (`UnreadInk`): Tesseract's
    /// layout analysis drops a line now and then, most often one set much larger than the rest
    /// (a name in capitals over lines of small type).
    public var unreadLines: Bool = true
    /// Read a card whose reading holds little contact data and whose print is slanted (an outline
    /// that took the page under the card, a card found only as the whole frame) again levelled
    /// (`CardScanner.levelled`, `TextSkew`).
    public var levelSlantedPrint: Bool = true
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
    /// When set, two pictures per photo are written here for a person to see why a card read
    /// badly: NAME.card.png (the straightened card as OCR read it) and NAME.overlay.png (the
    /// photo's preview with the outlines detection weighed and the one it chose). They hold the
    /// card's text as pixels: written only when asked, mode 0600, metadata-free, never over a file.
    public var debugDirectory: String?
    /// Which codes are looked for on the card; their data wins over OCR for the fields it holds.
    public var codes: CodeScanning = .qr
    /// Keep a small JPEG of each straightened card in its record (`ScanRecord.cardPicture`), for
    /// the review page (`ReportPage`). About 40-80 KB per record.
    public var cardPictures = false
    /// Keep the OCR text in the record (`ScanRecord.text`; never in the JSON record), for the
    /// contact book's `--keep-text`.
    public var keepText = false
    /// Give each record the SHA-256 of its photo (`ScanRecord.fingerprint`; never in the JSON
    /// record), so the contact book stores a photo once however often it is scanned.
    public var fingerprints = false

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

/// Which codes a scanner looks for on a card (and, when no card outline was found, in the photo).
public enum CodeScanning: String, Sendable, CaseIterable {
    /// None: OCR alone (saves 3-7 ms per card).
    case off
    /// QR codes (the default).
    case qr
    /// Every symbology zbar reads: QR and bar codes (EAN, UPC, Code 128, Code 39, ...).
    case all

    var readerOptions: CodeReader.Options? {
        switch self {
        case .off: return nil
        case .qr: return CodeReader.Options(qrOnly: true)
        case .all: return CodeReader.Options(qrOnly: false)
        }
    }
}

/// One input of a batch: a file to read, or bytes already in memory (stdin).
public enum ScanInput: Sendable {
    case file(String)
    /// A file named by its bytes (Linux names need not be UTF-8); the record names it escaped.
    case path(FilePathBytes)
    case bytes([UInt8], source: String)
    /// An input that failed before it could be scanned (unreadable folder entry, oversized stream image).
    case failure(ScanError, source: String)

    public var source: String {
        switch self {
        case .file(let path): return FilePathBytes(path).display
        case .path(let path): return path.display
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
    /// Engines for the second reading in a card's own language, created when first needed.
    let nativePools: NativeLanguagePools?
    /// The decode memory all workers share (`limits.maxDecodeBytes`).
    private let decodeBudget: DecodeBudget

    /// Creates a scanner; checks that the OCR language data is installed.
    /// - Throws: `ScanError` (code "missing-language") naming the missing file and its package.
    public init(configuration: ScanConfiguration = ScanConfiguration()) throws(ScanError) {
        self.configuration = configuration
        decodeBudget = DecodeBudget(total: configuration.limits.maxDecodeBytes)
        pool = EnginePool(capacity: max(1, configuration.workers)) { () throws(OCRError) -> OCREngine in
            try OCREngine(languages: configuration.languages, dataPath: configuration.tessdataPath,
                          pageSegmentation: configuration.pageSegmentation)
        }
        // A missing language is reported now, before any input is read. The first engine (about
        // 10 ms) and then the parser's tables (about 70 ms) are made on one background thread
        // while the first photo is decoded and its card found: one thread, so that on two cores
        // they do not take turns with the photo's own work.
        do {
            _ = try OCREngine.locateTessdata(languages: configuration.languages, explicit: configuration.tessdataPath)
        } catch {
            throw ScanError(error)
        }
        pool.prewarmInBackground(then: { ContactParser.warmUp() })
        nativePools = configuration.nativeSecondReading && configuration.languages.isEnglishOnly
            ? NativeLanguagePools(configuration: configuration) : nil
    }

    /// The first engine and the parser's tables, made in the background from `init`, are
    /// finished before the scanner is gone (a process that ends with it ends after them).
    deinit { pool.waitForBackgroundWork() }

    /// Scans one image file.
    public func scan(file path: String) -> ScanRecord { scan(path: FilePathBytes(path)) }

    /// Scans one image file named by its bytes. Only a regular file is read (a FIFO or a device
    /// is refused without blocking), and never more than the byte limit of it.
    public func scan(path: FilePathBytes) -> ScanRecord {
        let clock = ContinuousClock()
        let start = clock.now
        // Before the file is read, its bytes and as much again (decoding takes at least about
        // that: 2/3 of it for an uncompressed TIFF, far more for a JPEG) are held against the
        // shared budget, so that a second large file waits unread rather than in memory.
        let size = min(Int((try? SystemFile.status(path))?.size ?? 0), configuration.limits.maxBytes)
        if size > configuration.limits.maxDecodeBytes {
            return .failure(path.display, ScanError(.tooLarge, "\(path.display): is \(size >> 20) MB; its bytes are held while it is decoded, over the limit of \(configuration.limits.maxDecodeBytes >> 20) MB (raise --max-decode-megabytes if it is genuine)"))
        }
        let advance = 2 * size
        decodeBudget.hold(advance)
        defer { decodeBudget.release(advance, endingHold: true) }
        let bytes: [UInt8]
        do {
            bytes = try SystemFile.readRegularFile(path, maxBytes: configuration.limits.maxBytes)
        } catch {
            return .failure(path.display, ScanError(error))
        }
        var record = scan(bytes: bytes, source: path.display, region: nil, held: advance)
        record.addTotal(clock.now - start)
        return record
    }

    /// Scans one image held in memory; `source` names it in the record and in errors.
    /// `region` (an ISO 3166 code) replaces the configuration's fallback region for this image.
    public func scan(bytes: [UInt8], source: String, region: String? = nil) -> ScanRecord {
        scan(bytes: bytes, source: source, region: region, held: nil)
    }

    /// `held`: the bytes `scan(path:)` holds against the budget for the file already (nil: none).
    func scan(bytes: [UInt8], source: String, region: String?, held: Int?) -> ScanRecord {
        let clock = ContinuousClock()
        let start = clock.now
        var timings = StageTimings()
        var sideOutputs = SideOutputs()
        let encoded: EncodedImage
        var prepared: PreparedCard
        var reading: Reading
        do {
            encoded = try EncodedImage(bytes: bytes, source: source, limits: configuration.limits)
            let t = clock.now
            let metadata = MetadataReport.read(encoded)
            if let dir = configuration.stripDirectory { sideOutputs.attempt { () throws(ScanError) in try writeSanitizedCopy(encoded, into: dir) } }
            timings[.metadata] = (clock.now - t).milliseconds
            prepared = try prepare(encoded, held: held)
            timings[.decode] = prepared.decodeMs
            timings[.detect] = prepared.detectMs
            reading = try withColourReading(try read(&prepared, of: encoded, timings: &timings), of: prepared,
                                            encoded: encoded, timings: &timings)
            let card = prepared.image.rotated(clockwise: reading.rotation)
            reading = withUnreadLines(reading, card: card, timings: &timings)
            if let dir = configuration.debugDirectory {
                sideOutputs.attempt { () throws(ScanError) in
                    try writeDebugImages(card: card, overlay: prepared.overlay, source: source, into: dir)
                }
            }
            let ocrContact = parse(reading.page, card: card, region: region, timings: &timings)
            let codes = withCodes(ocrContact, card: prepared.unlevelled?.image ?? card, frame: prepared.frame, region: region, timings: &timings)
            var record = ScanRecord.scanned(source, codes.contact)
            record.sources = codes.sources
            record.codes = codes.codes
            record.image = ImageSummary(format: encoded.format, width: encoded.uprightWidth, height: encoded.uprightHeight,
                                        orientation: encoded.orientation, ocrWidth: reading.page.width,
                                        ocrHeight: reading.page.height, cardDetected: prepared.cardDetected,
                                        card: prepared.placement, textRotation: reading.rotation)
            record.metadata = metadata
            keepAsked(card: card, page: reading.page, bytes: bytes, in: &record)
            record.warnings = prepared.warnings + codes.warnings + sideOutputs.errors.map(\.message)
            record.outputErrors = sideOutputs.errors
            timings[.total] = (clock.now - start).milliseconds
            record.timings = timings
            return record
        } catch let error as IngestError {
            return .failure(source, ScanError(error))
        } catch let error as OCRError {
            return .failure(source, ScanError(error, source: source))
        } catch {
            return .failure(source, ScanError(.ocrFailed, "\(source): \(error)"))
        }
    }

    /// Contact data (letters and digits of e-mail and web addresses and valid numbers) under which
    /// a card with a rival outline is read along it too: less than an e-mail address and a number.
    /// (Generated photos: the outline that won read 0-13 of them where the rival held the card; a
    /// trusted reading of a page's text holds none. Reading every rival cost 30% more time on
    /// 120 generated photos for the same score.)
    static let rivalReadingData = 20

    /// Contact data under which a card whose rival outline lies elsewhere in the photo
    /// (`PreparedCard.rivalIsElsewhere`) is read along it too: none, and no number either (seven
    /// digits on a line, in any script). The outline may have taken the print of a page the card
    /// lies on; a reading that holds a number (printed without its area code: no contact data) is
    /// of the card.
    static func elsewhereReadingData(_ page: OCRPage) -> Int {
        page.lines.contains { $0.text.filter(\.isNumber).count >= 7 } ? 0 : 1
    }

    /// Whether a rival outline's reading, holding `more` contact data, takes the place of the
    /// card's, holding `data`: clearly more (`OCREngine.contactDataLead`), and for an outline
    /// elsewhere a card's contact data (`rivalReadingData`), not a number misread in a part of
    /// the card or of the page.
    static func keepsRival(holding more: Int, over data: Int, elsewhere: Bool) -> Bool {
        more >= data + OCREngine.contactDataLead && (!elsewhere || more >= rivalReadingData)
    }

    /// How many cards this process has read a second time, cut along a rival outline (for the benchmark).
    public static var rivalReadings: Int { rivalCounter.load(ordering: .relaxed) }
    private static let rivalCounter = Atomic<Int>(0)

    /// How many cards this process has read a second time, as the whole frame (for the benchmark).
    public static var wholeFrameReadings: Int { wholeFrameCounter.load(ordering: .relaxed) }
    private static let wholeFrameCounter = Atomic<Int>(0)

    /// Reads the card upright. A card whose reading holds little contact data (`rivalReadingData`)
    /// is read again along the rival outline detection found nearly as likely, if any
    /// (`CardDetector.Location.rival`), and that reading is kept, with its card, when it holds
    /// clearly more (`OCREngine.contactDataLead`); a rival outline elsewhere in the photo is read
    /// when the card's reading holds nothing (`elsewhereReadingData`) and kept as `keepsRival`
    /// says. A card found only as a text region (no outline
    /// convinced) is read a second time as the whole frame (at the region's turn when the region
    /// read fairly): the region may be a corner of a card
    /// that fills the frame, its other text lost in a busy picture or pattern. The reading with
    /// more surely read text is kept, with its card (`OCREngine.isBetter`). A reading that still
    /// holds little contact data is read again with the card levelled when its print is slanted
    /// (`levelled`). A card found only as a text region, or not at all, whose readings hold
    /// nothing is read last along the outline detection found nearly acceptable
    /// (`CardDetector.nearlyAcceptable`), kept as one elsewhere is.
    func read(_ prepared: inout PreparedCard, of encoded: EncodedImage,
              timings: inout StageTimings) throws(OCRError) -> Reading {
        let clock = ContinuousClock()
        let t = clock.now
        let contactData = contactDataMeasure
        var reading = try pool.withEngine { engine throws(OCRError) in try engine.readUpright(prepared.image, contactData: contactData) }
        timings[.ocr] = (clock.now - t).milliseconds
        // Little contact data read, and another outline nearly as likely: the outline may have
        // taken the page or the desk beside the card, or left part of the card out. Nothing read,
        // and an outline elsewhere: the card may lie on a page whose print won. A card found only
        // as a text region, or not at all, reads its nearly acceptable outline last, once the
        // whole frame has had its chance.
        let near = prepared.cardDetected ? nil : prepared
        let measured = prepared.hasRival && near == nil
        let data = measured ? contactData(reading.page) : Self.rivalReadingData
        // The contact data of `reading`, where it has been measured (for `levelled`).
        var known: Int? = measured ? data : nil
        if data < (prepared.rivalIsElsewhere ? Self.elsewhereReadingData(reading.page) : Self.rivalReadingData),
           let rival = try rivalReading(of: prepared, over: data, from: encoded, contactData: contactData, timings: &timings) {
            (prepared, reading, known) = (rival.card, rival.reading, rival.data)
        }
        if let closer = try closerReading(of: &prepared, reading, data: &known, from: encoded, contactData: contactData, timings: &timings) {
            reading = closer.reading
            known = closer.data
        }
        prepared.releaseWorking()
        if let whole = try wholeFrameReading(of: prepared, over: reading, from: encoded, contactData: contactData, timings: &timings) {
            (prepared, reading, known) = (whole.card, whole.reading, nil)
        }
        // The outline nearly acceptable (`CardDetector.nearlyAcceptable`), when the text region's
        // or the whole frame's reading holds no contact data and no number.
        if let near, near.hasRival, Self.elsewhereReadingData(reading.page) > 0 {
            let held = known ?? contactData(reading.page)
            known = held
            if held == 0, let outlined = try rivalReading(of: near, over: 0, from: encoded, contactData: contactData, timings: &timings) {
                (prepared, reading, known) = (outlined.card, outlined.reading, outlined.data)
            }
        }
        return try levelled(reading, data: known, prepared: &prepared, contactData: contactData, timings: &timings)
    }

    /// The whole frame of a card found only as a text region (`CardPreparer.wholeFrame`), read,
    /// with its card, when it holds more surely read text than `first`'s reading
    /// (`OCREngine.isBetter`); nil otherwise, or for a card found otherwise. The text region and
    /// the frame are cut upright from the same photo: a region read fairly
    /// (`OCREngine.clearLayoutConfidence`) gives the frame's turn, and the frame is read at it alone.
    func wholeFrameReading(of first: PreparedCard, over reading: Reading, from encoded: EncodedImage,
                           contactData: @escaping OCREngine.ContactDataMeasure,
                           timings: inout StageTimings) throws(OCRError) -> (card: PreparedCard, reading: Reading)? {
        guard let whole = CardPreparer.wholeFrame(of: first, orientation: encoded.orientation, longSide: configuration.ocrLongSide) else { return nil }
        let turn = reading.page.meanWordConfidence >= OCREngine.clearLayoutConfidence ? reading.rotation : nil
        let other = try readCut(whole, at: turn, contactData: contactData, timings: &timings) { Self.wholeFrameCounter.add(1, ordering: .relaxed) }
        return OCREngine.isBetter(other.page, than: reading.page) ? (whole, other) : nil
    }

    /// The card cut along `first`'s rival outline (`CardPreparer.rivalCard`) and read, with the
    /// contact data it holds, when it takes the place of the reading of `first` that holds `data`
    /// (`keepsRival`); nil otherwise, or when there is no rival.
    func rivalReading(of first: PreparedCard, over data: Int, from encoded: EncodedImage,
                      contactData: @escaping OCREngine.ContactDataMeasure,
                      timings: inout StageTimings) throws(OCRError) -> (card: PreparedCard, reading: Reading, data: Int)? {
        guard let card = try? CardPreparer.rivalCard(of: first, from: encoded, longSide: configuration.ocrLongSide) else { return nil }
        let other = try readCut(card, contactData: contactData, timings: &timings) { Self.rivalCounter.add(1, ordering: .relaxed) }
        let more = contactData(other.page)
        return Self.keepsRival(holding: more, over: data, elsewhere: first.rivalIsElsewhere) ? (card, other, more) : nil
    }

    /// `card`, cut again from the photo for a second reading, read upright (at `turn` alone when it
    /// is known: `OCREngine.read(_:at:)`); the cut's and the reading's time added to `timings`, the
    /// reading counted by `count` (for the benchmark).
    func readCut(_ card: PreparedCard, at turn: QuarterTurn? = nil, contactData: @escaping OCREngine.ContactDataMeasure,
                 timings: inout StageTimings, count: () -> Void) throws(OCRError) -> Reading {
        timings.add(card.detectMs, to: .detect)
        timings.add(card.decodeMs, to: .decode)
        count()
        let clock = ContinuousClock()
        let start = clock.now
        let reading = try pool.withEngine { engine throws(OCRError) in
            if let turn { return try engine.read(card.image, at: turn) }
            return try engine.readUpright(card.image, contactData: contactData)
        }
        timings.add((clock.now - start).milliseconds, to: .ocr)
        return reading
    }

    /// How many times this process has read part of a card again closer (`closerReading`: the
    /// block of print its reading met unsurely, the stretch a page's running text skips, or the
    /// card detection found inside its outline; for the benchmark).
    public static var closerReadings: Int { closerCounter.load(ordering: .relaxed) }
    private static let closerCounter = Atomic<Int>(0)

    /// A card cut along an outline whose reading holds no contact data may be too small in it for
    /// OCR: the outline may have taken the page a small card lies on, or the desk around it. The
    /// block of words read unsurely (`UnsurePrint.block`), then the stretch the page's running
    /// text skips (`UnsurePrint.hole`), is cut again from the photo at OCR's size and read
    /// (`closerReading(of:at:)`), then, when the reading is one of a printed page (running text:
    /// `UnsurePrint.pageLines`), the card detection finds inside the outline
    /// (`CardPreparer.innerCard`), until a reading holds a card's contact data. `known` is the
    /// contact data of `reading` where measured, and keeps it once measured here.
    func closerReading(of prepared: inout PreparedCard, _ reading: Reading, data known: inout Int?, from encoded: EncodedImage,
                       contactData: @escaping OCREngine.ContactDataMeasure,
                       timings: inout StageTimings) throws(OCRError) -> (reading: Reading, data: Int)? {
        guard prepared.cardDetected, prepared.working != nil else { return nil }
        let data = known ?? contactData(reading.page)
        known = data
        guard data == 0 else { return nil }
        for block in [UnsurePrint.block(of: reading.page), UnsurePrint.hole(in: reading.page)].compactMap({ $0 }) {
            if let closer = try closerReading(of: &prepared, at: block, reading, from: encoded, contactData: contactData, timings: &timings) {
                return closer
            }
        }
        guard UnsurePrint.runningLines(of: reading.page).count >= UnsurePrint.pageLines,
              let inner = try? CardPreparer.innerCard(of: prepared, from: encoded, longSide: configuration.ocrLongSide) else { return nil }
        return try closerReading(of: &prepared, cut: inner, contactData: contactData, timings: &timings)
    }

    /// The card of `prepared` within `block` of its `reading` (normalised to the page read),
    /// cut from the photo at OCR's size (`CardPreparer.closerCard`) and read as
    /// `closerReading(of:cut:)` reads it.
    func closerReading(of prepared: inout PreparedCard, at block: UnsurePrint.Block, _ reading: Reading, from encoded: EncodedImage,
                       contactData: @escaping OCREngine.ContactDataMeasure,
                       timings: inout StageTimings) throws(OCRError) -> (reading: Reading, data: Int)? {
        guard let cut = try? CardPreparer.closerCard(of: prepared, block: UnsurePrint.onCard(block, readTurned: reading.rotation),
                                                     from: encoded, longSide: configuration.ocrLongSide) else { return nil }
        return try closerReading(of: &prepared, cut: cut, contactData: contactData, timings: &timings)
    }

    /// `cut`, part of `prepared`'s card cut closer, read, levelled too as `levelled` reads a card;
    /// that reading, with its card, when it holds a card's contact data (`keepsRival`, as for an
    /// outline elsewhere).
    func closerReading(of prepared: inout PreparedCard, cut: PreparedCard, contactData: @escaping OCREngine.ContactDataMeasure,
                       timings: inout StageTimings) throws(OCRError) -> (reading: Reading, data: Int)? {
        let first = try readCut(cut, contactData: contactData, timings: &timings) { Self.closerCounter.add(1, ordering: .relaxed) }
        var card = cut
        let other = try levelled(first, prepared: &card, contactData: contactData, timings: &timings)
        let more = contactData(other.page)
        guard Self.keepsRival(holding: more, over: 0, elsewhere: true) else { return nil }
        prepared = card
        return (other, more)
    }

    /// How many cards this process has read a second time levelled (for the benchmark).
    public static var levelledReadings: Int { levelledCounter.load(ordering: .relaxed) }
    private static let levelledCounter = Atomic<Int>(0)

    /// A reading that holds little contact data (`rivalReadingData`) of a card with print slanted
    /// in part (`TextSkew.partSlants`: an outline that took the page or the desk with the card, a
    /// card found only as the whole frame): the card levelled at each such slant in turn is read
    /// again, and that reading kept, with its card, when it holds clearly more
    /// (`OCREngine.contactDataLead`), until a reading holds `rivalReadingData`.
    /// `data` is the contact data of `first` when the caller has measured it.
    func levelled(_ first: Reading, data known: Int? = nil, prepared: inout PreparedCard,
                  contactData: @escaping OCREngine.ContactDataMeasure, timings: inout StageTimings) throws(OCRError) -> Reading {
        guard configuration.levelSlantedPrint else { return first }
        var reading = first
        var data = known ?? contactData(reading.page)
        guard data < Self.rivalReadingData else { return reading }
        let clock = ContinuousClock()
        var t = clock.now
        let slants = TextSkew.partSlants(of: prepared.image)
        timings.add((clock.now - t).milliseconds, to: .detect)
        let cut = prepared
        for slant in slants {
            t = clock.now
            let card = cut.levelled(by: slant)
            timings.add((clock.now - t).milliseconds, to: .detect)
            Self.levelledCounter.add(1, ordering: .relaxed)
            t = clock.now
            let other = try pool.withEngine { engine throws(OCRError) in try engine.readUpright(card.image, contactData: contactData) }
            timings.add((clock.now - t).milliseconds, to: .ocr)
            let more = contactData(other.page)
            if more >= data + OCREngine.contactDataLead {
                prepared = card
                reading = other
                data = more
                // Enough contact data now: the other slant is not read.
                if data >= Self.rivalReadingData { break }
            }
        }
        return reading
    }

    /// What tells the right turn of a card from the wrong ones besides surely read text: the
    /// contact data a reading holds (`ContactParser.contactCharacters`).
    var contactDataMeasure: OCREngine.ContactDataMeasure {
        let parser = ContactParser(fallbackRegion: configuration.fallbackRegion, source: configuration.fallbackRegionSource)
        return { page in parser.contactCharacters(lines: page.lines.map(Self.textLine)) }
    }

    /// How many cards this process has read a second time in colour contrast (for the benchmark).
    public static var colourReadings: Int { colourCounter.load(ordering: .relaxed) }
    private static let colourCounter = Atomic<Int>(0)

    /// Mean word confidence below which a card is read a second time in colour contrast
    /// (`withColourReading`). Tidy cards read at 0.85-0.95 and pay nothing.
    static let colourReadingConfidence = 0.5

    /// The least share of a poor card's pixels that must differ in colour from its ground
    /// (`ColourContrast.colourShare`) for the colour reading: on a card in black, white and
    /// grays (blurred, dim) it reads what the gray reading did, at the cost of a reading.
    static let colourReadingShare = 0.04

    /// A poor reading (`colourReadingConfidence`) of a card with colour in it (`colourReadingShare`)
    /// read again from the card in colour (`ColourContrast`), at the same turn, with the lines
    /// that reading reads surely where the first did not (`OCRPage.merging`): coloured text on a
    /// coloured ground, which gray conversion makes one gray, and text printed over a picture.
    func withColourReading(_ reading: Reading, of prepared: PreparedCard,
                           encoded: EncodedImage, timings: inout StageTimings) throws(OCRError) -> Reading {
        guard configuration.colourReading, reading.page.meanWordConfidence < Self.colourReadingConfidence else { return reading }
        let clock = ContinuousClock()
        let t = clock.now
        let colour = try? CardPreparer.colourCard(of: prepared, from: encoded, longSide: configuration.ocrLongSide)
        let found = colour.flatMap { ColourContrast.image($0, minimumShare: Self.colourReadingShare) }
        timings.add((clock.now - t).milliseconds, to: .decode)
        guard let contrast = found?.rotated(clockwise: reading.rotation) else { return reading }
        let u = clock.now
        Self.colourCounter.add(1, ordering: .relaxed)
        let page = try pool.withEngine { engine throws(OCRError) in try engine.recognize(contrast) }
        timings.add((clock.now - u).milliseconds, to: .ocr)
        return (reading.page.merging(page), reading.rotation, reading.prepared)
    }

    /// A reading of a card: the page, the turn it was read at, and the card as OCR was handed it
    /// before the turn (normalised).
    typealias Reading = (page: OCRPage, rotation: QuarterTurn, prepared: PixelImage)

    /// The reading with the rows of print it left out on the card read alone, each line kept when
    /// read surely (`withUnreadInk`), then its light print on dark parts of `card` (the card as
    /// photographed, at the reading's turn: `withLightPrint`). A card read whole pays only for a
    /// look at its ink and its cells.
    func withUnreadLines(_ reading: Reading, card: PixelImage, timings: inout StageTimings) -> Reading {
        guard configuration.unreadLines else { return reading }
        let start = ContinuousClock.now
        defer { timings.add((ContinuousClock.now - start).milliseconds, to: .ocr) }
        let page = withUnreadInk(in: reading.page, normalized: reading.prepared.rotated(clockwise: reading.rotation), pool: pool)
        return (withLightPrint(page, card: card), reading.rotation, reading.prepared)
    }

    /// `page` with the light print on dark parts of `card` it left out (`LightPrint`: a company in
    /// white on a band) read alone from the card as photographed, each line kept when read surely.
    func withLightPrint(_ page: OCRPage, card: PixelImage) -> OCRPage {
        guard card.width == page.width, card.height == page.height else { return page }
        var page = page
        let gray = card.grayscale()
        for box in LightPrint.boxes(in: gray, read: page) {
            guard let part = Self.readAlone(box, of: gray, pool: pool) else { continue }
            page = LightPrint.adding(part, at: box, to: page)
        }
        return page
    }

    /// What the configuration asks the record to carry besides the JSON: the card's picture (for
    /// the review page) and the OCR text (for the contact book's --keep-text).
    func keepAsked(card: PixelImage, page: OCRPage, bytes: [UInt8], in record: inout ScanRecord) {
        if configuration.cardPictures { record.cardPicture = try? CardPicture(card, source: record.source) }
        if configuration.keepText { record.text = page.lines.map(\.text).joined(separator: "\n") }
        if configuration.fingerprints { record.fingerprint = SHA256.hex(bytes) }
    }

    /// The codes on the card (or in the frame) read, and their data merged into OCR's contact.
    func withCodes(_ ocr: Contact, card: PixelImage, frame: PixelImage?, region: String?,
                   timings: inout StageTimings) -> CodeMerge.Result {
        let start = ContinuousClock.now
        let found = CodeMerge.read(card: card, frame: frame, options: configuration.codes.readerOptions)
        let merged = CodeMerge.merge(ocr: ocr, found: found, fallbackRegion: region?.uppercased() ?? configuration.fallbackRegion)
        timings[.codes] = (ContinuousClock.now - start).milliseconds
        return merged
    }

    /// Outputs asked for besides the record (--strip-to, --debug-dir): a failure is kept, not thrown.
    struct SideOutputs {
        var errors: [ScanError] = []
        mutating func attempt(_ write: () throws(ScanError) -> Void) {
            do { try write() } catch { errors.append(error) }
        }
    }

    /// Decodes, finds and straightens the card; the decode waits while other workers' decodes
    /// hold the shared memory it needs.
    func prepare(_ encoded: EncodedImage, held: Int? = nil) throws(IngestError) -> PreparedCard {
        let cost = encoded.decodeCost(minimumLongSide: configuration.ocrLongSide)
        let more = max(0, cost - (held ?? 0))
        if held == nil { decodeBudget.hold(more) } else { decodeBudget.reserveMore(more) }
        defer { decodeBudget.release(more, endingHold: held == nil) }
        return try CardPreparer.prepare(encoded, longSide: configuration.ocrLongSide, detectCard: configuration.detectCard,
                                        overlay: configuration.debugDirectory != nil)
    }

    /// The contact of a reading. A card from a country of another language is read again with
    /// that language's data, which knows the letters English reads wrongly (ß as "B", ö as "o"
    /// or "d", ñ as "fi"), and its spelling of the fields both readings agree on is taken.
    func parse(_ page: OCRPage, card: PixelImage, region: String?, timings: inout StageTimings) -> Contact {
        let clock = ContinuousClock()
        var t = clock.now
        let parser = region.map { ContactParser(fallbackRegion: $0.uppercased(), source: "option") }
            ?? ContactParser(fallbackRegion: configuration.fallbackRegion, source: configuration.fallbackRegionSource)
        let lines = page.lines.map(Self.textLine)
        var contact = parser.parse(lines: lines)
        var parseMs = (clock.now - t).milliseconds
        if let read = readInCardScript(page, card: card, english: contact, parser: parser, timings: &timings) {
            contact = read
        } else if let nativePools, let native = contact.region.map({ nativePools.pool(forRegion: $0.code) })
                    ?? ContactParser.likelyLanguage(lines: lines).flatMap(nativePools.pool(forLanguage:)) {
            // A language guessed from weak clues lends its letters only, never fields of its own.
            let lettersOnly = contact.region == nil
            t = clock.now
            if let page = try? native.withEngine({ engine throws(OCRError) in try engine.recognize(card) }) {
                timings.add((clock.now - t).milliseconds, to: .ocr)
                t = clock.now
                let read = parser.parse(lines: page.lines.map(Self.textLine))
                contact = lettersOnly ? Self.respell(contact, native: read) : Self.merge(english: contact, native: read)
                parseMs += (clock.now - t).milliseconds
            }
        }
        timings[.parse] = parseMs
        return contact
    }

    /// The English reading's record, with the native reading's spelling of the words both read
    /// alike (the same letters but for accents, or a letter or two where the native reading has
    /// letters English lacks), and its fields where English found none. Numbers, e-mail and web
    /// addresses stay as English read them: language data adds nothing to them.
    static func merge(english a: Contact, native b: Contact) -> Contact {
        var c = a
        c.name = prefer(a.name?.full, b.name?.full) == b.name?.full ? (b.name ?? a.name) : a.name
        c.title = prefer(a.title, b.title)
        c.organization = prefer(a.organization, b.organization)
        // The two readings may give one line to two fields: a company is not the person's name.
        if let name = c.name?.full, let org = c.organization, fold(name) == fold(org) {
            c.organization = a.organization.flatMap { fold($0) == fold(name) ? nil : $0 }
        }
        if var address = a.address {
            if let other = b.address {
                address.street = prefer(address.street, other.street)
                address.city = prefer(address.city, other.city)
                address.country = prefer(address.country, other.country)
                address.lines = zip(address.lines, other.lines).map { prefer($0, $1) ?? $0 } + address.lines.dropFirst(other.lines.count)
            }
            c.address = address
        } else {
            c.address = b.address
        }
        if c.phones.isEmpty { c.phones = b.phones }
        if c.emails.isEmpty { c.emails = b.emails }
        if c.urls.isEmpty { c.urls = b.urls.filter { !URLExtractor.isEmailMisread($0, emails: c.emails) } }
        for (key, value) in b.confidence where c.confidence[key] == nil { c.confidence[key] = value }
        return c
    }

    /// The English reading's record with the native reading's spelling of its name, title and
    /// organisation where that spelling has letters beyond ASCII that English lacks; nothing else.
    static func respell(_ english: Contact, native: Contact) -> Contact {
        func letters(_ a: String?, _ b: String?) -> String? {
            guard let a, let b, beyondASCII(b) > beyondASCII(a) else { return a }
            return prefer(a, b)
        }
        var c = english
        if let name = c.name?.full, let other = native.name, letters(name, other.full) == other.full { c.name = other }
        c.title = letters(c.title, native.title)
        c.organization = letters(c.organization, native.organization)
        return c
    }

    /// `native` when it is the same text as `english` but for letters English cannot read, else `english`.
    static func prefer(_ english: String?, _ native: String?) -> String? {
        guard let native else { return english }
        guard let english else { return native }
        let fe = fold(english), fn = fold(native)
        if fe == fn { return native }
        // The native reading kept a word with letters English cannot read, which English dropped.
        if fn.hasPrefix(fe + " "), native.unicodeScalars.contains(where: { $0.value > 0x7F }),
           fn.split(separator: " ").count == fe.split(separator: " ").count + 1 { return native }
        // Letters beyond ASCII the native reading has and English lacks, or reads as other letters.
        let nativeExtra = beyondASCII(native), englishExtra = beyondASCII(english)
        guard nativeExtra > 0, nativeExtra >= englishExtra else { return english }
        return TextDistance.edits(fe, fn) <= max(1, nativeExtra + fn.count / 12) ? native : english
    }

    /// How many of the text's characters lie beyond ASCII (letters English's model cannot read).
    static func beyondASCII(_ s: String) -> Int { s.unicodeScalars.filter { $0.value > 0x7F }.count }

    static func fold(_ s: String) -> String {
        var t = s.lowercased()
        for (from, to) in [("ß", "ss"), ("ø", "o"), ("æ", "ae"), ("œ", "oe"), ("ł", "l"), ("đ", "d")] { t = t.replacingOccurrences(of: from, with: to) }
        return t.folding(options: [.diacriticInsensitive], locale: nil)
    }

    /// Writes the sanitized copy of a scanned photo into `dir` under the input's file name, or
    /// NAME-2.EXT, NAME-3.EXT ... when that is taken (never over an existing file).
    func writeSanitizedCopy(_ image: EncodedImage, into dir: String) throws(ScanError) {
        let source = image.source, format = image.format
        let clean: [UInt8]
        do {
            clean = try Stripper.strip(image)
        } catch {
            throw ScanError(error)
        }
        let ext = Self.isStandardInput(source) ? (format == .png ? "png" : "jpg") : (source as NSString).pathExtension
        do {
            try Self.writeUnderFreeName(stem: Self.outputStem(for: source), in: dir, files: [(ext.isEmpty ? "" : "." + ext, clean)],
                                        mode: 0o644)
        } catch {
            throw ScanError(.writeFailed, "strip: " + error.description + "; the sanitized copy was not written")
        }
    }

    /// Writes NAME.card.png and NAME.overlay.png into `dir` under the first free NAME (the
    /// input's file name, then NAME-2, NAME-3 ...).
    func writeDebugImages(card: PixelImage, overlay: PixelImage?, source: String, into dir: String) throws(ScanError) {
        let pictures: [(String, PixelImage)] = [("card", card)] + (overlay.map { [("overlay", $0)] } ?? [])
        var encoded: [(String, [UInt8])] = []
        for (kind, image) in pictures {
            do {
                encoded.append((".\(kind).png", try PNGEncoder.encode(image, source: source)))
            } catch {
                throw ScanError(.writeFailed, "debug: \(error.description)")
            }
        }
        do {
            try Self.writeUnderFreeName(stem: Self.outputStem(for: source), in: dir, files: encoded, mode: 0o600)
        } catch {
            throw ScanError(.writeFailed, "debug: " + error.description)
        }
    }

    /// True for an image read from standard input ("-", or "-#N" in a stream).
    static func isStandardInput(_ source: String) -> Bool { source.hasPrefix("-") }

    /// The name a side output of `source` is written under, without extension: the input's file
    /// name, or "stdin-N" for the N-th image of standard input.
    static func outputStem(for source: String) -> String {
        guard isStandardInput(source) else { return ((source as NSString).lastPathComponent as NSString).deletingPathExtension }
        return "stdin-" + (source.hasPrefix("-#") ? String(source.dropFirst(2)) : "1")
    }

    /// Writes `files` (suffix, bytes) as STEM+suffix in `dir`, taking STEM-2, STEM-3 ... when the
    /// first file's name is taken; never replaces a file.
    static func writeUnderFreeName(stem: String, in dir: String, files: [(String, [UInt8])], mode: mode_t) throws(FileError) {
        for attempt in 1...1000 {
            let name = attempt == 1 ? stem : "\(stem)-\(attempt)"
            for (i, (suffix, bytes)) in files.enumerated() {
                let path = FilePathBytes((dir as NSString).appendingPathComponent(name + suffix))
                do {
                    try AtomicFile.write(bytes, to: path, mode: mode, replace: false)
                } catch where error.code == .exists && i == 0 {
                    break
                } catch where error.code == .exists {
                    // The first file took this name; keep the set together under it.
                    throw FileError(.exists, path: path.display, reason: "already exists; only \(name + files[0].0) was written")
                }
                if i == files.count - 1 { return }
            }
        }
        throw FileError(.exists, path: dir, reason: "no free name for \(stem) (tried \(stem)-2 to \(stem)-1000); nothing was written")
    }

    static func textLine(_ line: OCRLine) -> TextLine {
        TextLine(text: line.text, confidence: line.confidence, height: line.textHeight, top: Double(line.box.top),
                 left: Double(line.box.left),
                 words: line.words.map { TextWord(text: $0.text, left: Double($0.box.left), right: Double($0.box.right), confidence: $0.confidence) })
    }

    /// Frees the OCR engines not in use (about 30 MB each); they are created again when needed.
    /// Call it before the process exits, so Tesseract's caches are released in order.
    public func releaseEngines() {
        pool.releaseIdle()
        nativePools?.releaseIdle()
    }

    /// Creates `count` OCR engines now (at most `workers`), so that the first `count` concurrent
    /// scans do not wait for an engine to load (about 3-10 ms each; 55-65 ms with Tesseract's own
    /// initialisation, see `OCREngine.init`).
    /// - Throws: `ScanError` (code "missing-language") when the language data is missing.
    public func prewarm(engines count: Int) throws(ScanError) {
        do {
            try pool.prewarm(count: min(max(1, count), max(1, configuration.workers)))
        } catch {
            throw ScanError(error)
        }
    }

    /// How many OCR engines this scanner has created so far (at most `workers`).
    public var enginesCreated: Int { pool.createdTotal }
}

extension ScanRecord {
    mutating func addTotal(_ duration: Duration) {
        if timings[.total] != nil { timings[.total] = duration.milliseconds }
    }
}

/// OCR engines for second readings in the languages of the cards' countries, one pool per
/// language, created the first time a card of that language comes (each engine costs ~3-10 ms and
/// ~15-25 MB); a language whose data is not installed is remembered as missing and skipped.
///
/// `@unchecked Sendable` is safe: `pools` is only read and written with `lock` held, and each
/// `EnginePool` is itself safe to share.
final class NativeLanguagePools: @unchecked Sendable {
    private let lock = NSLock()
    private var pools: [String: EnginePool] = [:]
    private var missing: Set<String> = []
    private let configuration: ScanConfiguration

    init(configuration: ScanConfiguration) {
        self.configuration = configuration
    }

    /// Tesseract's names of the languages cards are printed in, by ISO 639-1 code.
    static let tesseractNames: [String: String] = [
        "de": "deu", "fr": "fra", "es": "spa", "it": "ita", "pt": "por", "nl": "nld", "pl": "pol", "sv": "swe",
        "da": "dan", "nb": "nor", "no": "nor", "nn": "nor", "fi": "fin", "cs": "ces", "sk": "slk", "hu": "hun",
        "ro": "ron", "hr": "hrv", "sl": "slv", "et": "est", "lv": "lav", "lt": "lit", "tr": "tur", "ca": "cat",
        "gl": "glg", "eu": "eus", "is": "isl", "ga": "gle", "id": "ind", "ms": "msa", "vi": "vie",
    ]

    /// The pool for the main language of `region` when it is not English and its data is installed.
    func pool(forRegion region: String) -> EnginePool? {
        // The card's language alone: the first reading already read it in English, and English's
        // model beside the native one pulls letters such as "ä" back to "a" (and costs memory).
        ContactParser.languages(ofRegion: region).first.flatMap(pool(forLanguage:))
    }

    /// The pool for an ISO 639-1 language other than English, when its data is installed.
    func pool(forLanguage language: String) -> EnginePool? {
        guard language != "en", let name = Self.tesseractNames[language] else { return nil }
        return pool(for: OCRLanguages(codes: [name]))
    }

    /// The pool for `languages`, nil when their data is not installed.
    func pool(for languages: OCRLanguages) -> EnginePool? {
        let name = languages.description
        lock.lock()
        defer { lock.unlock() }
        if let pool = pools[name] {
            markUsed(name)
            return pool
        }
        if missing.contains(name) { return nil }
        guard (try? OCREngine.locateTessdata(languages: languages, explicit: configuration.tessdataPath)) != nil else {
            missing.insert(name)
            return nil
        }
        let configuration = configuration
        // A whole card in an East Asian script is read with Tesseract's own layout analysis: as
        // one block, lines of large type beside small ones go unread.
        // Vertical data reads the whole card as one block of columns.
        let segmentation: PageSegmentation = name.hasSuffix("_vert") ? .singleBlockVertical
            : CardScript(language: name) != nil ? .auto : configuration.pageSegmentation
        let pool = EnginePool(capacity: max(1, configuration.workers)) { () throws(OCRError) -> OCREngine in
            try OCREngine(languages: languages, dataPath: configuration.tessdataPath, pageSegmentation: segmentation)
        }
        pools[name] = pool
        markUsed(name)
        return pool
    }

    /// Languages whose engines are kept loaded when idle (each engine is about 30-40 MB; a batch of
    /// cards from many countries would otherwise keep an engine per language per worker).
    static let residentLanguages = 1
    /// Language names, most recently used first.
    private var recent: [String] = []

    /// Moves `name` to the front and frees the idle engines of the languages beyond the resident
    /// ones (engines in use are untouched; they are freed at a later eviction). A script's
    /// vertical data ("jpn_vert") stays beside its horizontal data: a vertical card is read with
    /// both. Called with `lock` held.
    private func markUsed(_ name: String) {
        recent.removeAll { $0 == name }
        recent.insert(name, at: 0)
        func script(_ name: String) -> Substring { name.hasSuffix("_vert") ? name.dropLast(5) : Substring(name) }
        for evicted in recent.dropFirst(Self.residentLanguages) where script(evicted) != script(name) { pools[evicted]?.releaseIdle() }
    }

    /// Frees the idle engines of every language.
    func releaseIdle() {
        lock.lock()
        let all = Array(pools.values)
        lock.unlock()
        for pool in all { pool.releaseIdle() }
    }
}

extension CardScanner {
    /// True when `code` is a country (ISO 3166 alpha-2, any case) whose numbers libphonenumber knows.
    public static func isKnownRegion(_ code: String) -> Bool {
        code.count == 2 && PhoneNumbers.supportedRegions.contains(code.uppercased())
    }

    /// True when `head` (a file's first bytes) starts like an image format cardscan reads.
    public static func looksLikeImage(_ head: [UInt8]) -> Bool { ImageFormat.detect(head) != nil }
}

/// Memory for scanning shared by a scanner's workers: an image's encoded bytes and what decoding
/// it takes (`EncodedImage.decodeCost`). A file's bytes are held against it before the file is
/// read (`hold`), so a worker waits before reading rather than with a second large file in memory;
/// the decode's part follows (`reserveMore`). One scan alone always proceeds (`EncodedImage`
/// refuses an image whose cost alone is over the budget), and when every holder waits to grow,
/// the first of them proceeds, so two holders never wait for each other.
///
/// `@unchecked Sendable` is safe: every field is only touched with `condition` locked.
final class DecodeBudget: @unchecked Sendable {
    private let condition = NSCondition()
    private let total: Int
    private var used = 0
    /// Scans holding a part of the budget, and those of them waiting for more, in order.
    private var holders = 0
    private var growing: [UInt64] = []
    private var nextTicket: UInt64 = 0

    init(total: Int) { self.total = total }

    /// Takes `bytes` for a new scan, waiting while they do not fit beside the others'.
    func hold(_ bytes: Int) {
        condition.lock()
        while used > 0 && used + bytes > total { condition.wait() }
        used += bytes
        holders += 1
        condition.unlock()
    }

    /// Takes `bytes` more for a scan that holds a part, waiting while they do not fit, unless
    /// every holder is waiting so (then the first to ask proceeds).
    func reserveMore(_ bytes: Int) {
        condition.lock()
        nextTicket += 1
        let ticket = nextTicket
        growing.append(ticket)
        condition.broadcast()  // the first in line may now be the one every holder waits on
        while used + bytes > total && !(growing.count == holders && growing.first == ticket) { condition.wait() }
        growing.removeAll { $0 == ticket }
        used += bytes
        condition.broadcast()
        condition.unlock()
    }

    /// Gives back `bytes`; `endingHold` when the scan is done with the budget.
    func release(_ bytes: Int, endingHold: Bool = false) {
        condition.lock()
        used -= bytes
        if endingHold { holders -= 1 }
        condition.broadcast()
        condition.unlock()
    }

    /// A scan's whole cost at once (no file read before it): `hold` and, when done, `release`.
    func reserve(_ bytes: Int) { hold(bytes) }
}

/// A file path as bytes (re-exported for `ScanInput.path`).
public typealias FilePathBytes = FileAccess.FilePathBytes

/// EXIF orientations and quarter turns (re-exported for `ImageSummary`).
public typealias ImageOrientation = ImageIngest.ImageOrientation
public typealias QuarterTurn = ImageIngest.QuarterTurn

/// Tesseract languages (re-exported for `ScanConfiguration`).
public typealias OCRLanguages = CardOCR.OCRLanguages

/// Tesseract's page segmentation modes (re-exported for users of `ScanConfiguration`).
public typealias PageSegmentation = CardOCR.PageSegmentation
