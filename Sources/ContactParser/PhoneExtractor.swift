import Foundation

/// Finds phone numbers with libphonenumber and types them from the card's labels.
enum PhoneExtractor {
    struct Result {
        var phones: [Phone] = []
        var consumedLines: Set<Int> = []
    }

    static func extract(from lines: [CardLine], region: String, skip: Set<Int>) -> Result {
        var result = Result()
        var seen = Set<String>()
        for line in lines {
            let text = repairDigits(line.text)
            // Postcodes and street numbers are no phones: need enough digits on the line at all.
            guard text.filter(\.isNumber).count >= 6 else { continue }
            let matches = PhoneNumbers.find(in: text, region: region).map { reconcileCountryCode($0, region: region) }
            var found = false
            let utf8 = Array(text.utf8)
            for m in matches {
                let digits = m.printed.filter(\.isNumber)
                guard digits.count >= 6 else { continue }
                // A US/CA ZIP+4 or a postcode run is not a phone: want separators typical of numbers
                // or a label, or validity.
                let before = String(decoding: utf8[0..<m.utf8Range.lowerBound], as: UTF8.self)
                let label = labelType(before)
                guard m.valid || label != nil || digits.count >= 9 else { continue }
                let key = m.e164
                guard !seen.contains(key) else { continue }
                seen.insert(key)
                let type: PhoneType
                switch label {
                case .mobile?: type = .mobile
                case .fax?: type = .fax
                case .work?: type = .work
                case nil:
                    type = m.kind == .mobile ? .mobile : .work
                }
                result.phones.append(Phone(type: type, number: m.printed.trimmingCharacters(in: .whitespaces), e164: m.e164))
                found = true
            }
            if found, Residue.isLabelOnly(text, removing: { $0.contains(where: \.isNumber) }) {
                result.consumedLines.insert(line.index)
            }
        }
        return result
    }

    /// A "+CC" number that is not valid, where the card's own country code gives a valid one, is
    /// read with the card's code: OCR misreads a digit of "+61" as "+62" more often than an
    /// Australian card lists an invalid Indonesian number.
    static func reconcileCountryCode(_ match: PhoneMatch, region: String) -> PhoneMatch {
        guard !match.valid, match.printed.hasPrefix("+"), let cc = PhoneNumbers.callingCode(of: region) else { return match }
        let digits = match.printed.filter(\.isNumber)
        for ccLength in 1...3 where digits.count > ccLength + 6 {
            let national = digits.dropFirst(ccLength)
            if let alt = PhoneNumbers.parse("+\(cc)" + national, region: region), alt.valid {
                return PhoneMatch(utf8Range: match.utf8Range, printed: match.printed, e164: alt.e164, region: alt.region,
                                  valid: true, kind: alt.kind)
            }
        }
        return match
    }

    /// The label just before a number: "T:", "Mobile", "Fax." ... (the last word before it).
    static func labelType(_ before: String) -> Lexicon.PhoneTypeLabel? {
        // Only the text since the previous number or separator counts.
        var segment = Substring(before)
        if let cut = segment.lastIndex(where: { $0.isNumber }) {
            segment = segment[segment.index(after: cut)...]
        }
        let words = segment.lowercased().split(whereSeparator: { !$0.isLetter })
        guard let last = words.last else { return nil }
        for (label, type) in Lexicon.phoneLabels where last == label { return type }
        // "Tel/Fax" style: first word.
        if let first = words.first {
            for (label, type) in Lexicon.phoneLabels where first == label { return type }
        }
        return nil
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
