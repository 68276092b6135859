import Foundation

/// The evidence the line-role model weighs for one candidate line, as named features: the words
/// and their endings, the shape of the line (capitals, initials, digits, punctuation), what the
/// well-kept lists say (a legal form, title words), agreement with the e-mail's local part and the
/// card's domains, the line's type size against the card's, its place on the card and its OCR
/// confidence, and a little of the lines before and after it. The model's weights
/// (`LineRoleWeights`) give each feature a weight per role; the training script
/// (scripts/train_roles.py) learns them from generated cards through `LineRoleTraining`.
///
/// Feature names are part of the model: changing one means training again.
struct LineFeatures {
    /// The card-wide evidence: other fields' values and the candidates' sizes and places.
    struct Card {
        let lines: [CardLine]
        let consumed: Set<Int>
        let candidates: [PeopleExtractor.Candidate]
        let evidence: PeopleExtractor.Evidence
        let heights: [Double]
        let medianHeight: Double
        let topRange: ClosedRange<Double>?
        let nameShaped: Int

        init(lines: [CardLine], consumed: Set<Int>, candidates: [PeopleExtractor.Candidate], evidence: PeopleExtractor.Evidence) {
            self.lines = lines
            self.consumed = consumed
            self.candidates = candidates
            self.evidence = evidence
            heights = candidates.compactMap(\.line.height).sorted()
            medianHeight = heights.isEmpty ? 0 : heights[heights.count / 2]
            let tops = lines.compactMap(\.top)
            topRange = tops.isEmpty ? nil : tops.min()!...tops.max()!
            nameShaped = candidates.filter { PeopleExtractor.nameShapeScore($0.text) != nil }.count
        }
    }

    /// The features of candidate `k` of `card`.
    static func features(of k: Int, in card: Card) -> [String] {
        let c = card.candidates[k]
        var f = ["bias"]
        f += textFeatures(c.text)
        f += evidenceFeatures(c, card)
        f += placeFeatures(k, card)
        f += neighbourFeatures(c.line.index, card)
        return f
    }

    // MARK: - The text itself

    static func textFeatures(_ text: String) -> [String] {
        var f: [String] = []
        let words = text.split(separator: " ").map(String.init)
        for w in words.prefix(8) {
            let letters = w.filter(\.isLetter).lowercased()
            guard letters.count >= 2 else { continue }
            f.append("w:" + letters)
            let plain = ParserData.fold(letters)
            if plain != letters { f.append("w:" + plain) }
            if plain.count >= 5 { f.append("s3:" + plain.suffix(3)) }
            if plain.count >= 6 { f.append("s4:" + plain.suffix(4)) }
        }
        if let first = words.first?.filter(\.isLetter).lowercased(), first.count >= 2 { f.append("first:" + ParserData.fold(first)) }
        if words.count >= 2, let last = words.last?.filter(\.isLetter).lowercased(), last.count >= 2 { f.append("last:" + ParserData.fold(last)) }
        let shapes = words.map(shape)
        f.append("shape:" + shapes.prefix(5).joined(separator: "_") + (shapes.count > 5 ? "_+" : ""))
        for s in Set(shapes) { f.append("has:" + s) }
        f.append("nw:\(min(words.count, 8))")
        let letters = text.filter(\.isLetter)
        f.append("len:" + bucket(Double(letters.count), [3, 6, 10, 16, 24, 32]))
        let upper = letters.filter(\.isUppercase).count
        if letters.count >= 2 {
            f.append("upper:" + bucket(Double(upper) / Double(letters.count), [0.01, 0.2, 0.5, 0.9]))
        }
        let digits = text.filter(\.isNumber).count
        if digits > 0 { f.append("digits:" + bucket(Double(digits), [1, 3, 6])) }
        for (mark, name) in [("&", "amp"), (",", "comma"), (".", "dot"), ("/", "slash"), ("-", "hyphen"), ("(", "paren"),
                             (":", "colon"), ("@", "at"), ("'", "apos"), ("|", "bar")] where text.contains(mark) {
            f.append("mark:" + name)
        }
        let other = text.filter { !$0.isLetter && !$0.isNumber && $0 != " " && !".,&-/()':@|".contains($0) }.count
        if other > 0 { f.append("symbols:" + bucket(Double(other), [1, 3])) }
        return f
    }

    /// A word's shape: Xx (capitalised), X (capitals), x (lower case), X. (an initial), 9 (digits),
    /// 9x (digits and letters), Xx-Xx (hyphenated), . (punctuation only).
    static func shape(_ word: String) -> String {
        let letters = word.filter(\.isLetter)
        let digits = word.filter(\.isNumber).count
        if letters.isEmpty { return digits > 0 ? "9" : "." }
        if digits > 0 { return "9x" }
        if letters.count == 1 { return word.hasSuffix(".") ? "X." : (letters.first!.isUppercase ? "X1" : "x1") }
        let hyphen = word.contains("-") ? "-" : ""
        if letters.allSatisfy(\.isUppercase) { return "X" + hyphen }
        if letters.first!.isUppercase {
            return letters.dropFirst().allSatisfy(\.isLowercase) ? "Xx" + hyphen : "XxX" + hyphen
        }
        return letters.allSatisfy(\.isLowercase) ? "x" + hyphen : "xX"
    }

    // MARK: - What the lists and the other fields say

    static func evidenceFeatures(_ c: PeopleExtractor.Candidate, _ card: Card) -> [String] {
        var f: [String] = []
        let text = c.text
        if PeopleExtractor.hasLegalForm(c.company) { f.append("legal:end") }
        if text.split(separator: " ").contains(where: { ParserData.isLegalForm($0.lowercased().trimmingCharacters(in: ParserCharacters.comma)) }) {
            f.append("legal:word")
        }
        let titleWords = PeopleExtractor.titleWordCount(text)
        if titleWords > 0 { f.append("titlewords:\(min(titleWords, 2))") }
        if let shape = PeopleExtractor.nameShapeScore(text) {
            f.append("nameshape")
            f.append("nameshape:" + bucket(shape, [0.5, 0.9]))
        }
        if PeopleExtractor.looksLikeFirmName(text) { f.append("firmname") }
        f += nameListFeatures(text)
        if PeopleExtractor.agreesWithEmail(text, locals: card.evidence.locals) { f.append("agrees:email") }
        if PeopleExtractor.agreesWithDomain(c.company, labels: card.evidence.domainLabels) { f.append("agrees:domain") }
        let words = text.split(separator: " ").map { PeopleExtractor.lettersOnly(String($0)) }
        if card.evidence.domainLabels.contains(where: { label in label.count >= 3 && words.contains { $0.count >= 3 && label.contains($0) } }) {
            f.append("domain:word")
        }
        if card.evidence.locals.contains(where: { local in words.contains { $0.count >= 3 && local.contains($0) } }) {
            f.append("local:word")
        }
        if AddressExtractor.looksLikeStreet(text) { f.append("street") }
        if c.residue { f.append("residue") }
        if let first = text.split(separator: " ").first, Labels.label(String(first)) != nil, text.split(separator: " ").count > 1 {
            f.append("labelled")
        }
        if c.part > 0 {
            f.append("part:\(c.part)")
            if PeopleExtractor.hasLegalForm(c.company) { f.append("part:\(c.part)&legal") }
            if let first = text.split(separator: " ").first, PersonNames.isGiven(first) {
                f.append("part:\(c.part)&given")
            }
        } else if !PeopleExtractor.splitsOfNameAndCompany(text).isEmpty {
            f.append("splittable")
        }
        return f
    }

    /// What the lists of given and family names say of the line's words.
    static func nameListFeatures(_ text: String) -> [String] {
        let words = text.split(separator: " ").map { ParserData.fold(String($0.filter { $0.isLetter || $0 == "-" || $0 == "'" }).lowercased()) }
            .filter { $0.count >= 2 }
        guard !words.isEmpty, words.count <= 6 else { return [] }
        let given = words.map { PersonNames.given.contains($0) }
        let family = words.map { PersonNames.family.contains($0) }
        var f: [String] = []
        if given[0] { f.append("list:first=given") }
        if family[0] { f.append("list:first=family") }
        if words.count >= 2 {
            if family[words.count - 1] { f.append("list:last=family") }
            if given[words.count - 1] { f.append("list:last=given") }
        }
        let named = zip(given, family).filter { $0 || $1 }.count
        f.append("list:share:" + bucket(Double(named) / Double(words.count), [0.01, 0.5, 0.99]))
        if words.count == 1 { f.append(given[0] ? "list:single=given" : family[0] ? "list:single=family" : "list:single=none") }
        return f
    }

    // MARK: - Where it is and how large

    static func placeFeatures(_ k: Int, _ card: Card) -> [String] {
        let c = card.candidates[k]
        let n = card.candidates.count
        var f = ["rank:\(min(k, 5))", "rrank:\(min(n - 1 - k, 5))", "count:\(min(n, 8))", "namelines:\(min(card.nameShaped, 3))"]
        if let h = c.line.height, card.evidence.maxHeight > 0 {
            let ratio = h / card.evidence.maxHeight
            f.append("hmax:" + bucket(ratio, [0.4, 0.55, 0.7, 0.85, 0.97]))
            let larger = card.heights.filter { $0 > h * 1.05 }.count
            f.append("hrank:\(min(larger, 3))")
            if card.medianHeight > 0 { f.append("hmed:" + bucket(h / card.medianHeight, [0.8, 0.95, 1.1, 1.4, 2])) }
            if PeopleExtractor.nameShapeScore(c.text) != nil { f.append("nameshape&hrank:\(min(larger, 2))") }
            if PeopleExtractor.hasLegalForm(c.company) { f.append("legal&hrank:\(min(larger, 2))") }
        }
        if let top = c.line.top, let range = card.topRange, range.upperBound > range.lowerBound {
            f.append("top:" + bucket((top - range.lowerBound) / (range.upperBound - range.lowerBound), [0.15, 0.35, 0.6, 0.85]))
        }
        f.append("conf:" + bucket(c.line.confidence, [0.4, 0.6, 0.75, 0.9]))
        let hasContact = !card.evidence.locals.isEmpty || card.evidence.hasAddresses
        f.append(hasContact ? "card:contact" : "card:nocontact")
        return f
    }

    /// Coarse features of the lines just before and after (in reading order, all lines).
    static func neighbourFeatures(_ index: Int, _ card: Card) -> [String] {
        var f: [String] = []
        for (offset, tag) in [(-1, "P"), (1, "N")] {
            let j = index + offset
            guard j >= 0, j < card.lines.count else { f.append(tag + ":none"); continue }
            let line = card.lines[j]
            if card.consumed.contains(j) { f.append(tag + ":contact"); continue }
            let text = line.text
            if PeopleExtractor.nameShapeScore(text) != nil { f.append(tag + ":nameshape") }
            if PeopleExtractor.titleWordCount(text) > 0 { f.append(tag + ":titlewords") }
            if PeopleExtractor.hasLegalForm(text) { f.append(tag + ":legal") }
            if line.confidence < 0.5 { f.append(tag + ":lowconf") }
            if let h = line.height, let own = card.lines[index].height, own > 0 {
                f.append(tag + ":h" + bucket(h / own, [0.7, 0.9, 1.1, 1.4]))
            }
        }
        return f
    }

    /// The bucket of `value` among ascending `edges`: "0" below the first edge, "1" below the second ...
    static func bucket(_ value: Double, _ edges: [Double]) -> String {
        String(edges.firstIndex { value < $0 } ?? edges.count)
    }
}
