import Foundation

/// Finds phone numbers with libphonenumber and types them from the card's labels or, unlabelled,
/// from libphonenumber's number type. A number libphonenumber calls invalid keeps its printed
/// digits but gets no E.164 form, unless reading its country code as the card's own makes it valid.
enum PhoneExtractor {
    struct Result {
        var phones: [Phone] = []
        var consumedLines: Set<Int> = []
    }

    /// Numbers are read in `region` (ISO 3166 alpha-2); nil reads only numbers with a "+" prefix
    /// as full numbers and keeps national ones as printed.
    static func extract(from lines: [CardLine], region: String?, skip: Set<Int>) -> Result {
        var reader = Reader(region: region, above: labelsAbove(lines))
        for line in lines { reader.read(line) }
        return reader.result
    }

    /// Reads a card's lines in order, remembering the last valid number for the next one.
    struct Reader {
        let region: String?
        let above: [Int: PhoneType]
        var result = Result()
        var seen = Set<String>()
        /// The last valid number, its line, label and end on that line: a number printed after it
        /// without an area code may share its area code.
        var last: (line: Int, match: PhoneMatch, label: PhoneType?, end: Int)?

        mutating func read(_ line: CardLine) {
            let text = undotLabels(dropIconBeforeNumber(repairDigits(dotSeparated(line.text))))
            // Postcodes and street numbers are no phones: want enough digits on the line at all.
            guard text.filter(\.isNumber).count >= 6 else { return }
            let (lineLabel, _) = Labels.strip(text)
            let utf8 = Array(text.utf8)
            var found = false
            var covered: [Range<Int>] = []
            for m in PhoneNumbers.find(in: text, region: region ?? "ZZ") {
                let digits = m.printed.filter(\.isNumber)
                guard digits.count >= 6 else { continue }
                let before = String(decoding: utf8[0..<m.utf8Range.lowerBound], as: UTF8.self)
                var label = labelType(before) ?? (before.filter(\.isNumber).isEmpty ? phoneType(lineLabel) ?? above[line.index] : nil)
                var fixed = reconcileCountryCode(m, region: region)
                if !fixed.valid, let shared = sharedAreaCode(m, digits: digits, line: line.index, utf8: utf8) {
                    fixed = shared.match
                    label = label ?? shared.type
                }
                // A ZIP+4 or a run of digits is no phone: want validity, a label, or a phone's length.
                guard fixed.valid || label != nil || digits.count >= 9 || isLocalNumber(m.printed, region: region) else { continue }
                // A number no plan knows, whose digits OCR was unsure of, is mostly a misreading
                // (the words of its digits judged, not an icon or a logo read beside them).
                guard fixed.valid || line.digitsConfidence >= PhoneExtractor.unsureLine else { continue }
                covered.append(m.utf8Range)
                found = true
                let type = phoneType(of: fixed, digits: digits, label: label, region: region)
                if fixed.valid { last = (line.index, fixed, label, m.utf8Range.upperBound) }
                guard seen.insert(fixed.valid ? fixed.e164 : digits).inserted else { continue }
                result.phones.append(Phone(type: type, number: m.printed.trimmingCharacters(in: .whitespaces),
                                           e164: fixed.valid ? fixed.e164 : nil, valid: fixed.valid))
            }
            if region == nil, readNational(text, line: line, lineLabel: lineLabel, covered: covered) { found = true }
            if found, Residue.isLabelOnly(text, removing: { $0.contains(where: \.isNumber) }) {
                result.consumedLines.insert(line.index)
            }
            if found, above[line.index] != nil { result.consumedLines.insert(line.index - 1) }
        }

        /// Without a region, national numbers are not found by the matcher: kept as printed.
        mutating func readNational(_ text: String, line: CardLine, lineLabel: FieldLabel?, covered: [Range<Int>]) -> Bool {
            var found = false
            let utf8 = Array(text.utf8)
            for (range, printed) in nationalRuns(text) where !covered.contains(where: { $0.overlaps(range) }) {
                let digits = printed.filter(\.isNumber)
                guard digits.count >= 7, line.digitsConfidence >= PhoneExtractor.unsureLine, seen.insert(digits).inserted else { continue }
                let before = String(decoding: utf8[0..<range.lowerBound], as: UTF8.self)
                let type = labelType(before) ?? phoneType(lineLabel) ?? .work
                result.phones.append(Phone(type: type, number: printed, e164: nil, valid: false))
                found = true
            }
            return found
        }

        /// A number printed after another without its area code, which the first one's gives:
        /// "(11) 3847-2615 / 3847-2690", "Tel (03) 9555 1234 - Fax 9555 1235", or alone on the next
        /// line. Only where nothing but separators, a label or a short joining word stands between
        /// them on a line (nothing at all before it on the next), and the area code makes a valid number.
        func sharedAreaCode(_ m: PhoneMatch, digits: String, line: Int, utf8: [UInt8]) -> (match: PhoneMatch, type: PhoneType?)? {
            guard let last, let region, (7...9).contains(digits.count), digits.first != "0", !m.printed.hasPrefix("+") else { return nil }
            let between: String
            if last.line == line, last.end <= m.utf8Range.lowerBound {
                between = String(decoding: utf8[last.end..<m.utf8Range.lowerBound], as: UTF8.self)
            } else if last.line == line - 1 {
                // Alone on the next line: no label or pictogram of its own (those start a field of their own).
                between = String(decoding: utf8[0..<m.utf8Range.lowerBound], as: UTF8.self)
                guard between.allSatisfy(\.isWhitespace),
                      String(decoding: utf8[m.utf8Range.upperBound...], as: UTF8.self).filter(\.isLetter).count <= 3 else { return nil }
            } else {
                return nil
            }
            guard !between.contains(where: \.isNumber) else { return nil }
            let own = labelType(between)
            guard own != nil || between.filter(\.isLetter).count <= 3 else { return nil }
            let cc = last.match.countryCode
            guard cc > 0, PhoneNumbers.callingCode(of: region) == cc else { return nil }
            let national = last.match.e164.dropFirst(1 + String(cc).count)
            guard let shared = behindAreaCode(digits, national: national, longest: national.count - 7, cc: cc, region: region) else { return nil }
            let match = PhoneMatch(utf8Range: m.utf8Range, printed: m.printed, e164: shared.e164, region: shared.region,
                                   valid: true, kind: shared.kind, countryCode: cc)
            return (match, own ?? (last.line == line ? last.label : nil))
        }
    }

    /// A number printed as a local one ("4821-3967": digits, one hyphen or dot, four digits) that
    /// the region's area codes would make valid.
    static func isLocalNumber(_ printed: String, region: String?) -> Bool {
        guard let region, let re = localShape else { return false }
        let text = printed.trimmingCharacters(in: .whitespaces)
        guard re.firstMatch(in: text, range: NSRange(location: 0, length: (text as NSString).length)) != nil else { return false }
        return kindWithoutAreaCode(text.filter(\.isNumber), region: region) != nil
    }

    private static let localShape = try? NSRegularExpression(pattern: #"^\d{3,5}[-.]\d{4}$"#)

    /// The kind of a local number printed without its area code ("98214-6573" on a card from São
    /// Paulo): the kind libphonenumber gives it behind the area code of the region's example
    /// number, nil when no such reading is valid.
    static func kindWithoutAreaCode(_ digits: String, region: String) -> PhoneMatch.Kind? {
        guard digits.count >= 7, digits.first != "0", let cc = PhoneNumbers.callingCode(of: region),
              let example = PhoneNumbers.example(region: region, mobile: false) else { return nil }
        let national = example.e164.dropFirst(1 + String(cc).count)
        return behindAreaCode(digits, national: national, longest: national.count - 1, cc: cc, region: region)?.kind
    }

    /// The kind of a number printed as a country's plan wrote it before a digit was added: Brazil
    /// put a 9 before its eight-digit mobile numbers (from 6, 7, 8 or 9) in 2012-2016, so an old
    /// card's "(11) 9933-6564" or "9933-6564" is a mobile, kept as printed (invalid today).
    static func kindInFormerPlan(_ digits: String, region: String) -> PhoneMatch.Kind? {
        guard region == "BR" else { return nil }
        let number = digits.count == 11 && digits.hasPrefix("0") ? String(digits.dropFirst()) : digits
        switch number.count {
        case 10 where "6789".contains(number[number.index(number.startIndex, offsetBy: 2)]):
            let now = "+55" + number.prefix(2) + "9" + number.dropFirst(2)
            return PhoneNumbers.parse(now, region: region).flatMap { $0.valid && $0.kind == .mobile ? .mobile : nil }
        case 8 where "6789".contains(number.first!):
            return kindWithoutAreaCode("9" + number, region: region) == .mobile ? .mobile : nil
        default:
            return nil
        }
    }

    /// `digits` read behind the first one to three digits of `national` (at most `longest`), taken
    /// for its area code: the first reading libphonenumber calls valid, nil when none is.
    static func behindAreaCode(_ digits: String, national: Substring, longest: Int, cc: Int, region: String) -> PhoneMatch? {
        guard longest >= 1 else { return nil }
        for k in 1...min(3, longest) {
            if let m = PhoneNumbers.parse("+\(cc)" + national.prefix(k) + digits, region: region), m.valid { return m }
        }
        return nil
    }

    /// A number the plan calls a mobile is one, whatever generic label it has ("Tel"); one printed
    /// without its area code is judged as the region's area codes would make it.
    static func phoneType(of match: PhoneMatch, digits: String, label: PhoneType?, region: String?) -> PhoneType {
        let kind = match.valid ? match.kind
            : region.flatMap { kindWithoutAreaCode(digits, region: $0) ?? kindInFormerPlan(digits, region: $0) } ?? match.kind
        if label == .work && kind == .mobile { return .mobile }
        return label ?? (kind == .mobile ? .mobile : .work)
    }

    /// The phone label printed alone on the line above a line (its index as the key): "Mobile" over
    /// "0412 345 678".
    static func labelsAbove(_ lines: [CardLine]) -> [Int: PhoneType] {
        var out: [Int: PhoneType] = [:]
        for (k, line) in lines.enumerated().dropLast() where !line.text.contains(where: \.isNumber) {
            let words = line.text.trimmingCharacters(in: ParserCharacters.labelEnd).split(separator: " ")
            guard (1...2).contains(words.count), let type = phoneType(Labels.label(words.joined(separator: " "))) else { continue }
            out[lines[k + 1].index] = type
        }
        return out
    }

    /// OCR confidence below which invalid numbers are taken for misreadings: the confidence of the
    /// words holding a line's digits, else the line's (`CardLine.digitsConfidence`).
    static let unsureLine = 0.5

    /// Digit groups joined by a middle dot, a bullet or a colon (OCR's reading of a middle dot):
    /// "248·343·5976" or "(201)·560·2317" as "248-343-5976", "(201)-560-2317", which libphonenumber
    /// reads. Only where the groups make seven digits or more ("11:30" stays a time).
    static func dotSeparated(_ text: String) -> String {
        guard text.contains(where: { "·•:∙".contains($0) }), let re = dotGroups else { return text }
        let ns = text as NSString
        var out = text
        for m in re.matches(in: text, range: NSRange(location: 0, length: ns.length)).reversed()
        where ns.substring(with: m.range).filter(\.isNumber).count >= 7 {
            let run = ns.substring(with: m.range).map { "·•:∙".contains($0) ? "-" : $0 }
            out = (out as NSString).replacingCharacters(in: m.range, with: String(run))
        }
        return out
    }

    private static let dotGroups = try? NSRegularExpression(pattern: #"(?:\(\d+\)|\d+)(?:\s?[·•:∙]\s?\d+)+"#)

    /// "Tel. kom. 512 345 678" as "Tel kom 512 345 678": libphonenumber's matcher passes over a
    /// number that follows an abbreviation's dot.
    static func undotLabels(_ text: String) -> String {
        var out = ""
        let chars = Array(text)
        for (i, c) in chars.enumerated() {
            if c == ".", i > 0, chars[i - 1].isLetter, i + 1 < chars.count, chars[i + 1] == " " { continue }
            out.append(c)
        }
        return out
    }

    /// A pictogram read as one character before a number ("0 070-124 53 68", "@ +61 2 1245"):
    /// dropped, so it is not read as the number's first digit.
    static func dropIconBeforeNumber(_ text: String) -> String {
        var tokens = text.split(separator: " ").map(String.init)
        guard tokens.count >= 3, tokens[0].count == 1, !(tokens[0].first?.isLetter ?? false),
              let next = tokens[1].first, next.isNumber || next == "(" || next == "+",
              tokens[1...].joined().filter(\.isNumber).count >= 7 else { return text }
        tokens.removeFirst()
        return tokens.joined(separator: " ")
    }

    static func phoneType(_ label: FieldLabel?) -> PhoneType? {
        if case .phone(let type)? = label { return type }
        return nil
    }

    /// Runs of digits with the separators numbers are printed with: "(030) 2345-6789", "070-638 52 31";
    /// two numbers joined by a spaced slash ("2082-2399 / 2646-6123") are two runs.
    static func nationalRuns(_ text: String) -> [(Range<Int>, String)] {
        guard let re = nationalPattern else { return [] }
        let ns = text as NSString
        return re.matches(in: text, range: NSRange(location: 0, length: ns.length)).flatMap { m -> [(Range<Int>, String)] in
            let s = ns.substring(with: m.range)
            var start = (ns.substring(to: m.range.location) as String).utf8.count
            let pieces = s.components(separatedBy: " / ")
            guard pieces.count > 1, pieces.allSatisfy({ $0.filter(\.isNumber).count >= 6 }) else { return [(start..<(start + s.utf8.count), s)] }
            return pieces.map { piece in
                defer { start += piece.utf8.count + 3 }
                let trimmed = piece.trimmingCharacters(in: .whitespaces)
                let lead = piece.utf8.count - piece.drop(while: { $0 == " " }).utf8.count
                return ((start + lead)..<(start + lead + trimmed.utf8.count), trimmed)
            }
        }
    }

    private static let nationalPattern = try? NSRegularExpression(pattern: #"\(?\d[\d ().\-/]{5,}\d"#)

    /// A "+CC" number that is not valid, where the card's own code gives a valid one, is read
    /// with the card's code: OCR misreads a digit of "+61" as "+62" more often than an
    /// Australian card lists an invalid Indonesian number.
    static func reconcileCountryCode(_ match: PhoneMatch, region: String?) -> PhoneMatch {
        guard !match.valid, match.printed.hasPrefix("+"), let region, let cc = PhoneNumbers.callingCode(of: region) else { return match }
        let digits = match.printed.filter(\.isNumber)
        for ccLength in 1...3 where digits.count > ccLength + 6 {
            let national = digits.dropFirst(ccLength)
            if let alt = PhoneNumbers.parse("+\(cc)" + national, region: region), alt.valid {
                return PhoneMatch(utf8Range: match.utf8Range, printed: match.printed, e164: alt.e164, region: alt.region,
                                  valid: true, kind: alt.kind, countryCode: cc)
            }
        }
        return match
    }

    /// The label just before a number: "T:", "Mobile", "Fax." ... (the last word or two before it,
    /// since the previous number on the line).
    static func labelType(_ before: String) -> PhoneType? {
        var segment = Substring(before)
        if let cut = segment.lastIndex(where: { $0.isNumber }) {
            segment = segment[segment.index(after: cut)...]
        }
        let words = segment.split(whereSeparator: { $0 == " " || $0 == ":" || $0 == "|" }).map(String.init).filter { !$0.isEmpty }
        guard !words.isEmpty else { return nil }
        if words.count >= 2, let t = phoneType(Labels.label(words.suffix(2).joined(separator: " "))) { return t }
        if let t = phoneType(Labels.label(words[words.count - 1])) { return t }
        // "Tel/Fax" style, or a label followed by pictogram debris: the first word.
        return phoneType(Labels.label(words[0].split(separator: "/").first.map(String.init) ?? words[0]))
    }

    /// Letters OCR reads for digits inside phone numbers ("O" for 0, "l" for 1), mapped back.
    static let digitLookalikes: [Character: Character] = ["O": "0", "o": "0", "D": "0", "Q": "0", "l": "1", "I": "1", "|": "1", "S": "5", "B": "8"]

    /// Repairs tokens that are digit groups with look-alike letters in them: a token made only of
    /// digits, look-alikes and number punctuation, with at least as many digits as look-alikes
    /// or a pure digit group beside it, gets its look-alikes turned into digits.
    static func repairDigits(_ text: String) -> String {
        let tokens = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        func digits(_ t: String) -> Int { t.filter(\.isNumber).count }
        func isDigitGroup(_ t: String) -> Bool { digits(t) >= 2 && t.allSatisfy { $0.isNumber || "()-.+/".contains($0) } }
        var out = tokens
        for (i, t) in tokens.enumerated() {
            let lookalikes = t.filter { digitLookalikes[$0] != nil }.count
            guard lookalikes > 0, digits(t) > 0,
                  t.allSatisfy({ $0.isNumber || digitLookalikes[$0] != nil || "()-.+/".contains($0) }) else { continue }
            let neighbourIsNumber = (i > 0 && isDigitGroup(tokens[i - 1])) || (i + 1 < tokens.count && isDigitGroup(tokens[i + 1]))
            guard digits(t) >= lookalikes || neighbourIsNumber else { continue }
            out[i] = String(t.map { digitLookalikes[$0] ?? $0 })
        }
        return out.joined(separator: " ")
    }
}

extension Phone {
    /// This number, kept as printed when no country was known, read by `region`'s plan when it is
    /// valid there, and typed as the extractor types a number with its label (a "work" number the
    /// plan calls a mobile is one).
    public func read(in region: String) -> Phone {
        guard e164 == nil, let match = PhoneNumbers.parse(number, region: region), match.valid else { return self }
        var read = self
        read.e164 = match.e164
        read.valid = true
        read.type = PhoneExtractor.phoneType(of: match, digits: number.filter(\.isNumber), label: type, region: region)
        return read
    }
}
