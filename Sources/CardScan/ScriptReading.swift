import CardOCR
import ContactParser
import Foundation
import ImageIngest

/// Cards printed in Japanese, Chinese or Korean, read a second time in their own script.
///
/// The first reading is English's. When much of the card's text is lines English read as unsure
/// stray letters (`ForeignScriptEvidence`), English read no person surely, and the card's numbers,
/// domain or postcode name Japan, China, Taiwan, Hong Kong, Macao, Singapore or Korea, the card is
/// read whole again with that country's script's data, and the contact parsed from it, with the
/// e-mail and web addresses of the English reading (English data reads Latin letters better). A
/// Latin card pays only for the look at its first reading and its record.
extension CardScanner {
    /// Surely read East Asian letters a reading must hold for the card to be taken as printed in
    /// that script (a name and a company; junk read in a Latin card's pictures gives fewer).
    static let sureLettersOfAScriptCard = 6

    /// The contact read in the card's own script, or nil when the card is not printed in one
    /// (or its data is not installed, or the configuration reads in chosen languages).
    func readInCardScript(_ page: OCRPage, card: PixelImage, english: Contact, parser: ContactParser,
                          timings: inout StageTimings) -> Contact? {
        guard let nativePools, configuration.cardScripts, configuration.languages.isEnglishOnly else { return nil }
        let unread = ForeignScriptEvidence.unreadLines(in: page)
        guard !unread.isEmpty, !Self.readsAsLatinCard(english) else { return nil }
        let clock = ContinuousClock()
        let start = clock.now
        defer { timings.add((clock.now - start).milliseconds, to: .ocr) }
        // The script from the country the card's own numbers, domain or postcode name. (A quick
        // reading of the unread lines with all four scripts' data, for cards that name none, cost
        // the Latin cards of the wild set 115 ms each on average: their poor photos give such lines too.)
        guard let script = Self.script(ofRegion: english.region) else { return nil }
        let candidates = Self.scriptCandidates(script, region: english.region?.code)
        var best: OCRPage?
        for candidate in candidates {
            guard let pool = nativePools.pool(for: candidate.languages),
                  let read = try? pool.withEngine({ engine throws(OCRError) in try engine.recognizeUpright(card).page }) else { continue }
            if best.map({ OCREngine.isBetter(read, than: $0) }) ?? true { best = read }
        }
        // The script's reading must read some East Asian text surely (a Latin card read with
        // Korean data gives a few unsure syllables).
        guard let best,
              ForeignScriptEvidence.sureEastAsianLetters(in: best) >= Self.sureLettersOfAScriptCard else { return nil }
        let lines = best.lines.map(Self.textLine)
        guard ContactParser.isEastAsian(lines) else { return nil }
        let native = parser.parse(lines: lines)
        return Self.merge(english: english, script: native)
    }

    /// The script the card's numbers or addresses say it is printed in (a calling code, a domain,
    /// a postcode of Japan, China, Taiwan, Hong Kong, Macao or Korea); nil when they do not say.
    static func script(ofRegion region: RegionGuess?) -> CardScript? {
        guard let region, region.sources.contains(where: strongRegionEvidence.contains)
        else { return nil }
        switch region.code {
        case "JP": return .japanese
        case "KR": return .korean
        case "CN", "SG": return .simplifiedChinese
        case "TW", "HK", "MO": return .traditionalChinese
        default: return nil
        }
    }

    /// True when English read the card's person surely: a name, and a title or a company, each
    /// trusted (English data reads a Japanese, Chinese or Korean name as junk, if at all).
    static func readsAsLatinCard(_ english: Contact) -> Bool {
        let c = english.confidence
        return (c[.name] ?? 0) >= 0.6 && max(c[.title] ?? 0, c[.organization] ?? 0) >= 0.7
    }

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
        // its calling code is read by the country's plan).
        if !english.phones.isEmpty {
            contact.phones = english.region?.code == script.region?.code
                ? mergePhones(english: english.phones, script: script.phones)
                : mergePhones(english: script.phones, script: english.phones.filter { $0.number.hasPrefix("+") })
        }
        for field in [Contact.Field.emails, .urls, .phones] where contact.confidence[field] == nil {
            contact.confidence[field] = english.confidence[field]
        }
        return contact
    }

    /// English's numbers (its data reads digits better), each typed by the label the script's
    /// reading found beside the same number (携帯, 传真, 팩스 ...), then the script's valid numbers
    /// English missed.
    static func mergePhones(english: [Phone], script: [Phone]) -> [Phone] {
        func key(_ phone: Phone) -> String { String((phone.e164 ?? phone.number).filter(\.isNumber).suffix(8)) }
        var phones = english
        for i in phones.indices {
            if let same = script.first(where: { key($0) == key(phones[i]) }) { phones[i].type = same.type }
        }
        for phone in script where phone.valid && !phones.contains(where: { key($0) == key(phone) }) { phones.append(phone) }
        return phones
    }
}
