import CardDetection
import Foundation
import ImageIngest
import Testing
import TestSupport
@testable import CardOCR

@Suite(.serialized) struct OCREngineTests {
    /// A fixture card as card detection prepares it for OCR.
    static func prepared(_ file: String) throws -> PreparedCard {
        let bytes = try TestPaths.bytes(TestPaths.cards.appendingPathComponent(file))
        return try CardPreparer.prepare(try EncodedImage(bytes: bytes, source: file))
    }

    @Test func aCardFillingTheFrameIsReadWhole() throws {
        let card = try Self.prepared("card-us-full.jpg")
        #expect(card.placement.method != .wholeFrame)
        #expect(card.image.longSide == 1024)
        let page = try OCREngine(pageSegmentation: .singleBlock).recognizeUpright(card.image).page
        #expect(page.text.contains("sokafor@bluebelloutfitters.com"))
    }

    @Test func readsTheEmailOfAFixtureCard() throws {
        let card = try Self.prepared("card-us-plain.jpg")
        let engine = try OCREngine()
        let page = try engine.recognize(card.image)
        #expect(page.text.contains("laura.kimball@northwindlabs.com"))
        // Geometry comes with the text: the name is set larger than the contact lines.
        let name = try #require(page.lines.first { $0.text.contains("Kimball") && !$0.text.contains("@") })
        let email = try #require(page.lines.first { $0.text.contains("@") })
        #expect(name.textHeight > email.textHeight)
        #expect(name.confidence > 0.5)
    }

    @Test(arguments: [("card-us-upside.jpg", 180, "grace@harborline.com"),
                      ("card-ca-sideways.jpg", 90, "nferreira@northshorefreight.ca"),
                      ("card-gb-dark.jpg", 0, "oliver@brambleandfinch.co.uk")])
    func turnedAndDarkCardsAreReadUpright(file: String, rotation: Int, email: String) throws {
        let card = try Self.prepared(file)
        let engine = try OCREngine(pageSegmentation: .singleBlock)
        let (page, applied) = try engine.recognizeUpright(card.image)
        #expect(applied.degrees == rotation)
        // OCR may set a space before the "@"; the parser joins it.
        #expect(page.text.replacingOccurrences(of: " @", with: "@").contains(email), "\(file)")
    }

    @Test(arguments: ["cond-rotated-30.jpg", "cond-shadow-dark-card.jpg"])
    func aCardReadFairlyAtTheTurnOfAClearLayoutIsReadOnce(file: String) throws {
        let bytes = try TestPaths.bytes(TestPaths.conditions.appendingPathComponent(file))
        let card = try CardPreparer.prepare(try EncodedImage(bytes: bytes, source: file))
        let estimate = TextDirection.estimate(CardNormalizer.normalize(card.image))
        #expect(!estimate.isUncertain)
        let engine = try OCREngine(pageSegmentation: .singleBlock)
        let read = try engine.readUpright(card.image)
        // Read under the trusted confidence, over the clear layout's: not read at another turn.
        #expect(read.page.meanWordConfidence >= OCREngine.clearLayoutConfidence)
        #expect(read.page.meanWordConfidence < OCREngine.trustedConfidence)
        #expect(engine.readings == 1)
        #expect(read.rotation == estimate.rotation)
    }

    @Test func aCardReadAtAKnownTurnReadsAsAtTheTurnFound() throws {
        let card = try Self.prepared("card-us-upside.jpg")
        let engine = try OCREngine(pageSegmentation: .singleBlock)
        let found = try engine.readUpright(card.image)
        let known = try engine.read(card.image, at: .half)
        #expect(found.rotation == .half && known.rotation == .half)
        #expect(known.page.text == found.page.text)
        #expect(known.prepared.pixels == found.prepared.pixels)
        // Read at the wrong turn when told so: no other turn is tried.
        let before = engine.readings
        let wrong = try engine.read(card.image, at: .none)
        #expect(engine.readings == before + 1)
        #expect(!wrong.page.text.contains("grace@harborline.com"))
    }

    @Test func normalisationTurnsLightTextOnDarkIntoDarkOnLight() {
        // A dark band with a light bar in it, on light paper with a dark bar.
        var pixels = [UInt8](repeating: 230, count: 200 * 100)
        for y in 0..<50 { for x in 0..<200 { pixels[y * 200 + x] = 40 } }
        for y in 20..<26 { for x in 50..<150 { pixels[y * 200 + x] = 220 } }   // light text on the band
        for y in 70..<76 { for x in 50..<150 { pixels[y * 200 + x] = 30 } }    // dark text on paper
        let out = CardNormalizer.normalize(PixelImage(width: 200, height: 100, channels: 1, pixels: pixels))
        #expect(out.pixels[23 * 200 + 100] < 60)    // band text now dark
        #expect(out.pixels[10 * 200 + 100] > 200)   // band background now light
        #expect(out.pixels[73 * 200 + 100] < 60)    // paper text stays dark
        #expect(out.pixels[90 * 200 + 100] > 200)   // paper stays light
    }

    @Test func anEngineIsReusedForManyImages() throws {
        let engine = try OCREngine()
        let card = try Self.prepared("card-ca-split.jpg")
        let pages = try (0..<3).map { _ in try engine.recognize(card.image) }
        // One engine, three readings: the same text each time, none from a fresh engine.
        #expect(engine.readings == 3)
        #expect(Set(pages.map(\.text)).count == 1)
    }

    @Test func germanLanguageDataReadsTheSharpS() throws {
        guard (try? OCREngine.locateTessdata(languages: "deu", explicit: nil)) != nil else {
            try Test.cancel("tesseract-ocr-deu is not installed")
        }
        let card = try Self.prepared("card-de-band.jpg")
        let page = try OCREngine(languages: "eng+deu").recognizeUpright(card.image).page
        #expect(page.text.contains("Friedrichstraße"))
    }

    @Test func aMissingLanguageNamesTheFileAndThePackage() {
        do {
            _ = try OCREngine(languages: "xyz")
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .missingLanguage)
            #expect(error.message.contains("xyz.traineddata"))
            #expect(error.message.contains("tesseract-ocr-xyz"))
        }
    }
}

@Suite struct ReadingComparisonTests {
    static func page(_ words: [(String, Double)]) -> OCRPage {
        let line = OCRLine(words: words.enumerated().map { i, w in
            OCRWord(text: w.0, confidence: w.1, box: Box(left: 40 * i, top: 0, right: 40 * i + 30, bottom: 20))
        }, box: Box(left: 0, top: 0, right: 40 * words.count, bottom: 20))
        return OCRPage(lines: [line], width: 400, height: 100)
    }

    @Test func confidentCharactersCountOnlySurelyReadLettersAndDigits() {
        let page = Self.page([("Phone:", 0.95), ("555-0123", 0.9), ("~~|", 0.99), ("xqz", 0.4)])
        // "Phone" 5 + "5550123" 7; the junk word has no letters or digits, the unsure one does not count.
        #expect(page.confidentCharacters == 12)
    }

    @Test func aReadingWithMoreSurelyReadTextIsBetterWhateverItsJunk() {
        // The right way up: the card's words read surely, a busy picture read as much unsure junk.
        let right = Self.page([("Harbor", 0.93), ("Line", 0.91), ("grace@harborline.com", 0.88)]
                              + Array(repeating: ("mnml", 0.2), count: 10))
        // A wrong turn: a few words, none sure.
        let wrong = Self.page([("oul", 0.62), ("uo", 0.7)])
        // The junk outweighs the text in the reading evidence, not in the surely read text.
        #expect(right.readingEvidence < wrong.readingEvidence)
        #expect(OCREngine.isBetter(right, than: wrong))
        #expect(!OCREngine.isBetter(wrong, than: right))
        // A tie in surely read text is decided by the reading evidence.
        let clean = Self.page([("Harbor", 0.93), ("Line", 0.91), ("grace@harborline.com", 0.88)])
        #expect(OCREngine.isBetter(clean, than: right))
    }

    @Test func aReadingWithClearlyMoreContactDataIsBetterWhateverItsSurelyReadText() {
        // A dim card read the right way: its address and number read, none of it surely.
        let right = Self.page([("M", 0.6), ("010-2001-4640", 0.7), ("y.park@hanbit.co.kr", 0.6)])
        // A wrong turn: junk, some of it read surely.
        let wrong = Self.page([("ize", 0.85), ("oH", 0.82), ("yee", 0.81)])
        #expect(!OCREngine.isBetter(right, than: wrong))
        #expect(OCREngine.isBetter(right, data: 26, than: wrong, data: 0))
        #expect(!OCREngine.isBetter(wrong, data: 0, than: right, data: 26))
        // Under the lead (`contactDataLead`), the surely read text decides as before.
        #expect(!OCREngine.isBetter(right, data: OCREngine.contactDataLead - 1, than: wrong, data: 0))
        #expect(OCREngine.isBetter(wrong, data: 0, than: right, data: OCREngine.contactDataLead - 1))
    }
}

/// Boxes of words and lines, in page pixels.
@Suite struct BoxTests {
    @Test func boxesJoinOverlapAndMeet() {
        let a = Box(left: 0, top: 0, right: 10, bottom: 10)
        let beside = Box(left: 10, top: 2, right: 20, bottom: 8)
        let across = Box(left: 5, top: 5, right: 15, bottom: 30)
        let apart = Box(left: 11, top: 0, right: 20, bottom: 10)
        #expect(a.union(across) == Box(left: 0, top: 0, right: 15, bottom: 30))
        #expect(a.union(apart) == apart.union(a))
        #expect(a.intersects(across) && across.intersects(a))
        #expect(!a.intersects(beside), "boxes that only touch share no area")
        #expect(a.meets(beside) && beside.meets(a) && a.meets(across))
        #expect(!a.meets(apart) && !a.intersects(apart))
        #expect(a.union(across).contains(a) && a.union(across).contains(across))
    }
}
