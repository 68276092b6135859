import CardOCR
import ContactParser
import Foundation
import ImageIngest

/// Cards printed in Japanese, Chinese or Korean, read a second time in their own script.
///
/// The first reading is English's. When much of the card's text is lines English read as unsure
/// stray letters (`ForeignScriptEvidence`), the tallest of them are read again, alone, with the
/// data of all four East Asian scripts, and the letters that reading gives name the script
/// (`CardScript.of`). The card is then read whole with that script's data, and the contact parsed
/// from it, with the e-mail and web addresses of the English reading (English data reads Latin
/// letters better). A Latin card pays only for the look at its first reading, or, when that
/// reading was poor, for the quick reading of a few lines.
extension CardScanner {
    /// Surely read East Asian letters a reading must hold for the card to be taken as printed in
    /// that script (a name and a company; junk read in a Latin card's pictures gives fewer).
    static let sureLettersOfAScriptCard = 6

    /// The languages of the quick reading that names the script.
    static let scriptProbeLanguages: OCRLanguages = "jpn+chi_sim+chi_tra+kor"

    /// The contact read in the card's own script, or nil when the card is not printed in one
    /// (or its data is not installed, or the configuration reads in chosen languages).
    func readInCardScript(_ page: OCRPage, card: PixelImage, english: Contact, parser: ContactParser,
                          timings: inout StageTimings) -> Contact? {
        guard let nativePools, configuration.cardScripts, configuration.languages.isEnglishOnly else { return nil }
        let unread = ForeignScriptEvidence.unreadLines(in: page)
        // A card whose numbers, domain or postcode name a country of another script is not read again.
        guard !unread.isEmpty, !Self.namesOtherCountry(english.region), !Self.readsAsLatinCard(english) else { return nil }
        let clock = ContinuousClock()
        let start = clock.now
        defer { timings.add((clock.now - start).milliseconds, to: .ocr) }
        guard let script = Self.script(ofRegion: english.region)
                ?? ForeignScriptEvidence.probeImage(card, lines: unread).flatMap(probeScript) else { return nil }
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

    /// True when the card's own evidence (not the locale's or the option's region) names a
    /// country outside Japan, China, Taiwan, Hong Kong, Macao, Singapore and Korea.
    static func namesOtherCountry(_ region: RegionGuess?) -> Bool {
        guard let region, region.sources.contains(where: strongRegionEvidence.contains) else { return false }
        return script(ofRegion: region) == nil
    }

    /// True when English read the card's person surely: a name, and a title or a company, each
    /// trusted (English data reads a Japanese, Chinese or Korean name as junk, if at all).
    static func readsAsLatinCard(_ english: Contact) -> Bool {
        let c = english.confidence
        return (c[.name] ?? 0) >= 0.6 && max(c[.title] ?? 0, c[.organization] ?? 0) >= 0.7
    }

    static let strongRegionEvidence: Set<String> = ["phone-prefix", "domain", "postcode", "country-name", "legal-form"]

    /// The script of the letters a quick reading of the unread lines, with all four scripts' data, gives.
    func probeScript(_ probe: PixelImage) -> CardScript? {
        guard let probePool = nativePools?.pool(for: Self.scriptProbeLanguages),
              let probed = try? probePool.withEngine({ engine throws(OCRError) in try engine.recognizeUpright(probe).page })
        else { return nil }
        guard ForeignScriptEvidence.sureEastAsianLetters(in: probed) >= 2 else { return nil }
        return CardScript.of(probed.text, minimumLetters: 2)
    }

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
