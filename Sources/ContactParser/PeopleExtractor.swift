import Foundation

/// Picks the person's name, job title and organisation from the lines no other field took.
enum PeopleExtractor {
    struct Result {
        var name: PersonName?
        var title: String?
        var organization: String?
        var nameAgreesWithEmail = false
        var organizationAgreesWithDomain = false
        var nameLine: Int?
        var titleLine: Int?
        var organizationLine: Int?
    }

    static func extract(from lines: [CardLine], skip: Set<Int>, emails: [String], domains: [String]) -> Result {
        var result = Result()
        let candidates = lines.filter { !skip.contains($0.index) && $0.text.contains(where: \.isLetter) && !$0.text.contains("@") }
        let heights = candidates.compactMap(\.height)
        let maxHeight = heights.max() ?? 0
        let locals = emails.compactMap { $0.split(separator: "@").first.map { String($0).lowercased() } }
        let domainLabels = domains.compactMap { domainLabel($0) }

        // Organisation: a legal-form suffix or agreement with the e-mail/web domain.
        var orgScores: [(Int, Double)] = []
        for line in candidates {
            var score = 0.0
            if hasCompanySuffix(line.text) { score += 2 }
            let letters = lettersOnly(line.text)
            if !letters.isEmpty, domainLabels.contains(where: { label in
                label == letters || (label.count >= 4 && letters.hasPrefix(label)) || (letters.count >= 4 && label.hasPrefix(letters))
            }) { score += 2.5 }
            if isTitle(line.text) { score -= 2 }
            if score > 0 { orgScores.append((line.index, score)) }
        }
        if let best = orgScores.max(by: { $0.1 < $1.1 }) {
            result.organizationLine = best.0
            result.organization = lines[best.0].text
            result.organizationAgreesWithDomain = domainLabels.contains { lettersOnly(lines[best.0].text).hasPrefix($0) || $0.hasPrefix(lettersOnly(lines[best.0].text)) }
        }

        // Name: looks like a person's name; agreement with the e-mail's local part; larger text.
        var best: (index: Int, score: Double, agrees: Bool)?
        for line in candidates where line.index != result.organizationLine {
            guard let shape = nameShapeScore(line.text) else { continue }
            var score = shape
            let agrees = agreesWithEmail(line.text, locals: locals)
            if agrees { score += 3 }
            if let h = line.height, maxHeight > 0 { score += 1.5 * h / maxHeight }
            if isTitle(line.text) { score -= 3 }
            if hasCompanySuffix(line.text) { score -= 3 }
            if best == nil || score > best!.score { best = (line.index, score, agrees) }
        }
        if let best, best.score > 0.5 {
            let full = lines[best.index].text
            result.name = split(name: full)
            result.nameLine = best.index
            result.nameAgreesWithEmail = best.agrees
        }

        // Title: lexicon words, preferring the line right after the name.
        var titleBest: (Int, Double)?
        for line in candidates where line.index != result.nameLine && line.index != result.organizationLine {
            let words = titleWordCount(line.text)
            guard words > 0 else { continue }
            var score = Double(words)
            if let n = result.nameLine, line.index == n + 1 { score += 1 }
            if line.text.contains(where: \.isNumber) { score -= 1 }
            if titleBest == nil || score > titleBest!.1 { titleBest = (line.index, score) }
        }
        if let t = titleBest, t.1 > 0 {
            result.title = lines[t.0].text
            result.titleLine = t.0
        }

        // No organisation by suffix or domain: the largest remaining line that is neither name nor title.
        if result.organization == nil {
            let rest = candidates.filter { ![result.nameLine, result.titleLine].contains($0.index) && !AddressExtractor.looksLikeStreet($0.text) }
            if let pick = rest.max(by: { ($0.height ?? 0) < ($1.height ?? 0) }), lettersOnly(pick.text).count >= 3,
               result.name != nil || rest.count == 1 {
                result.organization = pick.text
                result.organizationLine = pick.index
            }
        }
        return result
    }

    /// The distinctive label of a domain: "mail.acme.co.uk" -> "acme".
    static func domainLabel(_ host: String) -> String? {
        var labels = host.lowercased().split(separator: ".").map(String.init)
        guard labels.count >= 2 else { return nil }
        labels.removeLast()
        if let last = labels.last, ["co", "com", "org", "net", "ac", "gov"].contains(last), labels.count >= 2 { labels.removeLast() }
        return labels.last
    }

    static func lettersOnly(_ s: String) -> String {
        String(fold(s).filter { $0.isLetter || $0.isNumber })
    }

    /// Lower-case, accents folded ("Dörr" -> "dorr"; German umlauts also as "oe" by callers).
    static func fold(_ s: String) -> String {
        s.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased()
    }

    static func hasCompanySuffix(_ text: String) -> Bool {
        let words = text.lowercased().split(separator: " ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",")) }
        for suffix in Lexicon.companySuffixes where words.count > suffix.count {
            if Array(words.suffix(suffix.count)) == suffix { return true }
        }
        return false
    }

    static func titleWordCount(_ text: String) -> Int {
        let words = text.lowercased().split(whereSeparator: { !$0.isLetter && $0 != "-" })
        return words.filter { Lexicon.titleWords.contains(String($0)) }.count
    }

    static func isTitle(_ text: String) -> Bool { titleWordCount(text) > 0 }

    /// How much a line looks like a person's name: 2-4 capitalised words of letters; nil when not at all.
    /// Lower-case particles that belong inside names ("María de la Vega", "Ludwig van Beethoven").
    static let nameParticles: Set<String> = ["de", "la", "del", "della", "der", "den", "van", "von", "da", "di", "du", "le",
                                             "zu", "ten", "ter", "bin", "al", "el", "dos", "das", "y"]

    /// Degrees and post-nominal letters after a name's comma ("Mahon, L.L.B.", "Smith, PhD").
    static func isPostNominal(_ s: Substring) -> Bool {
        let t = s.trimmingCharacters(in: .whitespaces)
        guard !t.isEmpty, t.count <= 10 else { return false }
        let letters = t.filter(\.isLetter)
        return !letters.isEmpty && t.allSatisfy { $0.isLetter || $0 == "." } && letters.filter(\.isUppercase).count >= max(1, letters.count / 2)
    }

    static func nameShapeScore(_ text: String) -> Double? {
        guard !text.contains(where: \.isNumber) else { return nil }
        // Post-nominals after a comma are part of the printed name but not of its shape.
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard let head = parts.first, parts.dropFirst().allSatisfy(isPostNominal) else { return nil }
        let words = head.split(separator: " ")
        let core = words.filter { !nameParticles.contains(String($0)) }
        guard (2...4).contains(core.count), words.count <= 6, !nameParticles.contains(String(words[0])) else { return nil }
        var score = 1.0
        for w in core {
            let word = w.trimmingCharacters(in: CharacterSet(charactersIn: "."))
            guard let first = word.first, first.isUppercase else { return nil }
            // Letters, hyphens, apostrophes; initials with dots ("A.W.").
            guard word.allSatisfy({ $0.isLetter || $0 == "-" || $0 == "'" || $0 == "." }) else { return nil }
            if word.count > 1 && word.filter(\.isLetter).dropFirst().allSatisfy(\.isUppercase) && !word.contains(".") {
                score -= 0.3  // ALL CAPS: likelier a company
            }
        }
        return score
    }

    /// The name agrees with an e-mail local part: jane.doe, janedoe, jdoe, jane, doe, doej.
    static func agreesWithEmail(_ text: String, locals: [String]) -> Bool {
        let parts = text.split(whereSeparator: { $0 == " " }).map { germanFold(String($0)) }.filter { !$0.isEmpty }
        guard parts.count >= 2, let given = parts.first, let family = parts.last else { return false }
        for raw in locals {
            let local = raw.filter(\.isLetter)
            let options = [given + family, family + given, String(given.prefix(1)) + family, given,
                           family, family + String(given.prefix(1)), given + String(family.prefix(1))]
            if options.contains(local) { return true }
        }
        return false
    }

    /// Letters only, lower-case, with German umlauts written out (ö -> oe) as e-mail addresses do.
    static func germanFold(_ s: String) -> String {
        var t = s.lowercased()
        for (a, b) in [("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("ß", "ss")] { t = t.replacingOccurrences(of: a, with: b) }
        return String(fold(t).filter(\.isLetter))
    }

    /// Splits a full name into given and family names (the last word is the family name, except
    /// for particles like "van der" which stay with it).
    static func split(name printed: String) -> PersonName {
        let full = printed
        let words = (printed.split(separator: ",").first.map(String.init) ?? printed).split(separator: " ").map(String.init)
        guard words.count >= 2 else { return PersonName(full: full, given: full, family: nil) }
        let particles: Set<String> = ["van", "von", "der", "den", "de", "da", "di", "del", "la", "le", "zu", "ten", "ter", "bin", "al"]
        var familyStart = words.count - 1
        while familyStart > 1, particles.contains(words[familyStart - 1]) { familyStart -= 1 }
        let given = words[..<familyStart].first { !($0.count <= 4 && $0.hasSuffix(".")) } ?? words[0]
        return PersonName(full: full, given: given, family: words[familyStart...].joined(separator: " "))
    }
}

/// Confidence per field: OCR confidence of the line, raised when cross-checks agree.
enum Confidence {
    static func score(_ contact: Contact, lines: [CardLine], people: PeopleExtractor.Result, emailRepairs: Int,
                      domains: [String]) -> [String: Double] {
        var out: [String: Double] = [:]
        func ocr(_ index: Int?) -> Double { index.map { lines[$0].confidence } ?? 0.8 }
        func clamp(_ v: Double) -> Double { (max(0, min(1, v)) * 100).rounded() / 100 }
        if contact.name != nil {
            out["name"] = clamp(0.5 * ocr(people.nameLine) + (people.nameAgreesWithEmail ? 0.5 : 0.25))
        }
        if contact.title != nil { out["title"] = clamp(0.6 * ocr(people.titleLine) + 0.3) }
        if contact.organization != nil {
            out["organization"] = clamp(0.5 * ocr(people.organizationLine) + (people.organizationAgreesWithDomain ? 0.45 : 0.2))
        }
        if !contact.phones.isEmpty { out["phones"] = clamp(contact.phones.allSatisfy { $0.e164 != nil } ? 0.9 : 0.6) }
        if !contact.emails.isEmpty {
            let domainsAgree = contact.emails.allSatisfy { e in
                let d = e.split(separator: "@").last.map(String.init) ?? ""
                return contact.urls.isEmpty || contact.urls.contains { URLExtractor.host(of: $0) == d }
            }
            out["emails"] = clamp((domainsAgree ? 0.95 : 0.8) - 0.15 * Double(emailRepairs))
        }
        if !contact.urls.isEmpty { out["urls"] = 0.85 }
        if let a = contact.address { out["address"] = clamp((a.street != nil ? 0.85 : 0.65)) }
        return out
    }
}
