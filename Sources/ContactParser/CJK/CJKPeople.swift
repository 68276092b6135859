import Foundation

/// The person and company lines of an East Asian card: the organisation is the line with a legal
/// form (株式会社, 有限公司, 주식회사 ...), the title a short line ending in a title word (部長,
/// 经理, 대표이사 ...), the name the largest short line of Han characters or Hangul that starts
/// with a family name, and its reading (kana, or Latin letters) the line beside it.
struct CJKPeople {
    var script: CJKText.Script

    struct Result {
        var name: PersonName?
        var title: String?
        var organization: String?
    }

    func extract(from read: [CJKLine]) -> Result {
        let lines = read.map(withoutEdgeJunk)
        var result = Result()
        var taken = Set<Int>()
        if let org = organizationLine(lines) {
            result.organization = tidyOrganization(org.text)
            taken.insert(org.index)
        }
        let titles = lines.filter { !taken.contains($0.index) && isTitle($0) }
        let maxHeight = lines.map(\.height).max() ?? 1
        let titleIndices = Set(titles.map(\.index))
        let names = lines.filter { !taken.contains($0.index) && !titleIndices.contains($0.index) }
            .compactMap { line in nameScore(line, maxHeight: maxHeight).map { (line, $0) } }
        if let (line, _) = names.max(by: { $0.1 < $1.1 }) {
            taken.insert(line.index)
            var name = personName(line)
            name.phonetic = reading(near: line, in: lines, taken: taken)
            result.name = name
        }
        if let title = titles.min(by: { distance($0, result.name, lines) < distance($1, result.name, lines) }) {
            result.title = tidyTitle(title.text)
        }
        if result.organization == nil {
            result.organization = organizationWithMisreadMark(lines.filter { !taken.contains($0.index) && !titleIndices.contains($0.index) })
        }
        return result
    }

    /// What Tesseract's Korean data reads for the mark ㈜ (주식회사 set as one sign): the syllable
    /// inside it, or one of like shape, with or without the bracket drawn round it.
    static let misreadCorporationMarks = ["(쥐)", "(줘)", "(주", "(쥐", "(줘", "쥐", "줘", "주"]

    /// On a Korean card whose lines hold no legal form: the line (not the name's or a title) that
    /// starts with the mark ㈜ misread as a syllable (`misreadCorporationMarks`) and holds nothing
    /// but Hangul after it, the tallest when several: the company, its mark restored.
    func organizationWithMisreadMark(_ lines: [CJKLine]) -> String? {
        guard script == .korean else { return nil }
        for line in lines.sorted(by: { $0.height > $1.height }) {
            let compact = line.text.filter { $0 != " " && $0 != "\u{3000}" }
            guard let mark = Self.misreadCorporationMarks.first(where: { compact.hasPrefix($0) }) else { continue }
            let rest = compact.dropFirst(mark.count)
            guard (2...12).contains(rest.count), rest.allSatisfy(CJKText.isHangul),
                  !CJKLexicon.fieldLabels.contains(where: { compact.contains($0) }) else { continue }
            return "㈜" + rest
        }
        return nil
    }

    /// The line with a legal form (the tallest when several), else one naming a kind of organisation.
    func organizationLine(_ lines: [CJKLine]) -> CJKLine? {
        let withForm = lines.filter { CJKLexicon.holdsLegalForm($0.folded) }
        if let best = withForm.max(by: { $0.height < $1.height }) { return best }
        return lines.filter { line in
            CJKLexicon.organizationHeads.contains { line.text.hasSuffix($0) } && line.counts.eastAsian >= 3
        }.max(by: { $0.height < $1.height })
    }

    /// A short line whose last word is a title word.
    func isTitle(_ line: CJKLine) -> Bool {
        let compact = line.text.replacingOccurrences(of: " ", with: "").trimmingCharacters(in: .punctuationCharacters)
        guard line.counts.eastAsian >= 2, compact.count <= 24, !compact.contains(where: CJKText.isDigit) else { return false }
        return CJKLexicon.titleHeads.contains { compact.hasSuffix($0) } || compact.hasSuffix("长")
    }

    /// Confidence under which a word without East Asian letters at a line's end is taken for junk
    /// read in the background (a desk, the paper under the card) beside the line.
    static let junkWordConfidence = 0.6

    /// `line` without the words at its ends that hold letters or digits but no East Asian letter
    /// and were read unsurely ("76 (60560 김 성훈" read where the card lies on printed paper), or
    /// that are one or two lower-case Latin letters, however surely read ("ss 總經理": a speck or a
    /// stroke of the background; these cards print a Latin word in capitals or whole); a bracket
    /// of "(株)" stays. As it is when no such word is there, or nothing East Asian would be left.
    func withoutEdgeJunk(_ line: CJKLine) -> CJKLine {
        func isJunk(_ word: TextWord) -> Bool {
            let stray = word.text.count <= 2 && word.text.allSatisfy { $0.isASCII && $0.isLowercase }
            return (stray || word.confidence < Self.junkWordConfidence) && !word.text.contains(where: CJKText.isEastAsian)
                && word.text.contains(where: { $0.isLetter || $0.isNumber })
        }
        let kept = line.words.drop(while: isJunk).reversed().drop(while: isJunk).reversed()
        guard kept.count < line.words.count, kept.contains(where: { $0.text.contains(where: CJKText.isEastAsian) }) else { return line }
        var text = Substring(line.text)
        for word in line.words.prefix(while: isJunk) {
            text = text.drop(while: \.isWhitespace)
            guard text.hasPrefix(word.text) else { return line }
            text = text.dropFirst(word.text.count)
        }
        for word in line.words.reversed().prefix(while: isJunk) {
            while text.last?.isWhitespace == true { text = text.dropLast() }
            guard text.hasSuffix(word.text) else { return line }
            text = text.dropLast(word.text.count)
        }
        var out = line
        out.text = text.trimmingCharacters(in: .whitespaces)
        out.folded = CJKText.folded(out.text)
        out.words = Array(kept)
        return out
    }

    /// How likely the line is the person's name: short, of the script's letters alone, large
    /// type, a known family name first; nil when it cannot be a name.
    func nameScore(_ line: CJKLine, maxHeight: Double) -> Double? {
        let compact = line.text.filter { $0 != " " && $0 != "\u{3000}" }
        guard !compact.isEmpty, !compact.contains(where: { CJKText.isDigit($0) || $0.isASCII }) else { return nil }
        let korean = compact.allSatisfy(CJKText.isHangul)
        let hanKana = compact.allSatisfy(CJKText.isHanOrKana)
        guard korean || hanKana, (2...(script == .japanese ? 6 : 4)).contains(compact.count) else { return nil }
        guard !CJKLexicon.fieldLabels.contains(where: { compact.contains($0) }),
              !CJKLexicon.phoneLabels.contains(where: { $0.0.count > 1 && compact.contains($0.0) }) else { return nil }
        let kana = compact.filter { ($0.unicodeScalars.first?.value ?? 0) >= 0x3040 && ($0.unicodeScalars.first?.value ?? 0) <= 0x30FF }
        if kana.count == compact.count { return nil }  // a reading, not the name
        var score = 2 * line.height / max(1, maxHeight)
        if hasKnownFamilyName(compact) { score += 1 }
        if line.text.contains(" ") || line.text.contains("\u{3000}") { score += 0.3 }
        score += line.confidence * 0.5
        return score
    }

    func hasKnownFamilyName(_ compact: String) -> Bool {
        guard let first = compact.first else { return false }
        if CJKLexicon.compoundFamilyNames.contains(String(compact.prefix(2))) { return true }
        switch script {
        case .korean: return CJKLexicon.koreanFamilyNames.contains(first)
        case .chinese: return CJKLexicon.chineseFamilyNames.contains(first)
        case .japanese: return (1...3).contains { CJKLexicon.japaneseFamilyNames.contains(String(compact.prefix($0))) }
        }
    }

    /// The name as printed: one space between family and given names where the card parts them
    /// (the widest gap between the words read, for names set with wide letter-spacing).
    func personName(_ line: CJKLine) -> PersonName {
        let parts = nameParts(line)
        if parts.count == 2, script != .korean || isFamilyName(parts[0]) {
            return PersonName(full: parts[0] + " " + parts[1], given: parts[1], family: parts[0])
        }
        let compact = parts.joined()
        let familyLength = familyNameLength(compact)
        return PersonName(full: compact, given: String(compact.dropFirst(familyLength)), family: String(compact.prefix(familyLength)))
    }

    /// A Korean family name's shape: one syllable, or a compound family name of two (a space after
    /// two other syllables parts a given name, as OCR does where a syllable's strokes stand apart).
    /// Not for Han characters: a Japanese card without kana is read by Chinese rules, and its family
    /// names have two characters or more.
    func isFamilyName(_ part: String) -> Bool {
        part.count == 1 || (part.count == 2 && CJKLexicon.compoundFamilyNames.contains(part))
    }

    /// The name in one or two parts.
    func nameParts(_ line: CJKLine) -> [String] {
        let tokens = line.text.split(whereSeparator: { $0 == " " || $0 == "\u{3000}" }).map(String.init)
        if tokens.count == 1, (2...4).contains(line.words.count), line.words.map(\.text).joined() == tokens[0] {
            // Read as one, printed in two: a space in the type, a gap of a third of a character or
            // more, and clearly the widest between the name's characters.
            let gaps = zip(line.words, line.words.dropFirst()).map { $1.left - $0.right }
            let sorted = gaps.sorted(by: >)
            if let widest = gaps.indices.max(by: { gaps[$0] < gaps[$1] }), sorted[0] >= 0.3 * line.height,
               sorted.count == 1 || sorted[0] >= 1.4 * max(1, sorted[1]) {
                return [line.words[...widest].map(\.text).joined(), line.words[(widest + 1)...].map(\.text).joined()]
            }
        }
        guard tokens.count >= 3 else { return tokens }
        guard line.words.count == tokens.count else { return [tokens.joined()] }
        let gaps = zip(line.words, line.words.dropFirst()).map { $1.left - $0.right }
        let sorted = gaps.sorted(by: >)
        guard let widest = gaps.indices.max(by: { gaps[$0] < gaps[$1] }), sorted[0] >= 1.4 * max(1, sorted[1]) else {
            return [tokens.joined()]
        }
        return [tokens[...widest].joined(), tokens[(widest + 1)...].joined()]
    }

    /// How many characters of a name printed without a space are the family name.
    func familyNameLength(_ compact: String) -> Int {
        if compact.count >= 3, CJKLexicon.compoundFamilyNames.contains(String(compact.prefix(2))) { return 2 }
        guard script == .japanese else { return 1 }
        for n in [3, 2, 1] where compact.count > n && CJKLexicon.japaneseFamilyNames.contains(String(compact.prefix(n))) { return n }
        return compact.count >= 3 ? 2 : 1
    }

    /// The reading printed beside the name: kana, or the name in Latin letters.
    func reading(near name: CJKLine, in lines: [CJKLine], taken: Set<Int>) -> String? {
        let near = lines.filter { abs($0.index - name.index) == 1 && !taken.contains($0.index) }
        for line in near.sorted(by: { abs($0.top - name.top) < abs($1.top - name.top) }) {
            let text = line.text.trimmingCharacters(in: .whitespaces)
            let letters = text.filter { $0 != " " && $0 != "\u{3000}" && $0 != "・" }
            if letters.count >= 2, letters.allSatisfy(Self.isKana) { return text.replacingOccurrences(of: "\u{3000}", with: " ") }
            if isLatinReading(text) { return text }
        }
        return nil
    }

    static func isKana(_ ch: Character) -> Bool {
        guard let v = ch.unicodeScalars.first?.value else { return false }
        return (0x3041...0x30FF).contains(v)
    }

    /// Two or three words of Latin letters that are not a job title ("Taro Yamada", "KIM Minsu");
    /// for a Japanese card, words made of the syllables of Japanese romanisation only.
    func isLatinReading(_ text: String) -> Bool {
        let words = text.split(separator: " ").map(String.init)
        guard (2...3).contains(words.count), words.allSatisfy({ $0.count >= 2 && $0.allSatisfy { $0.isASCII && $0.isLetter } }),
              words.allSatisfy({ $0.first!.isUppercase }) else { return false }
        if words.contains(where: { Lexicon.titleWords.contains($0.lowercased()) }) { return false }
        guard script == .japanese else { return true }
        return words.allSatisfy { Self.isRomaji($0.lowercased()) }
    }

    /// True when the word is a sequence of Hepburn syllables (ka, shi, tsu, kyo, n ...).
    static func isRomaji(_ word: String) -> Bool {
        word.range(of: "^(?:(?:[kgsztdnhbpmr]y?|sh|ch|ts|j|f|w|y)?[aiueo]|n|[kgsztdpbcm](?=[kgsztdpbcj]))+$", options: .regularExpression) != nil
    }

    /// The organisation as the script writes it: Japanese and Chinese without spaces inside;
    /// Korean as one word of Hangul (OCR's spaces between syllables dropped: a company's name is
    /// set as one unit, as Korean spelling allows for names of organisations and cards print
    /// them), with its legal form written out as a word of its own (Korean spelling sets 주식회사
    /// apart: "주식회사 한빛", "한빛 주식회사"; the marks (주) and ㈜ stay against the name).
    func tidyOrganization(_ read: String) -> String {
        guard script == .korean else { return CJKText.joiningHanSpaces(read) }
        let text = Self.joiningHangulSpaces(read)
        for form in Self.koreanLegalWords {
            if text.hasPrefix(form), let next = text.dropFirst(form.count).first, CJKText.isHangul(next) {
                return form + " " + text.dropFirst(form.count)
            }
            if text.hasSuffix(form), let before = text.dropLast(form.count).last, CJKText.isHangul(before) {
                return text.dropLast(form.count) + " " + form
            }
        }
        return text
    }

    /// `text` without the spaces between two Hangul syllables or brackets (and the mark ㈜).
    static func joiningHangulSpaces(_ text: String) -> String {
        func joins(_ ch: Character) -> Bool { CJKText.isHangul(ch) || "()（）㈜".contains(ch) }
        return CJKText.joiningSpaces(text) { joins($0) && joins($1) }
    }

    /// Korean legal forms written out as words (`CJKLexicon.legalForms`), longest first.
    static let koreanLegalWords = CJKLexicon.legalForms
        .filter { $0.count >= 4 && $0.allSatisfy(CJKText.isHangul) }
        .sorted { $0.count > $1.count }

    func tidyTitle(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{3000}", with: " ").trimmingCharacters(in: .whitespaces)
    }

    func distance(_ line: CJKLine, _ name: PersonName?, _ lines: [CJKLine]) -> Double {
        guard let name, let nameLine = lines.first(where: { $0.text.filter { $0 != " " } == name.full.filter { $0 != " " } }) else {
            return Double(line.index)
        }
        return Double(abs(line.index - nameLine.index))
    }
}
