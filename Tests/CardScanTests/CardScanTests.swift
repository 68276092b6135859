import CardDetection
@testable import CardOCR
import ContactParser
import ImageIngest
import Foundation
import Testing
import TestSupport
@testable import CardScan

@Suite(.serialized) struct CardScannerTests {
    static func scanner(workers: Int = 2) throws -> CardScanner {
        var configuration = ScanConfiguration()
        configuration.workers = workers
        return try CardScanner(configuration: configuration)
    }

    @Test func everyFixtureCardGivesItsEmailsAndPhones() throws {
        let scanner = try Self.scanner()
        var hits = 0, total = 0
        for card in try ExpectedCard.all() {
            let record = scanner.scan(file: TestPaths.cards.appendingPathComponent(card.file).path)
            #expect(record.status == .ok)
            let contact = try #require(record.contact)
            total += card.emails.count + card.phones.count
            hits += card.emails.filter { contact.emails.contains($0) }.count
            hits += card.phones.filter { p in contact.phones.contains { $0.e164 == p.e164 } }.count
            #expect(record.image?.orientation.rawValue == card.orientation)
            #expect(record.metadata?.hadLocation == true)
        }
        // Fixture photos are hard on purpose (a dark card on a dark desk); most must still be read.
        #expect(Double(hits) / Double(total) >= 0.8, "\(hits) of \(total)")
    }

    /// Fixtures/CJK/cjk-vertical.jpg: a made-up Japanese card set in columns, its numbers and
    /// e-mail across the foot (scripts/make_cjk_photos.py --seed 11 --count 64, cjk-ja-008.jpg,
    /// resized to 1600x1200). The columns make its ink run sideways; read that way it gives
    /// nothing, so the card is read as it lies too, then in Japanese.
    @Test func aVerticalJapaneseCardIsReadUprightAndInItsScript() throws {
        let url = TestPaths.packageRoot.appendingPathComponent("Fixtures/CJK/cjk-vertical.jpg")
        let record = try Self.scanner(workers: 1).scan(file: url.path)
        let contact = try #require(record.contact)
        #expect(record.image?.textRotation.degrees == 0)
        #expect(contact.emails == ["k.okada@daruijin.co.jp"])
        #expect(contact.phones.map(\.e164) == ["+819012279750"])
        #expect(contact.organization == "株式会社池田電気")
        #expect(contact.title == "営業部担当部長")
    }

    /// Fixtures/Reading/large-line.png (scripts/make_reading_fixture.py): a made-up card whose
    /// name, in capitals far larger than the lines under it, Tesseract's layout analysis leaves
    /// out of the card's reading. Its ink, which no line of the reading covers, is read alone.
    @Test func aLineTheReadingLeftOutIsReadAlone() throws {
        let url = TestPaths.packageRoot.appendingPathComponent("Fixtures/Reading/large-line.png")
        var configuration = ScanConfiguration()
        configuration.workers = 1
        configuration.detectCard = false
        configuration.unreadLines = false
        let without = try #require(try CardScanner(configuration: configuration).scan(file: url.path).contact)
        // The premise: read as one block, the card gives everything but its name.
        #expect(without.name == nil)
        #expect(without.title == "Managing Partner")
        configuration.unreadLines = true
        let with = try #require(try CardScanner(configuration: configuration).scan(file: url.path).contact)
        #expect(with.name?.full == "TOM ABERNATHY")
        #expect(with.title == "Managing Partner")
        #expect(with.emails == ["tom@harbourpine.example"])
    }

    /// Fixtures/Reading/large-line.png turned so that its rows of print rise by 15 degrees, as a
    /// card cut along an outline that took the page under it comes out: read as it is, the card
    /// gives no e-mail and no name; levelled (`TextSkew`), it gives both.
    @Test func aCardWithSlantedPrintIsReadLevelled() throws {
        let url = TestPaths.packageRoot.appendingPathComponent("Fixtures/Reading/large-line.png")
        let card = try EncodedImage(bytes: TestPaths.bytes(url), source: "large-line.png").decode(grayscale: true).image
        let slanted = try PNGEncoder.encode(TextSkew.levelled(card, degrees: -15), source: "slanted.png")
        var configuration = ScanConfiguration()
        configuration.workers = 1
        configuration.detectCard = false
        configuration.levelSlantedPrint = false
        let without = try #require(try CardScanner(configuration: configuration).scan(bytes: slanted, source: "slanted.png").contact)
        #expect(without.emails.isEmpty)
        #expect(without.name == nil)
        configuration.levelSlantedPrint = true
        let before = CardScanner.levelledReadings
        let with = try #require(try CardScanner(configuration: configuration).scan(bytes: slanted, source: "slanted.png").contact)
        #expect(CardScanner.levelledReadings > before)
        #expect(with.emails == ["tom@harbourpine.example"])
        #expect(with.name?.full == "TOM ABERNATHY")
        #expect(with.title == "Managing Partner")
    }

    /// Fixtures/CJK/cjk-bilingual.jpg: a made-up Korean card with an English title and Latin
    /// letters under its name (scripts/make_cjk_photos.py --seed 11 --count 64, cjk-ko-011.jpg,
    /// resized to 1400x1050). English reads a name and a title there (the title is printed in
    /// English too); its Korean numbers send it to Korean data all the same.
    @Test func aBilingualKoreanCardIsReadInItsScript() throws {
        let url = TestPaths.packageRoot.appendingPathComponent("Fixtures/CJK/cjk-bilingual.jpg")
        let record = try Self.scanner(workers: 1).scan(file: url.path)
        let contact = try #require(record.contact)
        #expect(contact.region?.code == "KR")
        #expect(contact.name?.full == "이서연")
        #expect(contact.name?.family == "이")
        #expect(contact.title == "영업부 부장")
        #expect(contact.organization?.filter { $0 != " " } == "한가람출판(주)")
        #expect(contact.emails == ["info@mingwoo.co.kr"])
    }

    /// Fixtures/Conditions/cond-keyboard-glare.jpg: an English card from Tokyo (+81 numbers, a
    /// .jp domain). English reads its person and most of its words surely: it is not read again
    /// in Japanese, which would cost a whole reading for nothing.
    @Test func anEnglishCardFromJapanIsNotReadInJapanese() throws {
        let url = TestPaths.packageRoot.appendingPathComponent("Fixtures/Conditions/cond-keyboard-glare.jpg")
        let before = CardScanner.scriptReadings
        let record = try Self.scanner(workers: 1).scan(file: url.path)
        #expect(record.contact?.region?.code == "JP")
        #expect(record.contact?.name != nil)
        #expect(CardScanner.scriptReadings == before)
        let cjk = TestPaths.packageRoot.appendingPathComponent("Fixtures/CJK/cjk-bilingual.jpg")
        _ = try Self.scanner(workers: 1).scan(file: cjk.path)
        #expect(CardScanner.scriptReadings == before + 1)
    }

    /// A card English placed in no country keeps English's numbers (read as printed) when it is
    /// read again in the script of the country its numbers name: they are then read by that
    /// country's plan, and the script's reading adds only valid numbers English missed.
    @Test func aScriptReadingKeepsTheNumbersEnglishReadAsPrinted() {
        var english = Contact()
        english.phones = [Phone(type: .work, number: "03-1234-5678", e164: nil, valid: false),
                          Phone(type: .work, number: "090-8765-4321", e164: nil, valid: false)]
        var script = Contact()
        script.region = RegionGuess(code: "JP", sources: ["script"])
        script.phones = [Phone(type: .fax, number: "03-1234-5678", e164: "+81312345678", valid: true),
                         Phone(type: .work, number: "00.1234", e164: nil, valid: false)]
        let merged = CardScanner.merge(english: english, script: script)
        #expect(merged.phones.map(\.e164) == ["+81312345678", "+819087654321"])
        #expect(merged.phones.map(\.type) == [.fax, .mobile])
    }

    /// A card English placed in another country by a misread clue (.co.br for .co.kr) is read in
    /// the script of the country another of its clues names, when English left lines unread;
    /// not when its clues name no such country, or two.
    @Test func aCardIsReadInTheScriptOfTheCountryOneOfItsCluesNames() {
        func line(_ words: [(String, Double)], top: Int) -> OCRLine {
            let box = Box(left: 20, top: top, right: 400, bottom: top + 30)
            return OCRLine(words: words.map { OCRWord(text: $0.0, confidence: $0.1, box: box) }, box: box)
        }
        let page = OCRPage(lines: [line([("cyt", 0.3), ("RSSAE", 0.4)], top: 20), line([("os", 0.2)], top: 70),
                                   line([("Hes", 0.3), ("Ss", 0.4), ("BHAI", 0.3)], top: 120),
                                   line([("kim@example.co.br", 0.8)], top: 170), line([("www.example.co.kr", 0.9)], top: 220)],
                           width: 800, height: 500)
        var english = Contact()
        english.region = RegionGuess(code: "BR", sources: ["domain"])
        english.emails = ["kim@example.co.br"]
        english.urls = ["www.example.co.kr"]
        #expect(CardScanner.script(ofClues: english, page: page).map { "\($0.0) \($0.1)" } == "korean KR")
        english.emails = ["kim@example.co.jp"]
        #expect(CardScanner.script(ofClues: english, page: page) == nil)
        english.emails = ["kim@example.com"]
        english.urls = ["www.example.com"]
        #expect(CardScanner.script(ofClues: english, page: page) == nil)
        english.phones = [Phone(type: .work, number: "+81 3-1234-5678", e164: "+81312345678", valid: true)]
        #expect(CardScanner.script(ofClues: english, page: page).map { "\($0.0) \($0.1)" } == "japanese JP")
        let read = OCRPage(lines: [line([("Kim", 0.9), ("Minji", 0.9)], top: 20), line([("+81 3-1234-5678", 0.9)], top: 70)],
                           width: 800, height: 500)
        #expect(CardScanner.script(ofClues: english, page: read) == nil)
    }

    /// A label in East Asian letters English read as digits before a number ("84 090-...") makes
    /// its reading invalid: the script's valid reading of the same number takes its place.
    @Test func aNumberEnglishReadInvalidIsTheScriptsWhenTheScriptReadItValid() {
        var english = Contact()
        english.region = RegionGuess(code: "JP", sources: ["phone-prefix"])
        english.phones = [Phone(type: .work, number: "+81 3-1234-5678", e164: "+81312345678", valid: true),
                          Phone(type: .work, number: "84 090-8765-4321", e164: nil, valid: false)]
        var script = Contact()
        script.region = RegionGuess(code: "JP", sources: ["phone-prefix", "script"])
        script.phones = [Phone(type: .fax, number: "03-1234-5678", e164: "+81312345678", valid: true),
                         Phone(type: .mobile, number: "090-8765-4321", e164: "+819087654321", valid: true)]
        let merged = CardScanner.merge(english: english, script: script)
        #expect(merged.phones.map(\.number) == ["+81 3-1234-5678", "090-8765-4321"])
        #expect(merged.phones.map(\.e164) == ["+81312345678", "+819087654321"])
        #expect(merged.phones.map(\.type) == [.fax, .mobile])
    }

    /// English reads an address in East Asian letters as junk around its digits: a number no plan
    /// knows that the script's reading did not find is left out; one it found too stays.
    @Test func aNumberNoPlanKnowsStaysOnlyWhenTheScriptsReadingFoundItToo() {
        var english = Contact()
        english.region = RegionGuess(code: "JP", sources: ["phone-prefix"])
        english.phones = [Phone(type: .work, number: "+81 3-1234-5678", e164: "+81312345678", valid: true),
                          Phone(type: .work, number: "7475-0691", e164: nil, valid: false),
                          Phone(type: .work, number: "1234-567", e164: nil, valid: false)]
        var script = Contact()
        script.region = RegionGuess(code: "JP", sources: ["phone-prefix", "script"])
        script.phones = [Phone(type: .fax, number: "1234-567", e164: nil, valid: false)]
        let merged = CardScanner.merge(english: english, script: script)
        #expect(merged.phones.map(\.number) == ["+81 3-1234-5678", "1234-567"])
        #expect(merged.phones.map(\.type) == [.work, .fax])
    }

    /// A reading in a language guessed from weak clues lends its accented spelling of the fields
    /// English read, and nothing of its own: no field English left empty, no numbers.
    @Test func aGuessedLanguageLendsItsLettersOnly() {
        var english = Contact()
        english.organization = "Lindqvist Aalto Oy"
        english.title = "Myyntipaallikko"
        var native = Contact()
        native.organization = "Lindqvist Aalto Oy"
        native.title = "Myyntipäällikkö"
        native.name = PersonName(full: "Eero Lehto", given: "Eero", family: "Lehto")
        native.phones = [Phone(type: .work, number: "09 123 4567", e164: nil, valid: false)]
        let respelled = CardScanner.respell(english, native: native)
        #expect(respelled.title == "Myyntipäällikkö")
        #expect(respelled.organization == "Lindqvist Aalto Oy")
        #expect(respelled.name == nil && respelled.phones.isEmpty)
        english.title = "Sales Director"
        #expect(CardScanner.respell(english, native: native).title == "Sales Director")
    }

    @Test func batchRecordsComeInInputOrderAndEnginesAreBounded() throws {
        let scanner = try Self.scanner(workers: 2)
        let files = try ExpectedCard.all().map { ScanInput.file(TestPaths.cards.appendingPathComponent($0.file).path) }
        let inputs = files + [.bytes(Array("not an image".utf8), source: "-")] + files.prefix(2)
        var sources: [String] = []
        scanner.scan(inputs) { sources.append($0.source) }
        #expect(sources == inputs.map(\.source))
        #expect(scanner.enginesCreated <= 2)
    }

    @Test func badInputGetsAnErrorRecordNamingIt() throws {
        let scanner = try Self.scanner(workers: 1)
        let record = scanner.scan(bytes: Array("GIF? no".utf8), source: "notes.txt")
        #expect(record.status == .error)
        #expect(record.error?.code == .notAnImage)
        #expect(record.error?.message.hasPrefix("notes.txt: ") == true)
        let missing = scanner.scan(file: "/nonexistent/card.jpg")
        #expect(missing.error?.code == .unreadable)
    }

    @Test func recordJSONFollowsTheSchema() throws {
        let scanner = try Self.scanner(workers: 1)
        let record = scanner.scan(file: TestPaths.cards.appendingPathComponent("card-us-plain.jpg").path)
        let text = record.json().serialized()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["source"] as? String != nil)
        #expect(object["status"] as? String == "ok")
        let contact = try #require(object["contact"] as? [String: Any])
        for key in ["name", "title", "organization", "phones", "emails", "urls", "address"] {
            #expect(contact.keys.contains(key), "contact.\(key)")
        }
        let image = try #require(object["image"] as? [String: Any])
        #expect(image["ocrWidth"] as? Int == 1024)
        let timings = try #require(object["timingsMs"] as? [String: Any])
        for key in ["decode", "metadata", "detect", "ocr", "parse", "total"] { #expect(timings[key] != nil) }
        // Metadata kinds only, never values: no coordinates or serial numbers in the record.
        #expect(!text.contains("SN-0042"))
        #expect(!text.contains("CardCam"))
    }
}

/// Counts how many inputs were taken from it, from any thread.
final class TakenCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var taken = 0
    var value: Int { lock.withLock { taken } }
    func add() { lock.withLock { taken += 1 } }
}

/// Inputs that fail at once (no OCR needed), counted as they are taken.
struct CountingInputs: Sequence, Sendable {
    let count: Int
    let counter: TakenCounter
    func makeIterator() -> AnyIterator<ScanInput> {
        var i = 0
        return AnyIterator { [counter, count] in
            guard i < count else { return nil }
            defer { i += 1 }
            counter.add()
            return .failure(ScanError(.unreadable, "input \(i)"), source: "input-\(i)")
        }
    }
}

@Suite struct RecordStreamTests {
    /// `records(for:)` keeps only a few records ahead of a slow consumer, and stops taking inputs
    /// once the consuming task ends.
    @Test func recordsAreBoundedAndStopWhenTheConsumerGoes() async throws {
        var configuration = ScanConfiguration()
        configuration.workers = 2
        let scanner = try CardScanner(configuration: configuration)
        let counter = TakenCounter()
        let inputs = CountingInputs(count: 100_000, counter: counter)
        var seen: [String] = []
        for await record in scanner.records(for: inputs, buffer: 4) {
            seen.append(record.source)
            if seen.count == 3 {
                try await Task.sleep(for: .milliseconds(300))
                // A slow consumer: the scan waits instead of running through 100,000 inputs.
                #expect(counter.value < 64, "taken while the consumer slept: \(counter.value)")
                break
            }
        }
        #expect(seen == ["input-0", "input-1", "input-2"])
        try await Task.sleep(for: .milliseconds(300))
        let afterCancel = counter.value
        try await Task.sleep(for: .milliseconds(300))
        #expect(counter.value == afterCancel)
        #expect(afterCancel < 100)
    }
}

/// A card whose rival outline lies elsewhere in the photo is read along it only when its own
/// reading holds no contact data and no number: a reading with a number printed without its area
/// code is of the card (`CardScanner.elsewhereReadingData`).
@Suite struct OutlineElsewhereReadingTests {
    static func page(_ lines: [String]) -> OCRPage {
        OCRPage(lines: lines.enumerated().map { i, text in
            OCRLine(words: [OCRWord(text: text, confidence: 0.9, box: Box(left: 0, top: 30 * i, right: 300, bottom: 30 * i + 20))],
                    box: Box(left: 0, top: 30 * i, right: 300, bottom: 30 * i + 20))
        }, width: 400, height: 300)
    }

    @Test func aReadingWithoutANumberAsksForTheOutlineElsewhere() {
        // The print of a page, or a logo: no contact data is under 1.
        #expect(CardScanner.elsewhereReadingData(Self.page(["Budget review before the meeting", "Quarterly figures 2024"])) == 1)
        // A number without its area code, on a line of its own or with its label: none is under 0.
        #expect(CardScanner.elsewhereReadingData(Self.page(["Oficina Modelo", "Tel. 3123-0800"])) == 0)
        #expect(CardScanner.elsewhereReadingData(Self.page(["555 0123"])) == 0)
        // Six digits are no number.
        #expect(CardScanner.elsewhereReadingData(Self.page(["Since 1998, Suite 12"])) == 1)
    }

    @Test func anOutlineElsewhereWinsOnlyWithACardsContactData() {
        let lead = OCREngine.contactDataLead, enough = CardScanner.rivalReadingData
        // A number misread in part of the card or the page is not enough elsewhere; it is for a
        // rival nearly as likely.
        #expect(!CardScanner.keepsRival(holding: lead + 2, over: 0, elsewhere: true))
        #expect(CardScanner.keepsRival(holding: lead + 2, over: 0, elsewhere: false))
        #expect(CardScanner.keepsRival(holding: enough, over: 0, elsewhere: true))
        // Clearly more than the card's reading in either case.
        #expect(!CardScanner.keepsRival(holding: enough, over: enough - lead + 1, elsewhere: true))
        #expect(!CardScanner.keepsRival(holding: 10, over: 10 - lead + 1, elsewhere: false))
    }
}
