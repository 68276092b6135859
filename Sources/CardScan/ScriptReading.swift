import CardDetection
import CardOCR
import ContactParser
import Foundation
import ImageIngest
import Synchronization

/// Cards printed in Japanese, Chinese or Korean, read a second time in their own script.
///
/// The first reading is English's. When the card's numbers, domain or postcode name Japan, China,
/// Taiwan, Hong Kong, Macao, Singapore or Korea, the card is read whole again with that country's
/// script's data; when that reading holds East Asian text surely, the contact is parsed from it,
/// with the e-mail and web addresses of the English reading (English data reads Latin letters
/// better). A card from elsewhere pays only for the look at its record.
extension CardScanner {
    /// Surely read East Asian letters a reading must hold for the card to be taken as printed in
    /// that script (a name and a company; junk read in a Latin card's pictures gives fewer).
    static let sureLettersOfAScriptCard = 6

    /// How many cards this process has read a second time in a script of their own (for tests
    /// and the benchmark).
    public static var scriptReadings: Int { scriptCounter.load(ordering: .relaxed) }
    private static let scriptCounter = Atomic<Int>(0)

    /// The contact read in the card's own script, or nil when the card is not printed in one
    /// (or its data is not installed, or the configuration reads in chosen languages).
    func readInCardScript(_ page: OCRPage, card: PixelImage, english: Contact, parser: ContactParser,
                          timings: inout StageTimings) -> Contact? {
        guard let nativePools, configuration.cardScripts, configuration.languages.isEnglishOnly else { return nil }
        guard !Self.isLatinCard(english, page: page) else { return nil }
        // The script from the country the card's own numbers, domain or postcode name, whatever
        // else English read: a bilingual card gives English a name and a company, and English
        // reads East Asian type as junk it may be sure of. (A quick reading of the unread lines
        // with all four scripts' data, for cards that name none, cost the Latin cards of the wild
        // set 115 ms each on average: their poor photos give such lines too.)
        guard let (script, region) = Self.script(ofRegion: english.region) ?? Self.script(ofNumbers: english, page: page)
            ?? Self.script(ofClues: english, page: page) else { return nil }
        Self.scriptCounter.add(1, ordering: .relaxed)
        let clock = ContinuousClock()
        let start = clock.now
        defer { timings.add((clock.now - start).milliseconds, to: .ocr) }
        let candidates = Self.scriptCandidates(script, region: region)
        var best: (page: OCRPage, rotation: QuarterTurn, script: CardScript)?
        for candidate in candidates {
            guard let pool = nativePools.pool(for: candidate.languages),
                  let read = try? pool.withEngine({ engine throws(OCRError) in try Self.readAsTurned(card, engine: engine) }) else { continue }
            if best.map({ OCREngine.isBetter(read.page, than: $0.page) }) ?? true { best = (read.page, read.rotation, candidate) }
        }
        guard var best else { return nil }
        let upright = CardNormalizer.normalize(card), normalized = upright.rotated(clockwise: best.rotation)
        if let pool = nativePools.pool(for: best.script.languages) {
            if best.rotation == .none {
                best.page = withMissedLines(of: page, in: best.page, card: card, pool: pool)
                best.page = withUnreadInk(in: best.page, normalized: normalized, pool: pool, eastAsian: true)
            }
            best.page = withLargeLinesReadAlone(best.page, card: card.rotated(clockwise: best.rotation), pool: pool)
        }
        var inColumns = false
        if let columns = readVertical(card, normalized: upright, script: best.script, across: best.rotation == .none ? best.page : page, pools: nativePools),
           Self.sureLetters(columns) > Self.sureLetters(best.page) {
            best.page = columns
            inColumns = true
        }
        // The script's reading must read some East Asian text surely (a Latin card read with
        // Korean data gives a few unsure syllables).
        guard Self.sureLetters(best.page) >= Self.sureLettersOfAScriptCard else { return nil }
        // The spaces of lines across are measured in their ink (`InkSpacing`), once the reading
        // is chosen (its words' confidences are the line's then); a reading in columns keeps the
        // script's.
        if !inColumns { best.page = InkSpacing.spaced(best.page, image: normalized) }
        let lines = best.page.lines.map(Self.textLine)
        guard ContactParser.isEastAsian(lines) else { return nil }
        let native = parser.parse(lines: lines)
        return Self.merge(english: english, script: native)
    }

    /// `script` (a reading of `card` in its script) with the lines the English reading (`english`)
    /// found there but it left out, each read alone as one line; a line kept when read surely.
    func withMissedLines(of english: OCRPage, in script: OCRPage, card: PixelImage, pool: EnginePool) -> OCRPage {
        var page = script
        for box in ForeignScriptEvidence.missedLines(script: script, english: english) {
            guard let part = Self.readAlone(box, of: card, pool: pool) else { continue }
            page = ForeignScriptEvidence.adding(part, at: box, to: page)
        }
        return page
    }

    /// `script` (a reading of a card with `pool`'s languages, in English or in the card's script,
    /// as the card lies in `normalized`) with the print it left out (`UnreadInk`) on the card
    /// normalised (`normalized`), each line of it read alone; a line kept when read surely.
    ///
    /// In a card's East Asian script (`eastAsian`), a few characters read unsurely cover no ink:
    /// layout analysis reads a name of two or three characters set large so, in pieces; and print
    /// a single line does not read surely is read as a single word, and then as a raw line. (On
    /// Latin cards neither paid: 330 generated photos, two cards changed, one for the worse.)
    func withUnreadInk(in script: OCRPage, normalized: PixelImage, pool: EnginePool, eastAsian: Bool = false) -> OCRPage {
        var page = script
        for box in UnreadInk.boxes(in: normalized, read: eastAsian ? UnreadInk.sureLines(of: script) : script) {
            guard var part = Self.readAlone(box, of: normalized, normalize: false, pool: pool) else { continue }
            if eastAsian, !Self.holdsSureLine(part), box.width <= 4 * box.height,
               let word = Self.readAlone(box, of: normalized, normalize: false, pool: pool, as: .singleWord) {
                part = word
            }
            // Two or three characters set large (a name) can defeat the line finder of page
            // segmentation 7 and 8 and read as nothing; read as a raw line (13), they are read.
            if eastAsian, !Self.holdsSureLine(part),
               let raw = Self.readAlone(box, of: normalized, normalize: false, pool: pool, as: .rawLine), Self.holdsSureLine(raw) {
                part = raw
            }
            // The pieces inside the box, once it is read surely, were misreadings of its ink.
            let pieces = eastAsian && Self.holdsSureLine(part)
            page = ForeignScriptEvidence.adding(part, at: box, to: pieces ? UnreadInk.withoutFragments(inside: box, of: page) : page)
        }
        return page
    }

    static func holdsSureLine(_ part: OCRPage) -> Bool { part.lines.contains { $0.confidence >= VerticalText.unsureColumn } }

    /// `script` (a reading of `card` in its script) with its lines set large read again alone
    /// (`LargeLines`), each kept when read more surely.
    func withLargeLinesReadAlone(_ script: OCRPage, card: PixelImage, pool: EnginePool) -> OCRPage {
        var page = script
        for (index, box) in LargeLines.candidates(in: script) {
            guard let part = Self.readAlone(box, of: card, pool: pool) else { continue }
            page = LargeLines.replacing(line: index, with: part, at: box, in: page)
        }
        return page
    }

    /// The part of `image` inside `box` read as one line (page segmentation 7); nil when the
    /// reading fails. `normalize: false` for an image already normalised.
    static func readAlone(_ box: Box, of image: PixelImage, normalize: Bool = true, pool: EnginePool,
                          as segmentation: PageSegmentation = .singleLine) -> OCRPage? {
        try? pool.withEngine { engine throws(OCRError) in
            try engine.recognize(crop(image, to: box), normalize: normalize, segmentation: segmentation)
        }
    }

    /// A card read in its script at the turn the English reading found for it (`card` comes
    /// turned): read another way only when that reading is unsure and another is better. The
    /// script's layout analysis finds columns in lines across turned a quarter, and such a
    /// reading can hold more characters than the right one while it leaves out lines.
    static func readAsTurned(_ card: PixelImage, engine: OCREngine) throws(OCRError) -> (page: OCRPage, rotation: QuarterTurn) {
        let asTurned = try engine.recognize(card)
        guard asTurned.meanWordConfidence < OCREngine.trustedConfidence else { return (asTurned, .none) }
        var other = try engine.recognizeUpright(card)
        // Read turned a quarter, lines across may come back read as columns, turned back: the card
        // as it lies, read another way.
        if let laid = VerticalText.asLaid(other.page, turnedBy: other.rotation) { other = (laid, .none) }
        return OCREngine.isBetter(other.page, than: asTurned) ? other : (asTurned, .none)
    }

    static func sureLetters(_ page: OCRPage) -> Int { ForeignScriptEvidence.sureEastAsianLetters(in: page) }

    /// A card taller than wide, of a script printed in columns, read as columns with the script's
    /// vertical data, beside the lines across (`across`, a reading of the card as it is) that
    /// hold its numbers and addresses (`VerticalText.page`); nil for other cards. `normalized` is
    /// the card normalised as it is (not turned), where unread columns are looked for.
    func readVertical(_ card: PixelImage, normalized: PixelImage, script: CardScript, across: OCRPage, pools: NativeLanguagePools) -> OCRPage? {
        guard card.height > card.width, let languages = script.verticalLanguages, let pool = pools.pool(for: languages),
              var vertical = try? pool.withEngine({ engine throws(OCRError) in try engine.recognize(card) }) else { return nil }
        func read(_ box: Box) -> OCRPage? { try? pool.withEngine { engine throws(OCRError) in try engine.recognize(Self.crop(card, to: box)) } }
        for box in VerticalText.missedColumns(vertical: vertical, horizontal: across) {
            if let part = read(box) { vertical = VerticalText.adding(part, at: box, to: vertical) }
        }
        // A column read unsurely, read again alone; kept when read more surely.
        for (index, box) in VerticalText.unsureColumns(vertical).reversed() {
            guard let part = read(box), part.meanWordConfidence > vertical.lines[index].confidence else { continue }
            vertical = VerticalText.replacing(line: index, of: vertical, with: part, at: box)
        }
        for box in VerticalText.unreadColumns(in: normalized, vertical: vertical, horizontal: across) {
            if let part = read(box) { vertical = VerticalText.adding(part, at: box, to: vertical) }
        }
        return VerticalText.page(vertical: vertical, horizontal: across)
    }

    /// The part of an image inside `box`.
    static func crop(_ image: PixelImage, to box: Box) -> PixelImage {
        let c = image.channels
        var pixels: [UInt8] = []
        pixels.reserveCapacity(box.width * box.height * c)
        for y in box.top..<box.bottom {
            let start = (y * image.width + box.left) * c
            pixels += image.pixels[start..<start + box.width * c]
        }
        return PixelImage(width: box.width, height: box.height, channels: c, pixels: pixels)
    }

    /// The script the card's numbers or addresses say it is printed in (a calling code, a domain,
    /// a postcode of Japan, China, Taiwan, Hong Kong, Macao or Korea), with that region; nil when
    /// they do not say.
    static func script(ofRegion region: RegionGuess?) -> (CardScript, String)? {
        guard let region, region.sources.contains(where: strongRegionEvidence.contains),
              let script = script(ofCode: region.code) else { return nil }
        return (script, region.code)
    }

    /// The script of a card that names no country, from its national numbers as those regions
    /// print them (`PhoneNumbers.region(ofPrintedNumbers:among:)`), when English also left lines
    /// of it unread (`ForeignScriptEvidence.unreadLines`).
    static func script(ofNumbers english: Contact, page: OCRPage) -> (CardScript, String)? {
        guard english.region == nil, !english.phones.isEmpty, !ForeignScriptEvidence.unreadLines(in: page).isEmpty,
              let code = PhoneNumbers.region(ofPrintedNumbers: english.phones.map(\.number), among: trunkPrefixRegions),
              let script = script(ofCode: code) else { return nil }
        return (script, code)
    }

    /// The script of a card placed in another country, or in none, whose e-mail, web address or
    /// numbers name a country that writes one (`RegionGuess.countriesNamed`) while English left
    /// lines of it unread: OCR misreads a calling code or a domain now and then (+62 for +82,
    /// .co.br for .co.kr), and the misread one can outvote the right one. Nil when the clues name
    /// no such country, or two.
    static func script(ofClues english: Contact, page: OCRPage) -> (CardScript, String)? {
        let named = RegionGuess.countriesNamed(emails: english.emails, urls: english.urls, numbers: english.phones.map(\.number))
        let scripted = named.filter { script(ofCode: $0) != nil }
        guard scripted.count == 1, let code = scripted.first, let script = script(ofCode: code),
              !ForeignScriptEvidence.unreadLines(in: page).isEmpty else { return nil }
        return (script, code)
    }

    /// The regions whose national numbers tell them apart: a trunk prefix (0) and area codes of
    /// their own. Hong Kong's and Macao's eight digits without one look like many a local number
    /// printed without its area code elsewhere ("4821-3967").
    static let trunkPrefixRegions = ["JP", "KR", "CN", "TW"]

    static func script(ofCode code: String) -> CardScript? {
        switch code {
        case "JP": return .japanese
        case "KR": return .korean
        case "CN", "SG": return .simplifiedChinese
        case "TW", "HK", "MO": return .traditionalChinese
        default: return nil
        }
    }

    /// True for a card English read surely, its person and most of its words: a Latin card,
    /// whatever its country (an English card from Tokyo or Singapore). Not when English also left
    /// lines unread and the e-mail does not confirm its name: a bilingual card, whose English title
    /// or company English reads well, and its East Asian name as a few Latin letters.
    static func isLatinCard(_ english: Contact, page: OCRPage) -> Bool {
        readsAsLatinCard(english) && page.meanWordConfidence >= latinCardConfidence
            && (ForeignScriptEvidence.unreadLines(in: page).isEmpty || (english.confidence[.name] ?? 0) >= confirmedName)
    }

    /// True when English read the card's person surely: a name, and a title or a company, each
    /// trusted (English data reads a Japanese, Chinese or Korean name as junk, if at all).
    static func readsAsLatinCard(_ english: Contact) -> Bool {
        let c = english.confidence
        return (c[.name] ?? 0) >= 0.6 && max(c[.title] ?? 0, c[.organization] ?? 0) >= 0.7
    }

    /// Confidence of a name English read from which it is the card's person whatever else English
    /// left unread: read surely, in a line the role model takes for a name, and agreeing with the
    /// e-mail (`Contact.confidence`). Latin cards from Japan in the wild set: 1.0; bilingual cards
    /// whose East Asian name English read as letters: 0.72-0.77.
    static let confirmedName = 0.9

    /// Mean word confidence of English's reading from which a card whose person English read
    /// surely is taken for a Latin card. English cards from Japan and Singapore in the wild set
    /// read at 0.68-0.94; East Asian cards where English found a person, at 0.49-0.67 (the East
    /// Asian lines English reads as junk weigh the mean down).
    static let latinCardConfidence = 0.65

    static let strongRegionEvidence: Set<String> = ["phone-prefix", "phone-number", "domain", "postcode", "country-name"]

    /// The scripts to read a card with: the one its letters show, or, for Han characters alone,
    /// the form its region writes (Taiwan, Hong Kong and Macao traditional, mainland China and
    /// Singapore simplified, Japan's kanji), and all three when the region does not say.
    static func scriptCandidates(_ script: CardScript, region: String?) -> [CardScript] {
        guard script == .simplifiedChinese || script == .traditionalChinese else { return [script] }
        switch region {
        case "TW", "HK", "MO": return [.traditionalChinese]
        case "CN", "SG": return [.simplifiedChinese]
        case "JP": return [.japanese]
        default: return [.simplifiedChinese, .traditionalChinese, .japanese]
        }
    }

    /// The reading in the card's script, with the English reading's e-mail and web addresses, and
    /// its phones when the script's reading found none.
    static func merge(english: Contact, script: Contact) -> Contact {
        var contact = script
        if !english.emails.isEmpty { contact.emails = english.emails }
        if !english.urls.isEmpty { contact.urls = english.urls }
        // English's numbers, when both readings place the card in one country (a number without
        // its calling code is read by the country's plan), or English placed it nowhere (its
        // numbers then kept as printed are read by the plan of the script's country).
        if !english.phones.isEmpty {
            if english.region == nil, let region = script.region?.code {
                contact.phones = mergePhones(english: known(english.phones.map { $0.read(in: region) }, script: script.phones), script: script.phones)
            } else if english.region?.code == script.region?.code {
                contact.phones = mergePhones(english: known(english.phones, script: script.phones), script: script.phones)
            } else {
                contact.phones = mergePhones(english: script.phones, script: english.phones.filter { $0.number.hasPrefix("+") })
            }
        }
        for field in [Contact.Field.emails, .urls, .phones] where contact.confidence[field] == nil {
            contact.confidence[field] = english.confidence[field]
        }
        return contact
    }

    /// English's numbers (its data reads digits better), each typed by the label the script's
    /// reading found beside the same number (携帯, 传真, 팩스 ...), then the script's valid numbers
    /// English missed. A number English read invalid that the script's reading read valid is the
    /// script's: English reads a label in East Asian letters before it as digits ("84 090-...").
    static func mergePhones(english: [Phone], script: [Phone]) -> [Phone] {
        var phones = english
        for i in phones.indices {
            guard let same = script.first(where: { samePhone($0, phones[i]) }) else { continue }
            if !phones[i].valid && same.valid { phones[i] = same } else { phones[i].type = same.type }
        }
        for phone in script where phone.valid && !phones.contains(where: { samePhone($0, phone) }) { phones.append(phone) }
        return phones
    }

    /// English's numbers that a plan knows or that the script's reading found too: English reads
    /// an address in East Asian letters as junk around its digits (a postcode, a house number),
    /// which the script's reading reads as words.
    static func known(_ english: [Phone], script: [Phone]) -> [Phone] {
        english.filter { phone in phone.valid || script.contains { samePhone($0, phone) } }
    }

    /// Two readings of one number: the same last eight digits.
    static func samePhone(_ a: Phone, _ b: Phone) -> Bool {
        func key(_ phone: Phone) -> String { String((phone.e164 ?? phone.number).filter(\.isNumber).suffix(8)) }
        return key(a) == key(b)
    }
}
