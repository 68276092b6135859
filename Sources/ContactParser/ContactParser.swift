import Foundation

/// Turns the text lines of a business card into a typed contact record.
///
/// Works on OCR lines with geometry (text height, word positions) and on plain text alike.
public struct ContactParser: Sendable {
    /// The region used for national phone numbers when the card itself gives no clue.
    public var fallbackRegion: String

    public init(fallbackRegion: String = "US") {
        self.fallbackRegion = fallbackRegion.uppercased()
    }

    /// Parses plain text, one card line per text line.
    public func parse(text: String) -> Contact {
        parse(lines: text.split(whereSeparator: \.isNewline).map { TextLine(text: String($0)) })
    }

    /// Parses the lines of one card.
    public func parse(lines input: [TextLine]) -> Contact {
        let lines = CardLine.split(input)
        var contact = Contact()
        var used = Set<Int>()  // lines fully consumed by a field

        // Emails and web addresses first: their domains help everything else.
        let emailResult = EmailExtractor.extract(from: lines)
        contact.emails = emailResult.emails
        used.formUnion(emailResult.consumedLines)
        let urlResult = URLExtractor.extract(from: lines, emails: contact.emails)
        contact.urls = urlResult.urls
        used.formUnion(urlResult.consumedLines)

        let inferredRegion = RegionInference.infer(lines: lines.map(\.text), emails: contact.emails, urls: contact.urls)
        let region = inferredRegion ?? fallbackRegion
        contact.region = region

        let phoneResult = PhoneExtractor.extract(from: lines, region: region, skip: used)
        contact.phones = phoneResult.phones
        used.formUnion(phoneResult.consumedLines)

        let addressResult = AddressExtractor.extract(from: lines, skip: used, region: inferredRegion)
        contact.address = addressResult.address
        used.formUnion(addressResult.consumedLines)

        var domains = (contact.emails.compactMap { $0.split(separator: "@").last.map(String.init) }
            + contact.urls.map { URLExtractor.host(of: $0) })
        let people = PeopleExtractor.extract(from: lines, skip: used, emails: contact.emails, domains: domains)
        contact.name = people.name
        contact.title = people.title
        contact.organization = people.organization

        // E-mail domain, web address and organisation usually agree: repair OCR slips between them.
        let reconciled = Reconciliation.reconcile(emails: contact.emails, urls: contact.urls, organization: contact.organization)
        contact.emails = reconciled.emails
        contact.urls = reconciled.urls
        domains = (contact.emails.compactMap { $0.split(separator: "@").last.map(String.init) } + contact.urls.map { URLExtractor.host(of: $0) })

        contact.confidence = Confidence.score(contact, lines: lines, people: people,
                                              emailRepairs: emailResult.repaired + reconciled.repairs, domains: domains)
        return contact
    }
}

/// A logical line: one column's text of an OCR line, with its metrics.
struct CardLine: Sendable {
    var text: String
    var confidence: Double
    var height: Double?
    var top: Double?
    var index: Int

    /// Splits OCR lines at wide gaps between words (two columns read as one line) and cleans them.
    static func split(_ lines: [TextLine]) -> [CardLine] {
        var out: [CardLine] = []
        for line in lines {
            var pieces: [(String, Double)] = []
            if line.words.count > 1, let height = line.height, height > 0 {
                var current: [TextWord] = [line.words[0]]
                for w in line.words.dropFirst() {
                    let gap = w.left - (current.last?.right ?? w.left)
                    if gap > max(2.5 * height, 40) {
                        pieces.append(Self.join(current))
                        current = [w]
                    } else {
                        current.append(w)
                    }
                }
                pieces.append(Self.join(current))
            } else {
                pieces = [(line.text, line.confidence ?? 0.9)]
            }
            for (text, conf) in pieces {
                for part in Self.splitSeparators(text) {
                    let cleaned = Self.clean(part)
                    if cleaned.isEmpty { continue }
                    out.append(CardLine(text: cleaned, confidence: conf, height: line.height, top: line.top, index: out.count))
                }
            }
        }
        return out
    }

    private static func join(_ words: [TextWord]) -> (String, Double) {
        let text = words.map(\.text).joined(separator: " ")
        let conf = words.isEmpty ? 0 : words.map(\.confidence).reduce(0, +) / Double(words.count)
        return (text, conf)
    }

    /// Splits "Jordan Fable | Product Lead" (two fields set on one line with a bar or a bullet)
    /// but not "Tel | 415 555 0100" or "E | jane@acme.com", where the bar follows a label.
    static func splitSeparators(_ text: String) -> [String] {
        for separator in [" | ", " • ", " · ", " / "] where text.contains(separator) {
            let parts = text.components(separatedBy: separator)
            let meaningful = parts.allSatisfy { part in
                !Residue.isLabelOnly(part, removing: { $0.contains(where: \.isNumber) || $0.contains("@") || $0.contains(".") })
            }
            if meaningful { return parts.flatMap(splitSeparators) }
        }
        return [text]
    }

    /// Trims OCR debris: stray bars, bullets and quotes at the ends, runs of spaces.
    static func clean(_ text: String) -> String {
        var s = text.replacingOccurrences(of: "\u{2014}", with: "-").replacingOccurrences(of: "\u{2013}", with: "-")
        s = s.replacingOccurrences(of: "\u{201C}", with: "\"").replacingOccurrences(of: "\u{201D}", with: "\"")
        s = s.replacingOccurrences(of: "\u{2018}", with: "'").replacingOccurrences(of: "\u{2019}", with: "'")
        let debris = CharacterSet(charactersIn: " |\\_~`'\"•·*«»<>{}[]^°")
        s = s.trimmingCharacters(in: debris)
        while s.contains("  ") { s = s.replacingOccurrences(of: "  ", with: " ") }
        return s.trimmingCharacters(in: .whitespaces)
    }
}
