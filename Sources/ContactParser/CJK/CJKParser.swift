import Foundation

/// A line of an East Asian card: as read, and with full-width forms folded.
struct CJKLine: Sendable {
    var text: String
    var folded: String
    var height: Double
    var top: Double
    var index: Int
    var words: [TextWord]
    var confidence: Double

    var counts: CJKText.Counts { CJKText.counts(text) }
}

/// Parses the lines of a card printed mainly in Japanese, Chinese or Korean, by those countries'
/// conventions: the family name first, the company's legal form before or after its name, the
/// title a line of its own ending in a title word, the address from the largest unit down.
/// E-mail and web addresses are found as on Latin cards; numbers through libphonenumber.
struct CJKParser {
    var fallbackRegion: RegionGuess?
    var script: CJKText.Script

    func parse(_ input: [TextLine]) -> Contact {
        let lines = Self.lines(input, script: script)
        var contact = Contact()
        var used = Set<Int>()
        let cardLines = lines.map { CardLine(text: $0.folded, confidence: $0.confidence, height: $0.height, top: $0.top, left: nil,
                                             index: $0.index, source: $0.index) }
        let emails = EmailExtractor.extract(from: cardLines)
        contact.emails = emails.emails
        used.formUnion(emails.consumedLines)
        let urls = URLExtractor.extract(from: cardLines, emails: contact.emails)
        (contact.urls, contact.emails) = URLExtractor.emailsReadAsWebAddresses(urls.urls, emails: contact.emails)
        used.formUnion(urls.consumedLines)
        contact.region = region(lines: lines, cardLines: cardLines, emails: contact.emails, urls: contact.urls)
        let phones = CJKPhones.extract(from: lines.filter { !used.contains($0.index) }, region: contact.region?.code)
        contact.phones = phones.phones
        used.formUnion(phones.consumedLines)
        let address = CJKAddress.extract(from: lines, skip: used, region: contact.region?.code)
        contact.address = address.address.map { Self.tidy($0, script: script) }
        used.formUnion(address.consumedLines)
        let people = CJKPeople(script: script).extract(from: lines.filter { !used.contains($0.index) })
        contact.name = people.name
        contact.title = people.title
        contact.organization = people.organization
        contact.confidence = confidence(contact, lines: lines)
        return contact
    }

    /// The card's region: what the Latin parser's evidence says (calling codes, domains,
    /// postcodes, the script), with Han characters alone read as Taiwan's when they are written
    /// in their traditional forms.
    func region(lines: [CJKLine], cardLines: [CardLine], emails: [String], urls: [String]) -> RegionGuess? {
        guard var guess = RegionInference.infer(lines: cardLines, emails: emails, urls: urls) else {
            return scriptRegion(lines) ?? fallbackRegion
        }
        if guess.code == "CN", guess.sources == ["script"], let byScript = scriptRegion(lines) { guess = byScript }
        // A card printed in Japanese, Chinese or Korean is from a country that writes it unless
        // it names another in words: a calling code, a domain or a postcode's shape that names
        // another is mostly OCR's misreading (+856, Laos's code, for Taiwan's +886), and a wrong
        // country reads the card's numbers and address in the wrong plan.
        if !Self.countries(writing: script).contains(guess.code), !guess.sources.contains("country-name"),
           let byScript = scriptRegion(lines) {
            guess = byScript
        }
        return guess
    }

    /// The countries whose cards are printed in `script`.
    static func countries(writing script: CJKText.Script) -> Set<String> {
        switch script {
        case .japanese: ["JP"]
        case .korean: ["KR", "KP"]
        case .chinese: ["CN", "TW", "HK", "MO", "SG", "MY"]
        }
    }

    func scriptRegion(_ lines: [CJKLine]) -> RegionGuess? {
        switch script {
        case .japanese: return RegionGuess(code: "JP", sources: ["script"])
        case .korean: return RegionGuess(code: "KR", sources: ["script"])
        case .chinese:
            let text = lines.map(\.text).joined()
            return RegionGuess(code: CJKText.isTraditional(text) ? "TW" : "CN", sources: ["script"])
        }
    }

    /// The card's lines, split where a wide gap parts two columns, with full-width forms folded.
    static func lines(_ input: [TextLine], script: CJKText.Script) -> [CJKLine] {
        var out: [CJKLine] = []
        for line in input {
            let height = line.height ?? 20
            var pieces: [[TextWord]] = [[]]
            for word in line.words {
                if let last = pieces[pieces.count - 1].last, word.left - last.right > max(2.5 * height, 40) { pieces.append([]) }
                pieces[pieces.count - 1].append(word)
            }
            // One piece keeps the line as read (Tesseract's spelling of Japanese and Chinese sets a
            // space only where the print has a gap); a piece of a split line drops the spaces
            // between Han characters and kana. Korean words are joined by their gaps, in a piece
            // as in a whole line.
            let texts = pieces.count <= 1 ? [(script == .korean ? CJKText.joiningByGaps(line.words, height: height) ?? line.text : line.text, line.words)]
                : pieces.map { piece in
                    let text = script == .korean ? CJKText.joiningByGaps(piece, height: height) : nil
                    return (text ?? CJKText.joiningHanSpaces(piece.map(\.text).joined(separator: " ")), piece)
                }
            for (text, words) in texts {
                let cleaned = text.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "|・•")))
                guard !cleaned.isEmpty else { continue }
                let confidence = words.isEmpty ? (line.confidence ?? 0.9) : words.map(\.confidence).reduce(0, +) / Double(words.count)
                out.append(CJKLine(text: cleaned, folded: CJKText.folded(cleaned), height: height, top: line.top ?? Double(out.count * 30),
                                   index: out.count, words: words, confidence: confidence))
            }
        }
        return out
    }

    /// An address's parts as the script writes them: Japanese and Chinese without spaces inside.
    static func tidy(_ address: PostalAddress, script: CJKText.Script) -> PostalAddress {
        guard script != .korean else { return address }
        var a = address
        a.street = a.street.map(CJKText.joiningHanSpaces)
        a.city = a.city.map(CJKText.joiningHanSpaces)
        a.region = a.region.map(CJKText.joiningHanSpaces)
        return a
    }

    func confidence(_ contact: Contact, lines: [CJKLine]) -> [Contact.Field: Double] {
        var c: [Contact.Field: Double] = [:]
        if contact.name != nil { c[.name] = 0.8 }
        if contact.title != nil { c[.title] = 0.8 }
        if contact.organization != nil { c[.organization] = 0.85 }
        if !contact.phones.isEmpty { c[.phones] = contact.phones.allSatisfy(\.valid) ? 0.9 : 0.6 }
        if !contact.emails.isEmpty { c[.emails] = 0.9 }
        if !contact.urls.isEmpty { c[.urls] = 0.85 }
        if contact.address != nil { c[.address] = 0.8 }
        return c
    }
}
