import Foundation

/// A logical line: one column's text of an OCR line, with its metrics.
struct CardLine: Sendable {
    var text: String
    var confidence: Double
    var height: Double?
    var top: Double?
    var left: Double?
    var index: Int
    /// The index of the OCR line it came from.
    var source = 0
    /// The text without the words at its ends that are logo or icon debris (`EdgeDebris`), when
    /// there are such: what the line offers as a name, a title or a company.
    var withoutDebris: String? = nil
    /// The mean OCR confidence of the line's words that hold digits (nil when it has none, or no
    /// word boxes): a number read surely on a line of unsure words (an icon, a logo beside it).
    var numberConfidence: Double? = nil
    /// How surely OCR read the line's digits: `numberConfidence`, else the line's confidence.
    var digitsConfidence: Double { numberConfidence ?? confidence }

    /// Splits OCR lines at wide gaps between words (two columns read as one line), at field
    /// separators (" | ", " • "), and cleans them.
    static func split(_ lines: [TextLine]) -> [CardLine] {
        var out: [CardLine] = []
        for (source, var line) in lines.enumerated() {
            // Words OCR was unsure of at the end of a line are mostly texture or a QR code read as
            // letters: drop them (numbers, e-mail and web addresses are kept whatever their
            // confidence: OCR is unsure of words it has no dictionary for; so is a word of a job
            // title, which texture does not spell).
            while line.words.count > 1, let last = line.words.last, last.confidence < junkConfidence,
                  last.text.filter(\.isNumber).count < 2, !last.text.contains("@"), !last.text.contains("."),
                  !last.text.contains("/"), !(isTitleWord(last.text) && last.confidence >= 0.2),
                  !Lexicon.titleWords.contains(last.text.lowercased()) {
                line.words.removeLast()
                line.text = line.words.map(\.text).joined(separator: " ")
            }
            let pieces = columns(of: line)
            for piece in pieces {
                let parts = Self.splitSeparators(piece.text)
                let trimmed = parts.count == 1 ? Self.withoutDebris(piece.words, height: line.height) : nil
                for part in parts {
                    let cleaned = Self.clean(part)
                    if cleaned.isEmpty { continue }
                    out.append(CardLine(text: cleaned, confidence: piece.confidence, height: line.height, top: line.top, left: piece.left,
                                        index: out.count, source: source,
                                        withoutDebris: trimmed.flatMap { $0.isEmpty || $0 == cleaned ? nil : $0 },
                                        numberConfidence: Self.numberConfidence(of: piece.words)))
                }
            }
        }
        return out
    }

    /// The line's words in columns: split where a gap is far wider than the line's other gaps,
    /// or wide by any measure; the whole line when it has no word boxes. A word of marks alone (a
    /// dash, a bar: a separator, or OCR's reading of blank paper) standing in such a gap does not
    /// close it: the columns part there and the marks are dropped (not after a label alone: "W |"
    /// stays with the address it labels).
    static func columns(of line: TextLine) -> [(text: String, confidence: Double, left: Double?, words: [TextWord])] {
        guard line.words.count > 1, let height = line.height, height > 0 else { return [(line.text, line.confidence ?? 0.9, line.left, [])] }
        let words = line.words
        var pieces: [(text: String, confidence: Double, left: Double?, words: [TextWord])] = []
        let gaps = zip(words, words.dropFirst()).map { $1.left - $0.right }
        // Without other gaps to compare with (two words), the space the type's own pitch makes:
        // letter-spaced capitals set their words as far apart as their letters.
        let letters = words.reduce(0) { $0 + $1.text.count }
        let pitch = letters > 0 ? words.reduce(0.0) { $0 + ($1.right - $1.left) } / Double(letters) : 0
        /// Whether the blank between word `from` and word `to` (the gaps between, without the marks
        /// standing in it) parts two columns, against the line's gaps outside it.
        func parts(from: Int, to: Int) -> Bool {
            let gap = gaps[from..<to].reduce(0, +)
            let others = gaps.enumerated().filter { $0.offset < from || $0.offset >= to }.map(\.element).sorted()
            let usual = others.isEmpty ? Self.spacePerPitch * pitch : others[others.count / 2]
            return gap > max(2.5 * height, 40) || (gap > 1.4 * height && gap > 2.5 * max(usual, 1))
        }
        var current: [TextWord] = [words[0]]
        var k = 1
        while k < words.count {
            if parts(from: k - 1, to: k) {
                pieces.append(Self.join(current))
                current = [words[k]]
            } else if k + 1 < words.count, isMarks(words[k].text), !isMarks(words[k + 1].text), !isMarks(words[k - 1].text),
                      !Residue.isLabelOnly(current.map(\.text).joined(separator: " "), removing: { _ in false }),
                      parts(from: k - 1, to: k + 1) {
                pieces.append(Self.join(current))
                current = [words[k + 1]]
                k += 1
            } else {
                current.append(words[k])
            }
            k += 1
        }
        pieces.append(Self.join(current))
        return pieces
    }

    /// A word of dashes, bars, bullets or tildes alone (not "&", which joins a company's names).
    static func isMarks(_ word: String) -> Bool { !word.isEmpty && word.allSatisfy { Self.marks.contains($0) } }

    private static let marks: Set<Character> = ["-", "\u{2010}", "\u{2012}", "\u{2013}", "\u{2014}", "\u{2015}", "|", "\u{00A6}",
                                                "\u{2022}", "\u{00B7}", "~", "_", "="]

    /// A capitalised word of four letters or more ("Colina"): a name OCR misread a letter of, not texture.
    static func isTitleWord(_ word: String) -> Bool {
        guard word.count >= 4, let first = word.first, first.isUppercase else { return false }
        return word.dropFirst().allSatisfy { $0.isLowercase }
    }

    /// The cleaned text of a piece's words without a logo or an icon read as a word at either end
    /// (`EdgeDebris`); nil when there is none. Asked only of a piece that is one field: the words
    /// of fields set apart by separators are not told apart.
    private static func withoutDebris(_ words: [TextWord], height: Double?) -> String? {
        let kept = EdgeDebris.trimmed(words, height: height)
        return kept.count < words.count ? clean(kept.map(\.text).joined(separator: " ")) : nil
    }

    /// The mean confidence of the words holding two digits or more; nil when there are none.
    static func numberConfidence(of words: [TextWord]) -> Double? {
        let numeric = words.filter { $0.text.filter(\.isNumber).count >= 2 }
        guard !numeric.isEmpty else { return nil }
        return numeric.map(\.confidence).reduce(0, +) / Double(numeric.count)
    }

    /// A word space as a share of the type's pitch (a line's mean width per character): about a
    /// quarter of the type's size against about half of it.
    static let spacePerPitch = 0.55

    /// Word confidence below which OCR read texture rather than text.
    static let junkConfidence = 0.35

    private static func join(_ words: [TextWord]) -> (text: String, confidence: Double, left: Double?, words: [TextWord]) {
        let text = words.map(\.text).joined(separator: " ")
        let conf = words.isEmpty ? 0 : words.map(\.confidence).reduce(0, +) / Double(words.count)
        return (text, conf, words.first?.left, words)
    }

    /// Splits "Jordan Fable | Product Lead" (two fields set on one line with a bar or a bullet)
    /// but not "Tel | 415 555 0100" or "E | jane@acme.com", where the bar follows a label.
    static func splitSeparators(_ text: String) -> [String] {
        for separator in [" | ", " • ", " · ", " / ", " ● "] where text.contains(separator) {
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
        var s = text.replacingIfPresent("\u{2014}", with: "-").replacingIfPresent("\u{2013}", with: "-")
        s = s.replacingIfPresent("\u{201C}", with: "\"").replacingIfPresent("\u{201D}", with: "\"")
        s = s.replacingIfPresent("\u{2018}", with: "'").replacingIfPresent("\u{2019}", with: "'")
        s = s.replacingIfPresent("\u{FB01}", with: "fi").replacingIfPresent("\u{FB02}", with: "fl")
        // A bar or a cent sign before the dot an e-mail address starts with is its initial
        // misread ("|.bitta@" is l.bitta; a local part never starts with a dot), not debris.
        if let first = s.first, let initial = EmailExtractor.misreadInitials[first], s.dropFirst().hasPrefix("."),
           s.dropFirst(2).first.map({ $0.isLetter || $0.isNumber }) == true, s.contains("@") {
            s = initial + s.dropFirst()
        }
        s = s.trimmingCharacters(in: ParserCharacters.debris)
        while s.contains(bytes: "  ") { s = s.replacingOccurrences(of: "  ", with: " ") }
        // Texture or an icon read after the text: a symbol and a few stray letters ("... = p", "... —ste").
        var tokens = s.split(separator: " ").map(String.init)
        if tokens.count >= 3 {
            for k in stride(from: tokens.count - 1, through: max(1, tokens.count - 3), by: -1) {
                let t = tokens[k]
                // A symbol alone ("=", "~") or glued to a few letters ("-ste"); "&", "-" and "/" standing alone join words.
                let first = t.unicodeScalars.first
                let symbolic = first.map { !CharacterSet.alphanumerics.contains($0) && !"(+#&".unicodeScalars.contains($0) } == true
                    && !(t.count == 1 && "-/".contains(t))
                let tail = tokens[k...].joined()
                if symbolic, !tail.contains(where: \.isNumber), tail.filter(\.isLetter).count <= 3, tokens[..<k].joined().count >= 4 {
                    tokens.removeSubrange(k...)
                    break
                }
            }
            s = tokens.joined(separator: " ").trimmingCharacters(in: ParserCharacters.debris)
        }
        return s.trimmingCharacters(in: .whitespaces)
    }
}

/// What is left of a line once its contact data is taken out.
enum Residue {
    /// True when, after dropping the tokens `removing` matches, labels and pictogram debris, no
    /// word of three or more letters remains: the line held contact data only.
    static func isLabelOnly(_ text: String, removing: (String) -> Bool) -> Bool {
        for token in text.split(whereSeparator: { $0 == " " || $0 == "|" }) {
            let t = String(token)
            if removing(t) { continue }
            if Labels.label(t) != nil { continue }
            if t.filter(\.isLetter).count >= 3 { return false }
        }
        return true
    }
}
