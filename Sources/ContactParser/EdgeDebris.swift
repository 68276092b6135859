import Foundation

/// Words at the ends of an OCR line that are debris: a logo, an icon or a texture beside the text,
/// read as letters ("al NORVIK TRADING AS", "oO Brekke Bygg"). A logistic regression weighs what OCR
/// says of the word against the rest of its line: its confidence, the gap after it, its width per
/// letter, its letters. Trained by scripts/train_debris.py on what Tesseract reads on generated
/// photos (words at the ends of a line that spell nothing printed on the card); the weights ship
/// as data (`EdgeDebrisWeights`).
///
/// Feature order and definitions are part of the model: changing one means training again.
enum EdgeDebris {
    /// Words trimmed from each end of a line at most.
    static let mostPerEnd = 2

    /// The words of a line of `height` pixels with the debris at its ends dropped; a line of
    /// East Asian text, or one without geometry, is left as it is.
    static func trimmed(_ words: [TextWord], height: Double?) -> [TextWord] {
        guard let height, height > 0, words.count >= 2,
              !words.contains(where: { $0.text.contains(where: CJKText.isEastAsian) }) else { return words }
        var kept = words
        for leading in [true, false] {
            for _ in 0..<mostPerEnd where kept.count >= 2 {
                let k = leading ? 0 : kept.count - 1
                guard isCandidate(kept[k].text), !(leading && isParticle(kept, at: k)),
                      probability(features(kept, at: k, height: height)) > 0.5 else { break }
                kept.remove(at: k)
            }
        }
        return kept
    }

    /// Contact data (two digits or more, an e-mail or web address), labels and initials (a
    /// capital alone, or with its dot: a name keeps them) are never debris. An "@" without a
    /// letter or a digit is no address but an icon read as one ("@®" before a company's name).
    static func isCandidate(_ token: String) -> Bool {
        let address = token.contains("@") && token.contains { $0.isLetter || $0.isNumber }
        guard token.filter(\.isNumber).count < 2, !address, Labels.label(token) == nil else { return false }
        if let first = token.first, first.isLetter, first.isUppercase, token.count == 1 || token == "\(first)." { return false }
        let chars = Array(token)
        return !chars.indices.dropFirst().dropLast().contains { chars[$0] == "." && chars[$0 - 1].isWordCharacter && chars[$0 + 1].isWordCharacter }
    }

    /// A lower-case particle of a name before a word in title case ("da Cunha Camargo e Filhos", "van
    /// Dijk Bouw") begins a family name, or a firm named after one: lower case before a capital is
    /// no sign of debris there ("al NORVIK TRADING AS" still is). Not "al" or "el": Tesseract reads
    /// a logo's mark so ("al Ojala Oy" on generated photos), and names write them "Al-", "El ".
    static func isParticle(_ words: [TextWord], at k: Int) -> Bool {
        let word = words[k].text
        guard k + 1 < words.count, word.count >= 2, !["al", "el"].contains(word), PeopleExtractor.nameParticles.contains(word) else {
            return false
        }
        let next = words[k + 1].text
        return next.filter(\.isLetter).count >= 2 && PeopleExtractor.isTitleCase(next)
    }

    static func probability(_ features: [Double]) -> Double {
        let z = zip(features, EdgeDebrisWeights.weights).reduce(0) { $0 + $1.0 * $1.1 }
        return 1 / (1 + exp(-z))
    }

    /// bias, confidence, how far under the line's median confidence, the gap to the next word
    /// beyond the line's usual gap (in line heights), the log of the width per letter against
    /// the line's usual, letters (up to six, over six), the share of symbols, no vowel, lower
    /// case before a capital, leading.
    static func features(_ words: [TextWord], at k: Int, height: Double) -> [Double] {
        let word = words[k]
        let others = words.indices.filter { $0 != k }.map { words[$0] }
        func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }
        let medianConfidence = median(others.map(\.confidence))
        let (a, b) = k == 0 ? (word, words[1]) : (words[words.count - 2], word)
        let gap = max(0, b.left - a.right) / height
        var inner = zip(words, words.dropFirst()).map { max(0, $1.left - $0.right) / height }
        if k == 0 { inner.removeFirst() } else { inner.removeLast() }
        let usual = inner.isEmpty ? 0.35 : median(inner)
        func perLetter(_ w: TextWord) -> Double { max(1, w.right - w.left) / Double(max(1, w.text.count)) / height }
        let typical = median(others.map(perLetter))
        let letters = word.text.filter(\.isLetter)
        let symbols = word.text.filter { !$0.isLetter && !$0.isNumber }.count
        let neighbour = words[k == 0 ? 1 : words.count - 2].text
        let noVowel = !letters.isEmpty && !letters.contains { "aeiouyAEIOUY".contains($0) || $0.unicodeScalars.first!.value > 0x7F }
        let lowerBeforeUpper = !letters.isEmpty && letters.allSatisfy(\.isLowercase) && neighbour.first?.isUppercase == true
        return [1, word.confidence, max(0, medianConfidence - word.confidence), min(5, max(-1, gap - usual)),
                max(-2, min(2, log(perLetter(word) / max(typical, 1e-6)))), Double(min(letters.count, 6)) / 6,
                Double(symbols) / Double(max(1, word.text.count)), noVowel ? 1 : 0, lowerBeforeUpper ? 1 : 0, k == 0 ? 1 : 0]
    }
}

private extension Character {
    var isWordCharacter: Bool { isLetter || isNumber || self == "_" }
}
