import Foundation

extension String {
    /// `replacingOccurrences(of:with:)`, asked of Foundation only when `target`'s UTF-8 bytes are in
    /// the text: most lines hold none of the spellings the parser mends, and each call through
    /// NSString costs a copy of the line. The same result either way for the targets the parser
    /// uses (none holds a character with a canonical equivalent, such as U+037E for ";").
    func replacingIfPresent(_ target: String, with replacement: String) -> String {
        guard contains(bytes: target) else { return self }
        return replacingOccurrences(of: target, with: replacement)
    }

    /// True when `target`'s UTF-8 bytes occur in the text's.
    func contains(bytes target: String) -> Bool {
        var text = self, target = target
        return text.withUTF8 { t in
            target.withUTF8 { p in
                guard let first = p.first else { return true }
                guard p.count <= t.count else { return false }
                for i in 0...(t.count - p.count) where t[i] == first {
                    var j = 1
                    while j < p.count && t[i + j] == p[j] { j += 1 }
                    if j == p.count { return true }
                }
                return false
            }
        }
    }
}

/// The sets of characters the parser trims, made once (building one per call was 2% of the parse).
enum ParserCharacters {
    static let barAndSpace = CharacterSet(charactersIn: "| ")
    static let postcodePunctuation = CharacterSet(charactersIn: ".;:()")
    static let partPunctuation = CharacterSet(charactersIn: " -–,.;:()")
    static let subregionPunctuation = CharacterSet(charactersIn: " ,.()")
    static let commaDashSpace = CharacterSet(charactersIn: " ,-")
    static let debris = CharacterSet(charactersIn: " |\\_~`'\"•·*«»<>{}[]^°®©™§¢¥€£¬¦=")
    static let hostPunctuation = CharacterSet(charactersIn: ".-,;:/ ")
    static let localPunctuation = CharacterSet(charactersIn: ".-'")
    static let tokenPunctuation = CharacterSet(charactersIn: ",;()<>\"'")
    static let labelEnd = CharacterSet(charactersIn: ":|")
    static let labelPunctuation = CharacterSet(charactersIn: ":;|.-–—•·/ ")
    static let commaDot = CharacterSet(charactersIn: ",.")
    static let namePunctuation = CharacterSet(charactersIn: " ,;:|-")
    static let comma = CharacterSet(charactersIn: ",")
    static let dot = CharacterSet(charactersIn: ".")
    static let commaAndSpace = CharacterSet(charactersIn: ", ")
    static let punctuationAndSpaces = CharacterSet.punctuationCharacters.union(.whitespaces)
    /// Punctuation and spaces but the dot ("U.K."), trimmed from a country's name.
    static let nameEnds = punctuationAndSpaces.subtracting(CharacterSet(charactersIn: "."))
}

/// OCR's look-alike marks inside a name's words ("Danie!" for "Daniel", "Mar1a", "R0sa"): a word
/// of letters but for one or two such marks becomes the spelling the name lists know, if one does.
/// A word the lists do not confirm is left as OCR read it.
enum NameMending {
    static let lookalikes: [Character: [Character]] = ["!": ["l", "i"], "1": ["i", "l"], "|": ["l", "i"], "0": ["o"], "5": ["s"],
                                                       "8": ["b"], "6": ["e", "o"]]

    static func mend(_ text: String) -> String {
        guard text.contains(where: { lookalikes[$0] != nil }) else { return text }
        return text.split(separator: " ", omittingEmptySubsequences: false).map { mendWord(String($0)) }.joined(separator: " ")
    }

    static func mendWord(_ word: String) -> String {
        let marks = word.filter { lookalikes[$0] != nil }.count
        guard (1...2).contains(marks), word.filter(\.isLetter).count >= 2,
              word.allSatisfy({ $0.isLetter || lookalikes[$0] != nil || $0 == "-" || $0 == "'" }) else { return word }
        let upper = word.filter(\.isLetter).allSatisfy(\.isUppercase)
        var spellings = [""]
        for (k, c) in word.enumerated() {
            // Upper case in a word in capitals, and for a word's first letter ("5ilva").
            let options = lookalikes[c].map { alts in alts.map { upper || k == 0 ? Character($0.uppercased()) : $0 } } ?? [c]
            spellings = spellings.flatMap { s in options.map { s + String($0) } }
        }
        return spellings.first { s in
            let key = ParserData.fold(s)
            return PersonNames.given.contains(key) || PersonNames.family.contains(key)
        } ?? word
    }
}
