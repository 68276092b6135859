import Foundation

/// Phone numbers of East Asian cards: full-width digits folded, each number typed by the label
/// before it (電話, 携帯, 传真, 휴대폰, TEL, M ...), else by what libphonenumber knows of it (a
/// mobile number is a mobile under a generic label too).
enum CJKPhones {
    struct Result {
        var phones: [Phone] = []
        var consumedLines: Set<Int> = []
    }

    static func extract(from lines: [CJKLine], region: String?) -> Result {
        var result = Result()
        let region = region ?? "ZZ"
        for line in lines {
            let text = line.folded
            // A line read unsurely gives its valid numbers when a label starts it (팩스 02-210-8005):
            // the junk the script's data makes of an e-mail address starts with none.
            let unsure = line.confidence < leastConfidence
            guard text.filter(\.isNumber).count >= 6, !unsure || startsWithLabel(text) else { continue }
            let utf8 = Array(text.utf8)
            var previousEnd = 0
            var found = false
            for match in PhoneNumbers.find(in: text, region: region) {
                let lower = min(max(previousEnd, match.utf8Range.lowerBound), utf8.count)
                let before = String(decoding: utf8[min(previousEnd, lower)..<lower], as: UTF8.self)
                previousEnd = match.utf8Range.upperBound
                if isPostcode(match.printed, before: before) || unsure && !match.valid { continue }
                let labelled = label(in: before)
                // Digits without a label on a line with an e-mail address: the address's, read as
                // digits by the script's data ("54@1130030.00.0").
                if text.contains("@"), labelled == nil { continue }
                // A number no plan knows, without a label before it, on a line of words: digits of
                // an address (a postcode, a house number, a floor), not a phone.
                if !match.valid, labelled == nil, hasOtherWords(text) { continue }
                // As on Latin cards: a number the plan calls a mobile is one, whatever generic
                // label ("TEL", 電話) it has.
                let type = PhoneExtractor.phoneType(of: match, digits: digits(match.printed), label: labelled, region: region)
                let e164 = match.valid ? match.e164 : nil
                guard !result.phones.contains(where: { digits($0.number) == digits(match.printed) }) else { continue }
                result.phones.append(Phone(type: type, number: match.printed, e164: e164, valid: match.valid))
                found = true
            }
            if found, !hasOtherWords(text) { result.consumedLines.insert(line.index) }
        }
        return result
    }

    /// Mean word confidence under which a line gives no number: the script's data reads a card's
    /// e-mail and web addresses as unsure runs of digits ("10+0@12101108.0007") in which
    /// libphonenumber finds valid numbers; lines of numbers read at 0.43 and more.
    static let leastConfidence = 0.3

    /// True when `text` starts with a phone label of two letters or more (East Asian) or three or
    /// more (Latin): a single letter (M, F, T) is as often a speck read as one.
    static func startsWithLabel(_ text: String) -> Bool {
        let lower = text.lowercased().trimmingCharacters(in: .whitespaces.union(.punctuationCharacters))
        return CJKLexicon.phoneLabels.contains { word, _ in
            lower.hasPrefix(word) && word.count >= (word.allSatisfy(\.isASCII) ? 3 : 2)
        }
    }

    /// The kind the last label in `text` announces.
    static func label(in text: String) -> PhoneType? {
        let lower = text.lowercased()
        var best: (position: String.Index, length: Int, type: PhoneType)?
        for (word, type) in CJKLexicon.phoneLabels {
            guard let range = lower.range(of: word, options: .backwards) else { continue }
            if word.allSatisfy(\.isASCII) {
                // A Latin label stands as a word: "TEL", "M." but not the "m" of a name.
                let before = range.lowerBound == lower.startIndex ? nil : lower[lower.index(before: range.lowerBound)]
                let after = range.upperBound == lower.endIndex ? nil : lower[range.upperBound]
                if before?.isLetter == true || after?.isLetter == true { continue }
            }
            if best == nil || range.lowerBound > best!.position || (range.lowerBound == best!.position && word.count > best!.length) {
                best = (range.lowerBound, word.count, type)
            }
        }
        return best?.type
    }

    /// A postcode libphonenumber could take for a short number ("〒100-0005", "邮编 200120").
    static func isPostcode(_ number: String, before: String) -> Bool {
        let trimmed = before.trimmingCharacters(in: .whitespaces.union(.punctuationCharacters))
        return CJKLexicon.postalMarks.contains { trimmed.hasSuffix($0) } || number.filter(\.isNumber).count <= 7 && before.contains("〒")
    }

    /// True when the line has words beside its numbers and labels (an address with a number in it).
    static func hasOtherWords(_ text: String) -> Bool {
        var rest = text.lowercased()
        for (word, _) in CJKLexicon.phoneLabels where word.count > 1 { rest = rest.replacingOccurrences(of: word, with: " ") }
        let letters = rest.filter { $0.isLetter && !$0.isASCII }
        return letters.count >= 2
    }

    static func digits(_ s: String) -> String { s.filter(\.isNumber) }
}
