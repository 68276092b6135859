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
    /// The languages of the quick reading that names the script.
    static let scriptProbeLanguages: OCRLanguages = "jpn+chi_sim+chi_tra+kor"

    /// The contact read in the card's own script, or nil when the card is not printed in one
    /// (or its data is not installed, or the configuration reads in chosen languages).
    func readInCardScript(_ page: OCRPage, card: PixelImage, english: Contact, parser: ContactParser,
                          timings: inout StageTimings) -> Contact? {
        guard let nativePools, configuration.languages.isEnglishOnly else { return nil }
        let unread = ForeignScriptEvidence.unreadLines(in: page)
        if ProcessInfo.processInfo.environment["DEBUG_SCRIPT"] != nil {
            let d = page.lines.map { l in String(format: "%.2f/%d/%d%@", l.confidence, l.words.count, Int(l.textHeight), ForeignScriptEvidence.isUnread(l) ? "U" : "") }
            FileHandle.standardError.write(("script: \(unread.count) " + d.joined(separator: " ") + "\n").data(using: .utf8)!)
        }
        guard !unread.isEmpty, let probe = ForeignScriptEvidence.probeImage(card, lines: unread) else { return nil }
        let clock = ContinuousClock()
        let start = clock.now
        defer { timings.add((clock.now - start).milliseconds, to: .ocr) }
        guard let probePool = nativePools.pool(for: Self.scriptProbeLanguages),
              let probed = try? probePool.withEngine({ engine throws(OCRError) in try engine.recognizeUpright(probe).page }),
              let script = CardScript.of(probed.text, minimumLetters: 2) else { return nil }
        let candidates = Self.scriptCandidates(script, region: english.region?.code)
        if ProcessInfo.processInfo.environment["DEBUG_SCRIPT"] != nil { FileHandle.standardError.write("probe: \(probed.text.replacingOccurrences(of: "\n", with: " / ")) -> \(candidates)\n".data(using: .utf8)!) }  // DEBUGONLY
        var best: OCRPage?
        for candidate in candidates {
            guard let pool = nativePools.pool(for: candidate.languages),
                  let read = try? pool.withEngine({ engine throws(OCRError) in try engine.recognizeUpright(card).page }) else { continue }
            if best.map({ OCREngine.isBetter(read, than: $0) }) ?? true { best = read }
        }
        guard let best else { return nil }
        let native = parser.parse(lines: best.lines.map(Self.textLine))
        return Self.merge(english: english, script: native)
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
        if contact.phones.isEmpty { contact.phones = english.phones }
        for field in [Contact.Field.emails, .urls, .phones] where contact.confidence[field] == nil {
            contact.confidence[field] = english.confidence[field]
        }
        return contact
    }
}
