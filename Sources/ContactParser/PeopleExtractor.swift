import Foundation

/// Picks the person's name, job title and organisation from the lines no other field took, by
/// weighing evidence: legal forms (cleanco's list) and agreement with the e-mail or web domain
/// for the organisation; the shape of a name, agreement with the e-mail's local part and the
/// size of the text for the name; title words in many languages and the place next to the name
/// for the title. Logo debris before a company name is trimmed, and a name and a company OCR
/// read as one line are taken apart.
enum PeopleExtractor {
    struct Result {
        var name: PersonName?
        var title: String?
        var organization: String?
        var nameAgreesWithEmail = false
        var organizationAgreesWithDomain = false
        /// True when the organisation was only inferred from the e-mail or web domain.
        var nameLine: Int?
        var titleLine: Int?
        var organizationLine: Int?
        /// The line-role model's probability of the role for the line given it.
        var probability: [LineRole: Double] = [:]
    }

    /// A candidate line after cleaning, keeping the index of the line it came from. `company` is
    /// the text with logo debris trimmed the way a company name would be. `residue` marks what is
    /// left of a line once its contact data (numbers, addresses, labels) is taken out; `split`
    /// marks a half of a line read as a name and a company.
    struct Candidate {
        var text: String
        var line: CardLine
        var company: String
        var residue = false
        /// 0 for a whole line, 1 and 2 for the halves of a line that reads as a name and a company.
        var part = 0
        /// The words of the first half, for the halves of a line that may be cut after two or three.
        var cut = 0
        var split: Bool { part != 0 }
        init(text: String, line: CardLine, residue: Bool = false, part: Int = 0, cut: Int = 0) {
            self.text = text
            self.line = line
            self.residue = residue
            self.part = part
            self.cut = cut
            company = PeopleExtractor.trimDebris(text, strayLetters: true)
        }
    }

    /// What the other fields say about the people lines: the e-mails' local parts, the
    /// registrable labels of the card's domains, and the tallest text.
    struct Evidence {
        let locals: [String]
        let domainLabels: [String]
        let maxHeight: Double
        let hasAddresses: Bool
    }

    static func extract(from lines: [CardLine], skip: Set<Int>, emails: [String], domains: [String]) -> Result {
        let (card, probabilities) = score(lines: lines, skip: skip, emails: emails, domains: domains)
        let candidates = card.candidates
        var result = Result()
        var picks = assignRoles(probabilities, candidates: candidates)
        // The name moved to the first person of its line: the line it left is free for the other
        // roles again ("Ana Prado NOVAK V.O.S." read as one line, its halves a name and a company).
        if let k = picks[.name], let first = firstPerson(before: k, probabilities, candidates: candidates, picks: picks) {
            picks = assignRoles(probabilities, candidates: candidates, fixed: [.name: first])
        }
        if picks[.name] == nil, let k = likeliestName(probabilities, candidates: candidates, picks: picks) { picks[.name] = k }
        for (role, k) in picks { result.probability[role] = probabilities[k][role.rawValue] }
        if let k = picks[.organization] {
            result.organization = candidates[k].company
            result.organizationLine = candidates[k].line.index
            result.organizationAgreesWithDomain = agreesWithDomain(candidates[k].company, labels: card.evidence.domainLabels)
        }
        if let k = picks[.name] {
            result.name = split(name: NameMending.mend(candidates[k].text))
            result.nameLine = candidates[k].line.index
            result.nameAgreesWithEmail = agreesWithEmail(candidates[k].text, locals: card.evidence.locals)
        }
        if let k = picks[.title] {
            result.title = withTitleAccents(candidates[k].text)
            result.titleLine = candidates[k].line.index
        }
        return result
    }

    /// Two people printed on one line, set apart (" / ", " | "), become two lines that the model
    /// weighs alike: the card's person is the first. The candidate before `k` from the same
    /// printed line that is likelier a name than anything else (`LineRoleModel.margin`) and has
    /// no other role; nil when there is none.
    static func firstPerson(before k: Int, _ probabilities: [[Double]], candidates: [Candidate], picks: [LineRole: Int]) -> Int? {
        let line = candidates[k].line
        return candidates.indices.first { j in
            let c = candidates[j], p = probabilities[j]
            return c.line.source == line.source && c.line.index < line.index && c.part == 0 && !picks.values.contains(j)
                && p[LineRole.name.rawValue] > p[LineRole.other.rawValue] * LineRoleModel.margin
                && LineRole.allCases.allSatisfy { $0 == .name || p[$0.rawValue] < p[LineRole.name.rawValue] }
        }
    }

    /// The least odds of a name over "other" (`LineRoleModel`) at which a line shaped like a name
    /// is the card's name when no line is likelier a name than not. Tuned on the train split of
    /// generated card texts (0.2, 0.3, 0.5: names 0.763, 0.766, 0.765 against 0.760 without).
    static let lastResortNameOdds = 0.3

    /// A card the model finds no name on (none likelier a name than not) may still print one: the
    /// candidate that no role taken `excludes`, shaped like a name (`nameShapeScore`, or a
    /// given name of the lists alone), likelier a name than a title or a company, and likeliest a
    /// name at odds of `lastResortNameOdds` or more; nil when there is none. A shop's tagline or
    /// trade ("RESTAURANTE") is no such line.
    static func likeliestName(_ probabilities: [[Double]], candidates: [Candidate], picks: [LineRole: Int]) -> Int? {
        func odds(_ j: Int) -> Double { probabilities[j][LineRole.name.rawValue] / probabilities[j][LineRole.other.rawValue] }
        func shaped(_ text: String) -> Bool {
            nameShapeScore(text) != nil || (!text.contains(" ") && text.first?.isUppercase == true && PersonNames.isGiven(text))
        }
        return candidates.indices.filter { j in
            let p = probabilities[j]
            return !picks.values.contains(where: { excludes($0, j, in: candidates) }) && odds(j) >= lastResortNameOdds && shaped(candidates[j].text)
                && p[LineRole.title.rawValue] < p[LineRole.name.rawValue] && p[LineRole.organization.rawValue] < p[LineRole.name.rawValue]
        }.max { odds($0) < odds($1) }
    }

    /// Whether candidates `a` and `b` cannot both take a role: one candidate, or a line and its
    /// halves, or halves of two cuts of a line; the two halves of one cut can.
    static func excludes(_ a: Int, _ b: Int, in candidates: [Candidate]) -> Bool {
        let x = candidates[a], y = candidates[b]
        return a == b || (x.line.index == y.line.index && (x.part == 0 || y.part == 0 || x.cut != y.cut))
    }

    /// The candidates of a card with the model's probabilities of each role for each.
    static func score(lines: [CardLine], skip: Set<Int>, emails: [String], domains: [String])
        -> (card: LineFeatures.Card, probabilities: [[Double]]) {
        var domainLabels: [String] = []
        for label in domains.compactMap({ Domains.registrableLabel(of: $0) }) where !domainLabels.contains(label) { domainLabels.append(label) }
        let candidates = self.candidates(from: lines, skip: skip, domainLabels: domainLabels)
        let evidence = Evidence(locals: emails.compactMap { EmailAddress($0)?.local.lowercased() }, domainLabels: domainLabels,
                                maxHeight: candidates.compactMap(\.line.height).max() ?? 0,
                                hasAddresses: !emails.isEmpty || !domains.isEmpty)
        let card = LineFeatures.Card(lines: lines, consumed: skip, candidates: candidates, evidence: evidence)
        let model = LineRoleModel.shared
        let probabilities = candidates.indices.map { model.probabilities(LineFeatures.features(of: $0, in: card)) }
        return (card, probabilities)
    }

    /// Each role to at most one candidate and each candidate to at most one role: the most likely
    /// reading of the card when every line not given a role is "other". A line takes a role when
    /// the role is likelier for it than "other" is, most likely first; the roles `fixed` gives are
    /// taken first.
    static func assignRoles(_ probabilities: [[Double]], candidates: [Candidate], fixed: [LineRole: Int] = [:]) -> [LineRole: Int] {
        var picks = fixed
        var taken = Array(fixed.values)
        var options: [(p: Double, role: LineRole, k: Int)] = []
        for (k, p) in probabilities.enumerated() {
            for role in [LineRole.name, .title, .organization] where p[role.rawValue] > p[LineRole.other.rawValue] * LineRoleModel.margin {
                options.append((log(p[role.rawValue] / p[LineRole.other.rawValue]), role, k))
            }
        }
        for option in options.sorted(by: { $0.p > $1.p })
        where picks[option.role] == nil && !taken.contains(where: { excludes($0, option.k, in: candidates) }) {
            picks[option.role] = option.k
            taken.append(option.k)
        }
        return picks
    }

    /// The readable lines no other field took, cleaned; a name and a company on one OCR line
    /// ("Teo Hui Min Koh & Low Systems Pte Ltd") give their halves as candidates too.
    static func candidates(from lines: [CardLine], skip: Set<Int>, domainLabels: [String] = []) -> [Candidate] {
        var candidates: [Candidate] = []
        for line in lines where !skip.contains(line.index) && isReadable(line) {
            let debrisFree = line.withoutDebris.map { withDomainWords(line.text, kept: $0, domainLabels: domainLabels) }
            let (kept, removed) = withoutContactData(debrisFree ?? line.text)
            let text = mendingLegalForm(trimDebris(kept, strayLetters: false))
            guard text.filter(\.isLetter).count >= 2 else { continue }
            candidates.append(Candidate(text: text, line: line, residue: removed))
            // Also its halves, when it reads as a name and a company: the model weighs both readings.
            let splits = splitsOfNameAndCompany(text)
            for (n, first, second) in splits {
                candidates.append(Candidate(text: first, line: line, residue: removed, part: 1, cut: n))
                candidates.append(Candidate(text: second, line: line, residue: removed, part: 2, cut: n))
            }
            if splits.isEmpty, let (first, _) = splitPeople(text) {
                // Or as two people ("Ana Prado / Rui Costa"): the card's person is the first.
                candidates.append(Candidate(text: first, line: line, residue: removed, part: 1))
            }
        }
        return candidates
    }

    /// `kept` (a line's text with the debris at its ends dropped) with the dropped words next to it
    /// that spell, in four letters or more, part of the card's e-mail or web domain given back: the
    /// company's name beside its logo ("© LAURSEN & DAHL" on a card of laursen.dk, the logo and the
    /// word read with no confidence). A word with other signs than a word's ("Watk)") stays out.
    static func withDomainWords(_ text: String, kept: String, domainLabels: [String]) -> String {
        guard !domainLabels.isEmpty else { return kept }
        let words = text.split(separator: " ").map(String.init), inner = kept.split(separator: " ").map(String.init)
        guard !inner.isEmpty, inner.count < words.count,
              let a = (0...(words.count - inner.count)).first(where: { Array(words[$0..<($0 + inner.count)]) == inner }) else { return kept }
        func isDomainWord(_ w: String) -> Bool {
            guard w.allSatisfy({ $0.isLetter || ",.'-&".contains($0) }) else { return false }
            let letters = lettersOnly(w)
            return letters.count >= 4 && domainLabels.contains { $0.contains(letters) }
        }
        var lo = a, hi = a + inner.count
        while lo > 0, isDomainWord(words[lo - 1]) { lo -= 1 }
        while hi < words.count, isDomainWord(words[hi]) { hi += 1 }
        var kept = Array(words[lo..<hi])
        if lo > 0, let first = kept.first, let spelled = misreadDomainWord(words[lo - 1], before: kept, domainLabels: domainLabels) {
            kept.insert(CrossChecks.respell(spelled.word, as: spelled.label, like: first), at: 0)
        }
        return kept.joined(separator: " ")
    }

    /// The domain label a dropped word before a company's name stands for, misread: OCR read the
    /// first word of a name beside its logo with the logo's marks ("@pDIXON," on a card of
    /// dixon.ca) or a letter or two wrong ("pie," for Pike on pike.co.nz, "yxon," for Dixon). The
    /// word, three letters or more, holds the label (four letters or more) or is within one edit of
    /// it (two for a label of five letters or more), and the name kept does not spell the label
    /// already; nil otherwise. `word` is the dropped word's letters with the comma after it, if any.
    static func misreadDomainWord(_ dropped: String, before kept: [String], domainLabels: [String]) -> (word: String, label: String)? {
        let letters = lettersOnly(dropped).filter(\.isLetter)
        guard letters.count >= 3 else { return nil }
        let spelled = lettersOnly(kept.joined())
        for label in domainLabels where label.count >= 4 && label.allSatisfy(\.isLetter) && !spelled.contains(label) {
            let slips = label.count >= 5 ? 2 : 1
            if letters.contains(label) || CrossChecks.editDistance(letters, label) <= slips {
                let trailing = String(dropped.reversed().prefix { $0 == "," }.reversed())
                return (String(dropped.filter(\.isLetter)) + trailing, label)
            }
        }
        return nil
    }

    /// The words of a line that are not contact data: numbers (three digits or more), e-mail and
    /// web addresses, and the labels and pictogram debris before them ("JON 248-343-5976" ->
    /// "JON"). `removed` is true when anything was taken out.
    static func withoutContactData(_ text: String) -> (kept: String, removed: Bool) {
        let tokens = text.split(separator: " ").map(String.init)
        func isData(_ t: String) -> Bool {
            let lower = t.lowercased()
            return t.filter(\.isNumber).count >= 3 || t.contains("@") || lower.hasPrefix("www") || lower.hasPrefix("http")
                || (lower.contains(".") && Domains.isValid(lower.trimmingCharacters(in: ParserCharacters.debris)) && lower.filter(\.isLetter).count >= 4
                    && lower.split(separator: ".").count >= 2 && !lower.hasSuffix("."))
        }
        // A number's short groups ("+82", "2", "29" of "+421 2 212 358 29") are part of it.
        func isDigitGroup(_ t: String) -> Bool {
            t.contains(where: \.isNumber) && t.allSatisfy { $0.isNumber || "+()-./·".contains($0) }
        }
        var data = tokens.map(isData)
        var grew = true
        while grew {
            grew = false
            for i in tokens.indices where !data[i] && isDigitGroup(tokens[i])
                && ((i > 0 && data[i - 1]) || (i + 1 < tokens.count && data[i + 1])) {
                data[i] = true
                grew = true
            }
        }
        var keep = [Bool](repeating: true, count: tokens.count)
        var removed = false
        for i in tokens.indices where data[i] {
            keep[i] = false
            removed = true
            // The label or debris before the value, back to the previous kept word of substance.
            var j = i - 1
            while j >= 0, keep[j], Labels.label(tokens[j]) != nil || Labels.isPictogramDebris(tokens[j]) {
                keep[j] = false
                j -= 1
            }
        }
        guard removed else { return (text, false) }
        let kept = tokens.indices.filter { keep[$0] }.map { tokens[$0] }
        // Separators left dangling between what was kept: "Valdeci" from "... / Valdeci".
        let joined = kept.filter { $0.contains(where: { $0.isLetter || $0.isNumber }) }.joined(separator: " ")
        return (joined.trimmingCharacters(in: ParserCharacters.debris), true)
    }

    // MARK: - Evidence

    /// A line OCR read as real text: enough confidence, and words rather than scattered glyphs.
    static func isReadable(_ line: CardLine) -> Bool {
        guard line.confidence >= 0.4 else { return false }
        let words = line.text.split(separator: " ")
        let letters = line.text.filter(\.isLetter).count
        guard letters >= 2 else { return false }
        let longest = words.map { $0.filter(\.isLetter).count }.max() ?? 0
        // Short words read clearly are real, and title words read fairly ("VD", "VP", "MD").
        if longest >= 3 { return true }
        return titleWordCount(line.text) == words.count ? line.confidence >= 0.5 : line.confidence >= 0.8 && words.count >= 2
    }

    /// Drops logo debris before the text: symbols, a bracket ("C) Bukit Robotics", "( ) Name")
    /// and, with `strayLetters`, a stray letter before a capitalised word ("A Roberts Inc",
    /// "a NORVIK LTD"); a person's name keeps its initials.
    static func trimDebris(_ text: String, strayLetters: Bool) -> String {
        var tokens = text.split(separator: " ").map(String.init)
        while tokens.count >= 2 {
            let t = tokens[0], next = tokens[1]
            let nextStartsUpper = next.first?.isUppercase == true
            let isSymbols = t.allSatisfy { !$0.isLetter && !$0.isNumber }
            let isBracketed = t.count <= 3 && t.contains(where: { "()[]{}".contains($0) })
            let isStrayLetter = strayLetters && t.count == 1 && t.first?.isLetter == true && nextStartsUpper && next.count >= 2
                && !(t == "A" && next.first?.isUppercase == true && next.dropFirst().allSatisfy(\.isLowercase) && tokens.count == 2)
            if isSymbols || isBracketed || isStrayLetter { tokens.removeFirst() } else { break }
        }
        return tokens.joined(separator: " ").trimmingCharacters(in: ParserCharacters.namePunctuation)
    }

    /// Every cut of a line into a name of two or three words and a company with a legal form
    /// ("CÄCILIA HEUSER SÜSSEBIER KG"; "Elin De Vos Nordhavn Transport VOF" after two words and
    /// after three): the model weighs the halves of each, and halves of two cuts exclude each
    /// other (`excludes`).
    static func splitsOfNameAndCompany(_ text: String) -> [(n: Int, first: String, second: String)] {
        let tokens = text.split(separator: " ").map(String.init)
        guard tokens.count >= 4, hasLegalForm(text) else { return [] }
        var out: [(n: Int, first: String, second: String)] = []
        for n in [2, 3] where tokens.count - n >= 2 {
            let first = tokens[..<n].joined(separator: " "), second = tokens[n...].joined(separator: " ")
            guard tokens[..<n].allSatisfy({ $0.filter(\.isLetter).count >= 2 }), tokens[n].first?.isUppercase == true,
                  nameShapeScore(first) != nil, hasLegalForm(second), !isTitle(first) else { continue }
            // The company part must be more than its legal form.
            let core = second.split(separator: " ").filter { !ParserData.isLegalForm(String($0)) }
            guard !core.isEmpty, !ParserData.isLegalForm(core.joined(separator: " ")) else { continue }
            out.append((n, first, second))
        }
        return out
    }

    /// Two people's names on one line, set apart by a slash or a joining word ("Ana Prado / Rui
    /// Costa", "Lena Berg & Tom Ek", "Eva e Rui"): each half is one to four capitalised words, not
    /// a letter alone, and holds no digit, and the line holds no legal form. Joined by a word, each
    /// half starts with a given name from the lists: surnames joined as a firm ("Baker & Tolan",
    /// "Shannon & Kent": a word alone that is a family name too) stay whole. A slash, glued to a
    /// word or not, sets apart no firm's names: one half starting with a given name is enough, and
    /// the other half may hold words in lower case ("Ana Prado /Ho soo Kim").
    static func splitPeople(_ text: String) -> (String, String)? {
        let tokens = text.replacingOccurrences(of: "/", with: " / ").split(separator: " ").map(String.init)
        let joins: Set<String> = ["/", "&", "+", "and", "und", "e", "y", "et", "og", "och", "en", "i"]
        let cuts = tokens.indices.filter { joins.contains(tokens[$0].lowercased()) }
        guard cuts.count == 1, let cut = cuts.first, !text.contains(where: \.isNumber), !hasLegalForm(text) else { return nil }
        let halves = [tokens[..<cut], tokens[(cut + 1)...]], slash = tokens[cut] == "/"
        func startsWithGivenName(_ half: ArraySlice<String>) -> Bool {
            guard let first = half.first.map({ ParserData.fold($0.lowercased()) }) else { return false }
            return PersonNames.given.contains(first) && (half.count > 1 || !PersonNames.family.contains(first))
        }
        for (k, half) in halves.enumerated() {
            let shaped = half.allSatisfy { $0.first?.isUppercase == true || nameParticles.contains($0) }
                || (slash && k == 1 && half.first?.first?.isUppercase == true)
            // A letter alone is no person: "Duarte S/A", "Lund A/S" are a firm and its legal form.
            let named = half.contains { $0.filter(\.isLetter).count >= 2 }
            guard (1...4).contains(half.count), shaped, named, slash || startsWithGivenName(half) else { return nil }
        }
        guard halves.contains(where: startsWithGivenName) else { return nil }
        return (halves[0].joined(separator: " "), halves[1].joined(separator: " "))
    }

    /// The distinctive label of a domain: "mail.acme.co.uk" -> "acme".
    static func domainLabel(_ host: String) -> String? { Domains.registrableLabel(of: host) }

    /// True when a word's letters are in title case: a capital, then lower case ("Brown", "Ølgod").
    static func isTitleCase(_ word: String) -> Bool {
        let letters = word.filter(\.isLetter)
        return letters.first?.isUppercase == true && letters.dropFirst().allSatisfy(\.isLowercase)
    }

    static func lettersOnly(_ s: String) -> String {
        String(fold(s).filter { $0.isLetter || $0.isNumber })
    }

    /// Lower-case, accents folded ("Dörr" -> "dorr"; German umlauts also as "oe" by callers).
    static func fold(_ s: String) -> String {
        s.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased()
    }

    /// True when the line's letters and a domain label agree: "Byrd PLC" and "byrdplc", "Koh & Low
    /// Systems" and "kohlow", "SÜSSEBIER KG" and "suessebier", "Tsubame Precision Japan Inc." and
    /// "tsubame-precision" (a label's hyphens part words, as the line's spaces do).
    static func agreesWithDomain(_ text: String, labels: [String]) -> Bool {
        let plain = lettersOnly(text), german = germanFold(text)
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "&" }).map { lettersOnly(String($0)) }.filter { !$0.isEmpty }
        let core = words.filter { !ParserData.isLegalForm($0) }.joined()
        for label in labels.map({ $0.replacingOccurrences(of: "-", with: "") }) where label.count >= 3 {
            for candidate in [plain, german, core] where !candidate.isEmpty {
                if candidate == label || (label.count >= 4 && candidate.hasPrefix(label)) || (candidate.count >= 4 && label.hasPrefix(candidate)) {
                    return true
                }
            }
            // The first word alone: "Misra, Memon and Narayanan" and "misra".
            if let first = words.first, first.count >= 4, first == label { return true }
        }
        return false
    }

    /// The text with a legal form OCR read with a zero for the letter o mended ("Sp. z 0.0." ->
    /// "Sp. z o.o.", "0y" -> "Oy"): a word of six characters at most with zeros and no other digit
    /// is read with o's when that makes it, alone or with up to three words beside it, a legal form
    /// the list knows that the same words were not before.
    static func mendingLegalForm(_ text: String) -> String {
        guard text.contains("0") else { return text }
        var words = text.split(separator: " ").map(String.init)
        func isForm(_ ws: ArraySlice<String>) -> Bool { ParserData.isLegalForm(ws.joined(separator: " ")) }
        for i in words.indices where words[i].contains("0") && words[i].count <= 6
            && words[i].filter(\.isNumber).allSatisfy({ $0 == "0" }) {
            let word = words[i]
            let upper = word.first == "0" && word.dropFirst().first?.isLetter == true
                || (word.contains(where: \.isLetter) && word.filter(\.isLetter).allSatisfy(\.isUppercase))
                || (!word.contains(where: \.isLetter) && i > 0 && words[i - 1].contains(where: \.isLetter)
                    && words[i - 1].filter(\.isLetter).allSatisfy(\.isUppercase))
            let mended = String(word.map { $0 == "0" ? (upper ? "O" : "o") : $0 })
            var trial = words
            trial[i] = mended
            let windows = (1...4).flatMap { n in (max(0, i - n + 1)...i).compactMap { start -> Range<Int>? in
                start + n <= words.count ? start..<(start + n) : nil } }
            if windows.contains(where: { isForm(trial[$0]) && !isForm(words[$0]) }) {
                words = trial
            }
        }
        return words.joined(separator: " ")
    }

    /// True when the text ends with a legal form ("GmbH", "S.r.l.", "Pty Ltd", "Sp. z o.o.").
    static func hasLegalForm(_ text: String) -> Bool {
        let words = text.lowercased().split(separator: " ").map { $0.trimmingCharacters(in: ParserCharacters.comma) }
        guard words.count >= 2 else { return false }
        for n in [4, 3, 2, 1] where words.count > n {
            if ParserData.isLegalForm(words.suffix(n).joined(separator: " ")) { return true }
        }
        return false
    }

    /// Firm names without a legal form: "Solis, Coleman and Duran", "Koh & Low", "Castro-Jimenez",
    /// "Stewart and Sons", "Castellitto e figli", "Lantern Systems", "Talleres Ruiz".
    static func looksLikeFirmName(_ text: String) -> Bool {
        let words = text.split(separator: " ").map { $0.trimmingCharacters(in: ParserCharacters.comma) }
        if words.count >= 2, words.allSatisfy({ $0.first?.isUppercase == true || $0 == "&" || $0.count <= 3 }),
           let last = words.last?.lowercased(), let first = words.first?.lowercased(),
           Lexicon.companyWords.contains(last) || Lexicon.companyWords.contains(first) {
            return true
        }
        let joiners: Set<String> = ["and", "&", "und", "y", "e", "et", "en", "och", "og", "ja", "i", "a"]
        if words.count >= 3, words.dropFirst().dropLast().contains(where: { joiners.contains($0.lowercased()) }),
           words.filter({ !joiners.contains($0.lowercased()) }).allSatisfy({ $0.first?.isUppercase == true || ["sons", "figli", "hijos", "söhne", "partners"].contains($0.lowercased()) }) {
            return true
        }
        // A single double-barrelled word: "Castro-Jimenez", "Jackson-Miles".
        if words.count == 1, let w = words.first, w.contains("-"), w.split(separator: "-").count == 2,
           w.split(separator: "-").allSatisfy({ $0.count >= 3 && $0.first?.isUppercase == true }) {
            return true
        }
        return false
    }

    static func titleWordCount(_ text: String) -> Int {
        let words = text.lowercased().split(whereSeparator: { !$0.isLetter && $0 != "-" }).map(String.init)
        return words.filter { Lexicon.titleWord($0) != nil }.count
    }

    /// The title's long words OCR read without their accents spelled with them (`Lexicon.titleWord`):
    /// "Projektipaallikko" -> "Projektipäällikkö", "GESCHAFTSFUHRER" -> "GESCHÄFTSFÜHRER"; the other
    /// words as read. A shorter word may be printed without accents in another language ("Tecnico"
    /// in Italian, "Socio" in Spanish).
    static func withTitleAccents(_ title: String) -> String {
        title.split(separator: " ", omittingEmptySubsequences: false).map { token -> String in
            let word = String(token)
            guard word.count >= 8, word.allSatisfy(\.isLetter), let spelled = Lexicon.titleWord(word),
                  spelled != word.lowercased(), spelled.count == word.count else { return word }
            return CrossChecks.respell(word, as: spelled)
        }.joined(separator: " ")
    }

    static func isTitle(_ text: String) -> Bool { titleWordCount(text) > 0 }

    /// Lower-case particles that belong inside names ("María de la Vega", "Siti Aminah binte Yusof").
    static let nameParticles: Set<String> = ["de", "la", "del", "della", "der", "den", "van", "von", "da", "di", "du", "le",
                                             "zu", "ten", "ter", "bin", "binti", "binte", "bte", "ibn", "al", "el", "dos",
                                             "das", "y", "e", "af", "av"]

    /// Degrees and post-nominal letters after a name's comma ("Mahon, L.L.B.", "Smith, PhD").
    static func isPostNominal(_ s: Substring) -> Bool {
        let t = s.trimmingCharacters(in: .whitespaces)
        guard !t.isEmpty, t.count <= 10 else { return false }
        let letters = t.filter(\.isLetter)
        return !letters.isEmpty && t.allSatisfy { $0.isLetter || $0 == "." } && letters.filter(\.isUppercase).count >= max(1, letters.count / 2)
    }

    /// How much a line looks like a person's name: 2-5 capitalised words of letters; nil when not at all.
    static func nameShapeScore(_ text: String) -> Double? {
        guard !text.contains(where: \.isNumber) else { return nil }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard let head = parts.first, parts.dropFirst().allSatisfy(isPostNominal) else { return nil }
        let words = head.split(separator: " ")
        let core = words.filter { !nameParticles.contains(String($0)) }
        guard (2...5).contains(core.count), words.count <= 7, !nameParticles.contains(String(words[0])) else { return nil }
        var score = 1.0
        for w in core {
            let word = w.trimmingCharacters(in: ParserCharacters.dot)
            guard let first = word.first, first.isUppercase else { return nil }
            guard word.allSatisfy({ $0.isLetter || $0 == "-" || $0 == "'" || $0 == "." || $0 == "’" }) else { return nil }
            if word.count > 1 && word.filter(\.isLetter).dropFirst().allSatisfy(\.isUppercase) && !word.contains(".") {
                score -= 0.2  // ALL CAPS: a little likelier a company
            }
        }
        if core.count >= 5 { score -= 0.5 }
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
            let plain = parts.map { fold($0) }
            if [plain.joined(), String(plain[0].prefix(1)) + (plain.last ?? "")].contains(local) { return true }
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
    /// for particles like "van der" which stay with it). Honorifics before the name ("Dr", "Prof.")
    /// and generational suffixes or degrees after it ("Jr.", "III", "MBA") belong to neither.
    static func split(name printed: String) -> PersonName {
        let full = printed
        var words = (printed.split(separator: ",").first.map(String.init) ?? printed).split(separator: " ").map(String.init)
        while words.count > 2, let last = words.last, isNameSuffix(last) { words.removeLast() }
        while words.count > 2, let first = words.first, isHonorific(first) { words.removeFirst() }
        guard words.count >= 2 else { return PersonName(full: full, given: words.first ?? full, family: nil) }
        var familyStart = words.count - 1
        while familyStart > 1, nameParticles.contains(words[familyStart - 1]) { familyStart -= 1 }
        let given = words[..<familyStart].first { !($0.count <= 4 && $0.hasSuffix(".")) } ?? words[0]
        return PersonName(full: full, given: given, family: words[familyStart...].joined(separator: " "))
    }

    /// A word printed before a name that is no part of it: a courtesy or academic title, or any
    /// short abbreviation ("Dra.", "Mgr.").
    static func isHonorific(_ word: String) -> Bool {
        let key = word.lowercased().trimmingCharacters(in: ParserCharacters.dot)
        return honorifics.contains(key) || (word.hasSuffix(".") && word.count <= 5 && word.first?.isUppercase == true)
    }

    /// A word printed after a name that is no part of it: a generational suffix or a degree
    /// written without a comma ("Jr.", "III", "MBA", "Ph.D.").
    static func isNameSuffix(_ word: String) -> Bool {
        nameSuffixes.contains(word.lowercased().filter(\.isLetter))
    }

    static let honorifics: Set<String> = ["mr", "mrs", "ms", "mx", "miss", "dr", "dra", "prof", "sir", "dame", "herr", "frau",
                                          "mgr", "ing", "lic", "eng", "dott", "avv", "arch", "ir", "sra", "srta", "dipl.-ing"]
    static let nameSuffixes: Set<String> = ["jr", "sr", "jnr", "snr", "ii", "iii", "iv", "phd", "mba", "md", "cpa", "cfa", "esq",
                                            "pe", "rn", "dds", "msc", "bsc", "llm", "llb", "fca", "aca", "pmp", "jd", "dphil"]
}

/// Confidence per field: OCR confidence of the line, raised when cross-checks agree.
enum Confidence {
    static func score(_ contact: Contact, lines: [CardLine], people: PeopleExtractor.Result, emailRepairs: Int,
                      domains: [String]) -> [Contact.Field: Double] {
        var out: [Contact.Field: Double] = [:]
        func ocr(_ index: Int?) -> Double { index.map { lines[$0].confidence } ?? 0.8 }
        func clamp(_ v: Double) -> Double { (max(0, min(1, v)) * 100).rounded() / 100 }
        // OCR's confidence in the line and the line-role model's in its role, raised when the
        // e-mail or the domain agrees.
        func judged(_ line: Int?, _ role: LineRole) -> Double { 0.5 * ocr(line) + 0.5 * (people.probability[role] ?? 0.5) }
        if contact.name != nil {
            out[.name] = clamp(judged(people.nameLine, .name) + (people.nameAgreesWithEmail ? 0.15 : 0))
        }
        if contact.title != nil { out[.title] = clamp(judged(people.titleLine, .title)) }
        if contact.organization != nil {
            out[.organization] = clamp(judged(people.organizationLine, .organization) + (people.organizationAgreesWithDomain ? 0.15 : 0))
        }
        if !contact.phones.isEmpty {
            out[.phones] = clamp(contact.phones.allSatisfy(\.valid) ? 0.9 : (contact.phones.contains(where: \.valid) ? 0.6 : 0.35))
        }
        if !contact.emails.isEmpty {
            let domainsAgree = contact.emails.allSatisfy { e in
                let d = EmailAddress(e)?.domain ?? ""
                return contact.urls.isEmpty || contact.urls.contains { URLExtractor.host(of: $0) == d }
            }
            out[.emails] = clamp((domainsAgree ? 0.95 : 0.8) - 0.15 * Double(emailRepairs))
        }
        if !contact.urls.isEmpty { out[.urls] = 0.85 }
        if let a = contact.address { out[.address] = clamp((a.street != nil ? 0.85 : 0.65)) }
        return out
    }
}
