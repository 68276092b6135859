import CardDetection
import CLeptonica
import CTesseract
import CTesseractLean
import Foundation
import ImageIngest

/// Tesseract's page segmentation modes cardscan uses.
public enum PageSegmentation: Int32, Sendable, CaseIterable {
    case auto = 3
    case singleLine = 7
    case singleWord = 8
    case singleBlockVertical = 5
    case singleBlock = 6
    case sparse = 11
    /// One line, without Tesseract's own line finding (a few large characters it finds no line in).
    case rawLine = 13
}

/// One Tesseract engine (TessBaseAPI), created once and reused for many images.
///
/// Not thread-safe and deliberately not `Sendable`: each worker thread creates its own engine
/// and keeps it for its whole life; an engine is never handed to another thread.
public final class OCREngine {
    private let tesseract: TesseractHandle
    private var handle: OpaquePointer { tesseract.api }
    public let languages: OCRLanguages
    public let pageSegmentation: PageSegmentation
    /// Whether Tesseract keeps its line images as PNG while reading (its default), or uncompressed.
    public let compressLineImages: Bool

    /// How many images this engine has read.
    public private(set) var readings = 0

    /// How many engines this process has created (each costs ~3-10 ms and ~30 MB).
    public static var createdCount: Int { counter.value }
    private static let counter = Counter()

    /// Loads the language data and prepares the engine.
    /// - Parameter retryInverted: Tesseract's own default, reading each line it is unsure of a
    ///   second time inverted (light text on dark). Off by default: `recognize` normalises every
    ///   part of the card to dark text on light paper first. On for comparisons with a plain read.
    /// - Parameter compressLineImages: Tesseract's own way (as Debian builds it) of keeping each
    ///   text line's image while it reads it: as a PNG in memory, compressed and decompressed
    ///   again, about a tenth of a reading. Off by default: the line images are kept
    ///   uncompressed, the same pixels (see `CTesseractLean`). On for comparisons with a plain read.
    /// - Parameter loadUniversalAmbiguities: Tesseract's own initialisation, which builds a table of
    ///   character confusions that only its legacy recogniser consults (most of the 55-65 ms an
    ///   engine takes to make). Off by default, and then left out only when every language's data
    ///   has no legacy recogniser (Debian's, tessdata_fast); on for comparisons with a plain read.
    /// - Throws: `OCRError.missingLanguage` naming the missing file and the Debian package that has it.
    public init(languages: OCRLanguages = .english, dataPath: String? = nil, pageSegmentation: PageSegmentation = .auto,
                retryInverted: Bool = false, compressLineImages: Bool = false,
                loadUniversalAmbiguities: Bool = false) throws(OCRError) {
        _ = Self.silenceLeptonica
        let dir = try Self.locateTessdata(languages: languages, explicit: dataPath)
        let lstmOnly = languages.codes.allSatisfy { TrainedData.isLSTMOnly(at: "\(dir)/\($0).traineddata") }
        let handle = try TesseractHandle(tessdata: dir, languages: languages.description,
                                     mode: TessPageSegMode(rawValue: UInt32(pageSegmentation.rawValue)),
                                     what: "an engine", hint: "reinstall the tesseract-ocr language packages",
                                     skipUniversalAmbiguities: lstmOnly && !loadUniversalAmbiguities)
        if !retryInverted { handle.set("tessedit_do_invert", "0") }
        if lstmOnly { Self.fixedPitchTestOff.once { handle.set("textord_disable_pitch_test", "1") } }
        tesseract = handle
        self.compressLineImages = compressLineImages
        self.languages = languages
        self.pageSegmentation = pageSegmentation
        Self.counter.increment()
    }

    /// One of Tesseract's boolean settings as this engine has it (for tests).
    func setting(_ name: String) -> Bool? { tesseract.bool(name) }

    /// Tesseract's test of every text row for typewriter spacing (a dynamic programme) chops words
    /// into character cells for the legacy recogniser; the LSTM reads each row's words merged into
    /// one and finds its own spaces. The setting is one of Tesseract's process-wide globals, not an
    /// engine's own: it is switched off once, by the first engine made for data without a legacy
    /// recogniser, and never switched back (about 1% of a batch's time; the same readings on all
    /// four evaluation sets).
    private static let fixedPitchTestOff = Once()

    /// Leptonica, which Tesseract calls, prints diagnostics to stderr; once per process, silence it.
    private static let silenceLeptonica: Bool = {
        _ = setMsgSeverity(Int32(L_SEVERITY_NONE))
        return true
    }()

    /// Mean word confidence from which a reading is trusted without trying the card the other way up.
    public static let trustedConfidence = 0.75

    /// Mean word confidence from which a reading at the turn the ink's layout gave clearly
    /// (`TextDirection.Estimate.isUncertain` false) is trusted without trying other turns. On 269
    /// photos (generated, real, tidy and East Asian) every card read at its estimated turn at 0.5 or
    /// more was upright there; a card read at a wrong turn read at 0.45 at most.
    public static let clearLayoutConfidence = 0.5

    /// Mean word confidence under which a card read both ways up at the turn its layout gave is
    /// also read at the other two quarter turns.
    public static let poorConfidence = 0.5

    /// Reads a card, turning it first so its text is upright: the ink's own layout says which way
    /// the text runs (`TextDirection`); the card is read that way, and when the reading is
    /// unsure (`trustedConfidence`; `clearLayoutConfidence` when the layout was clear), also
    /// turned by half a turn (and, when the layout was ambiguous or the reading is
    /// still poor, by a quarter turn each way), keeping the reading with
    /// the most surely read text (`isBetter`) or, given `contactData`, the one that holds
    /// clearly more contact data: a card read at a wrong turn gives junk, which seldom holds an
    /// e-mail address or a valid number, however surely some of it is read.
    /// - Returns: the page and the clockwise turn applied.
    public func recognizeUpright(_ image: PixelImage, normalize: Bool = true,
                                 contactData: ContactDataMeasure? = nil) throws(OCRError) -> (page: OCRPage, rotation: QuarterTurn) {
        let read = try readUpright(image, normalize: normalize, contactData: contactData)
        return (read.page, read.rotation)
    }

    /// How much contact data a reading holds (the letters and digits of its e-mail and web addresses and
    /// valid phone numbers, as a parser finds them).
    public typealias ContactDataMeasure = @Sendable (OCRPage) -> Int

    /// The contact data one reading must hold beyond another's for it to win whatever their
    /// surely read text (about one phone number or one e-mail address).
    public static let contactDataLead = 6

    /// `recognizeUpright`, with the image it read before turning it (`image` normalised, or in gray
    /// when `normalize` is false), for a closer look at the card's ink.
    public func readUpright(_ image: PixelImage, normalize: Bool = true, contactData: ContactDataMeasure? = nil) throws(OCRError)
        -> (page: OCRPage, rotation: QuarterTurn, prepared: PixelImage)
    {
        let prepared = normalize ? CardNormalizer.normalize(image) : image.grayscale()
        let estimate = TextDirection.estimate(prepared)
        let first = try recognize(prepared.rotated(clockwise: estimate.rotation), normalize: false)
        var best = (page: first, rotation: estimate.rotation, data: 0)
        var measured = false
        func tryTurn(_ rotation: QuarterTurn) throws(OCRError) {
            let page = try recognize(prepared.rotated(clockwise: rotation), normalize: false)
            if let contactData {
                // The first reading is measured only once another is there to compare with.
                if !measured { best.data = contactData(best.page); measured = true }
                let data = contactData(page)
                if Self.isBetter(page, data: data, than: best.page, data: best.data) { best = (page, rotation, data) }
            } else if Self.isBetter(page, than: best.page) {
                best = (page, rotation, 0)
            }
        }
        let trusted = estimate.isUncertain ? Self.trustedConfidence : Self.clearLayoutConfidence
        guard best.page.meanWordConfidence < trusted else { return (best.page, best.rotation, prepared) }
        let quarterTurns = [estimate.rotation.then(.quarter), estimate.rotation.then(.threeQuarters)]
        for rotation in [estimate.rotation.then(.half)] + (estimate.isUncertain ? quarterTurns : []) {
            try tryTurn(rotation)
            if best.page.meanWordConfidence >= Self.trustedConfidence { break }
        }
        // Still poor, and only one of the two ways the text can run was tried: columns of East
        // Asian type, or a layout of short stacked lines, can make the ink run the other way.
        if !estimate.isUncertain, best.page.meanWordConfidence < Self.poorConfidence {
            for rotation in quarterTurns { try tryTurn(rotation) }
        }
        return (best.page, best.rotation, prepared)
    }

    /// Reads a card at a turn already known (a reading of another cut of the same photo), without
    /// looking for another: the same page, turn and image as `readUpright` would give at that turn.
    public func read(_ image: PixelImage, at rotation: QuarterTurn) throws(OCRError)
        -> (page: OCRPage, rotation: QuarterTurn, prepared: PixelImage)
    {
        let prepared = CardNormalizer.normalize(image)
        return (try recognize(prepared.rotated(clockwise: rotation), normalize: false), rotation, prepared)
    }

    /// `isBetter`, but a reading that holds clearly more contact data (`contactDataLead` letters
    /// and digits more) wins whatever its surely read text.
    public static func isBetter(_ page: OCRPage, data: Int, than other: OCRPage, data otherData: Int) -> Bool {
        abs(data - otherData) >= contactDataLead ? data > otherData : isBetter(page, than: other)
    }

    /// True when `page` holds more surely read text than `other` (`OCRPage.confidentCharacters`;
    /// on a tie, more `readingEvidence`). A card read the wrong way up yields few letters, all of
    /// them unsure; pictures read as junk add unsure words to the right reading too, so the
    /// unsure words are left out of the comparison.
    public static func isBetter(_ page: OCRPage, than other: OCRPage) -> Bool {
        let a = page.confidentCharacters, b = other.confidentCharacters
        return a != b ? a > b : page.readingEvidence > other.readingEvidence
    }

    /// Reads the text of an 8-bit image at `dpi` resolution, as it is (no turning), with the
    /// engine's page segmentation or, for this image alone, `segmentation`.
    public func recognize(_ image: PixelImage, dpi: Int = 300, normalize: Bool = true,
                          segmentation: PageSegmentation? = nil) throws(OCRError) -> OCRPage {
        let gray = normalize ? CardNormalizer.normalize(image) : image.grayscale()
        if let segmentation, segmentation != pageSegmentation {
            TessBaseAPISetPageSegMode(handle, TessPageSegMode(rawValue: UInt32(segmentation.rawValue)))
        }
        defer {
            if let segmentation, segmentation != pageSegmentation {
                TessBaseAPISetPageSegMode(handle, TessPageSegMode(rawValue: UInt32(pageSegmentation.rawValue)))
            }
        }
        let rc: Int32 = gray.pixels.withUnsafeBufferPointer { buf in
            TessBaseAPISetImage(handle, buf.baseAddress, Int32(gray.width), Int32(gray.height), 1, Int32(gray.width))
            TessBaseAPISetSourceResolution(handle, Int32(dpi))
            OpenMPLimit.oneThreadHere()
            if !compressLineImages { cs_tesseract_lines_begin() }
            defer { if !compressLineImages { cs_tesseract_lines_end() } }
            return TessBaseAPIRecognize(handle, nil)
        }
        defer { TessBaseAPIClear(handle) }
        readings += 1
        guard rc == 0 else {
            throw OCRError(.engineFailed, "Tesseract failed to recognise the image")
        }
        return OCRPage(lines: collectLines(), width: gray.width, height: gray.height)
    }

    /// True when the languages write without spaces between words: the lines keep Tesseract's
    /// own spelling (`OCRLine.printed`), which sets a space only where the print leaves a gap.
    var keepsPrintedLines: Bool { languages.codes.contains { $0.hasPrefix("jpn") || $0.hasPrefix("chi") } }

    private func collectLines() -> [OCRLine] {
        guard let it = TessBaseAPIGetIterator(handle) else { return [] }
        defer { TessResultIteratorDelete(it) }
        let page = TessResultIteratorGetPageIterator(it)
        var lines: [OCRLine] = []
        var words: [OCRWord] = []
        var lineBox = Box(left: 0, top: 0, right: 0, bottom: 0)
        var printed: String?
        let keepPrinted = keepsPrintedLines
        repeat {
            if TessPageIteratorIsAtBeginningOf(page, RIL_TEXTLINE) != 0 {
                if !words.isEmpty { lines.append(OCRLine(words: words, box: lineBox, printed: printed)) }
                words = []
                printed = keepPrinted ? Self.text(of: it, level: RIL_TEXTLINE) : nil
                var l: Int32 = 0, t: Int32 = 0, r: Int32 = 0, b: Int32 = 0
                if TessPageIteratorBoundingBox(page, RIL_TEXTLINE, &l, &t, &r, &b) != 0 {
                    lineBox = Box(left: Int(l), top: Int(t), right: Int(r), bottom: Int(b))
                }
            }
            guard let cText = TessResultIteratorGetUTF8Text(it, RIL_WORD) else { continue }
            let text = String(cString: cText)
            TessDeleteText(cText)
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty { continue }
            var l: Int32 = 0, t: Int32 = 0, r: Int32 = 0, b: Int32 = 0
            _ = TessPageIteratorBoundingBox(page, RIL_WORD, &l, &t, &r, &b)
            let conf = Double(TessResultIteratorConfidence(it, RIL_WORD)) / 100
            words.append(OCRWord(text: trimmed, confidence: max(0, min(1, conf)),
                                 box: Box(left: Int(l), top: Int(t), right: Int(r), bottom: Int(b))))
        } while TessResultIteratorNext(it, RIL_WORD) != 0
        if !words.isEmpty { lines.append(OCRLine(words: words, box: lineBox, printed: printed)) }
        return lines
    }

    /// The text at the iterator's position at `level`, trimmed; nil when empty.
    private static func text(of it: OpaquePointer, level: TessPageIteratorLevel) -> String? {
        guard let cText = TessResultIteratorGetUTF8Text(it, level) else { return nil }
        defer { TessDeleteText(cText) }
        let text = String(cString: cText).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }

    /// Where Tesseract's language files are: TESSDATA_PREFIX, then the usual install places.
    public static func locateTessdata(languages: OCRLanguages, explicit: String?) throws(OCRError) -> String {
        var candidates: [String] = []
        if let explicit { candidates.append(explicit) }
        if let env = ProcessInfo.processInfo.environment["TESSDATA_PREFIX"], !env.isEmpty {
            candidates.append(env)
            candidates.append((env as NSString).appendingPathComponent("tessdata"))
        }
        candidates += ["/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata",
                       "/usr/share/tessdata", "/usr/local/share/tessdata", "/opt/homebrew/share/tessdata"]
        let langs = languages.codes
        guard !langs.isEmpty else { throw OCRError(.missingLanguage, "no OCR language given; use --lang eng") }
        let fm = FileManager.default
        for dir in candidates where langs.allSatisfy({ fm.fileExists(atPath: "\(dir)/\($0).traineddata") }) {
            return dir
        }
        // Name the first missing file in the first directory that has any language data.
        let dir = candidates.first { fm.fileExists(atPath: "\($0)/osd.traineddata") || fm.fileExists(atPath: "\($0)/eng.traineddata") }
            ?? "/usr/share/tesseract-ocr/5/tessdata"
        let missing = langs.first { !fm.fileExists(atPath: "\(dir)/\($0).traineddata") } ?? langs[0]
        throw OCRError(.missingLanguage,
                       "the OCR language file \(dir)/\(missing).traineddata is missing; install it with 'apt-get install tesseract-ocr-\(missing)' or set TESSDATA_PREFIX")
    }
}

/// Runs a closure the first time `once` is called, whichever thread calls it.
final class Once: @unchecked Sendable {
    // Safe: `done` is only read and written while `lock` is held.
    private let lock = NSLock()
    private var done = false
    func once(_ body: () -> Void) {
        lock.withLock {
            guard !done else { return }
            done = true
            body()
        }
    }
}

/// A thread-safe counter.
final class Counter: @unchecked Sendable {
    // Safe: `value` is only read and written while `lock` is held.
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}
