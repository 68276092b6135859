import Foundation

/// The role a line plays on a card. The line-role model gives each candidate line a probability
/// of each.
enum LineRole: Int, CaseIterable, Sendable {
    case other = 0, name, title, organization

    /// The role's name in the weights table and the training data.
    var label: String {
        switch self {
        case .other: "other"
        case .name: "name"
        case .title: "title"
        case .organization: "org"
        }
    }
}

/// A multinomial logistic regression over `LineFeatures`: a weight per feature and role, summed
/// over a line's features and turned into probabilities by softmax. Trained offline on generated
/// cards (scripts/train_roles.py); the weights ship as data (`LineRoleWeights`, with their
/// provenance), keyed by the hash of the feature's name, and a feature the table does not hold
/// weighs nothing.
struct LineRoleModel: Sendable {
    /// A role is given to a line only when the model thinks it this much likelier than "other".
    static let margin = 1.0

    let table: HashedTable
    let weights: [SIMD4<Float>]

    /// The shipped model, read once.
    static let shared = LineRoleModel(keys: LineRoleWeights.keys, weights: LineRoleWeights.weights)

    /// Reads the features' hashes (`HashedTable`) and their weights: four little-endian Float32
    /// bit patterns per feature (other, name, title, org), as base64 text.
    init(keys: String, weights text: String) {
        table = HashedTable(base64: keys)
        let bits = HashedTable.decode(text, as: UInt32.self)
        guard bits.count == table.keys.count * 4 else {
            weights = Array(repeating: SIMD4(repeating: 0), count: table.keys.count)
            return
        }
        self.weights = (0..<table.keys.count).map { k in
            SIMD4(Float(bitPattern: bits[4 * k]), Float(bitPattern: bits[4 * k + 1]), Float(bitPattern: bits[4 * k + 2]),
                  Float(bitPattern: bits[4 * k + 3]))
        }
    }

    /// The probability of each role (indexed by `LineRole.rawValue`) for a line with these features.
    func probabilities(_ features: [String]) -> [Double] {
        var sum = SIMD4<Float>(repeating: 0)
        for feature in features {
            if let k = table.index(of: feature) { sum += weights[k] }
        }
        let top = sum.max()
        let e = (0..<4).map { Foundation.exp(Double(sum[$0] - top)) }
        let total = e.reduce(0, +)
        return e.map { $0 / total }
    }
}

/// Training examples for the line-role model: what `ContactParser` weighs for each candidate line
/// of a card, with the role the card's truth gives it. Used by `cardscan-bench role-data` for
/// scripts/train_roles.py; not part of scanning.
public enum LineRoleTraining {
    /// One candidate line: its role by the truth ("name", "title", "org" or "other"), its features
    /// and its text.
    public struct Example: Sendable {
        public let role: String
        public let features: [String]
        public let text: String
        /// The shipped model's probabilities of other, name, title and org.
        public let probabilities: [Double]
    }

    /// The candidate lines of a card as the parser sees them, labelled by `truth` (name, title
    /// and organization as printed). With `roles` (the role of each input line, as the card
    /// generator knows it), a candidate takes its line's role when its text is mostly the
    /// truth's value (a line can hold a name and a number); without, a candidate whose text is the
    /// truth's value, or close to it (OCR's slips), takes that role.
    public static func examples(lines: [TextLine], truth: [String: String], roles: [String]? = nil,
                                fallbackRegion: String?) -> [Example] {
        let parser = ContactParser(fallbackRegion: fallbackRegion)
        let stage = parser.contactData(lines: lines)
        let (card, probabilities) = PeopleExtractor.score(lines: stage.lines, skip: stage.used, emails: stage.contact.emails,
                                                          domains: Domains.hosts(emails: stage.contact.emails, urls: stage.contact.urls))
        return card.candidates.indices.map { k in
            let c = card.candidates[k]
            var role = "other"
            if let roles, c.line.source < roles.count {
                let printed = roles[c.line.source]
                for r in [LineRole.name, .title, .organization] where printed.split(separator: "+").contains(Substring(r.label)) {
                    if let value = truth[r.label], similarity(r == .organization ? c.company : c.text, value) >= 0.6 { role = r.label }
                }
            } else {
                var best: (role: String, score: Double) = ("other", 0)
                for r in [LineRole.name, .title, .organization] {
                    guard let value = truth[r.label], !value.isEmpty else { continue }
                    let score = similarity(r == .organization ? c.company : c.text, value)
                    if score > best.score { best = (r.label, score) }
                }
                if best.score >= 0.8 { role = best.role }
            }
            return Example(role: role, features: LineFeatures.features(of: k, in: card), text: c.text, probabilities: probabilities[k])
        }
    }

    /// 1 - edits / length, on folded letters and digits.
    static func similarity(_ a: String, _ b: String) -> Double {
        func norm(_ s: String) -> String {
            String(ParserData.fold(s.lowercased()).map { $0.isLetter || $0.isNumber ? $0 : " " })
                .split(separator: " ").joined(separator: " ")
        }
        let x = norm(a), y = norm(b)
        guard !x.isEmpty, !y.isEmpty else { return 0 }
        return 1 - Double(TextDistance.edits(x, y)) / Double(max(x.count, y.count))
    }
}
