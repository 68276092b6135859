import Foundation

/// Repairs between fields that say the same thing twice: a card prints the person's name in the
/// e-mail's local part and the company's name in the domain, and OCR rarely misreads both the
/// same way. A word of the name or the company one letter away from its spelling in the e-mail
/// or the domain, when that spelling is read the same in two places or is long enough to be
/// sure of, takes that spelling; letters glued before a company name that the domain lacks are
/// logo debris; a legal form one OCR slip away from a real one is that one.
enum CrossChecks {
    /// Words of `name` corrected toward the e-mail local parts ("Priscilla Colina" and
    /// "pcollina@" -> "Priscilla Collina"), unless the name lists know the word as read and not
    /// the e-mail's spelling ("Richardson" stays beside a misread "richardsom@").
    static func repairName(_ name: PersonName, emails: [String]) -> PersonName {
        let locals = emails.compactMap { EmailAddress($0)?.local.lowercased() }
        guard !locals.isEmpty else { return name }
        var words = name.full.split(separator: " ").map(String.init)
        guard words.count >= 2, let initial = PeopleExtractor.fold(words[0]).first else { return name }
        // The spellings the local parts give: "jane.doe" -> jane, doe; "pcollina" -> collina (after
        // the given name's initial); "cwright" -> wright.
        var spellings = Set<String>()
        for local in locals {
            let parts = local.split(whereSeparator: { !$0.isLetter }).map(String.init)
            spellings.formUnion(parts.filter { $0.count >= 5 })
            if parts.count == 1, let only = parts.first, only.first == initial, only.count > 5 { spellings.insert(String(only.dropFirst())) }
        }
        var changed = false
        // Letters English cannot write (ö, é) are spelled out in addresses ("oe", "e"): leave such words.
        for (i, word) in words.enumerated() where word.filter(\.isLetter).count >= 5 && word.allSatisfy(\.isASCII) {
            let plain = PeopleExtractor.fold(word).filter(\.isLetter)
            guard !spellings.contains(plain) else { continue }
            // Only a slip OCR makes inside the word: the same first letter, one letter added, dropped or changed.
            // The slip may be the e-mail's: a word the name lists know stays against a spelling they do not.
            let fixes = spellings.filter { $0.first == plain.first && editDistance($0, plain) == 1 }
            if fixes.count == 1, let fix = fixes.first, !(PersonNames.isListed(plain) && !PersonNames.isListed(fix)) {
                words[i] = respell(word, as: fix)
                changed = true
            }
        }
        guard changed else { return name }
        return PeopleExtractor.split(name: words.joined(separator: " "))
    }

    /// E-mail addresses whose local part spells a word of the person's name with one letter
    /// changed ("niisson" beside "Greta Nilsson", "dvorakove" beside "Maria Dvořáková"), with
    /// the name's letters, when the name lists know the name's word and not the address's
    /// spelling (the other way round from `repairName`: the address, printed smaller, is the
    /// likelier misread; generated photos of seeds 1796021101-1796021105: of the 9 such pairs
    /// left after `repairName`, the name was right in all 9). Only a part of the local part
    /// between its dots, underscores and hyphens, of five letters or more, the same length as the
    /// name's word, and only when one word of the name is that close.
    static func emailsRespelledByName(_ emails: [String], name: PersonName?) -> [String] {
        guard let name else { return emails }
        let words = name.full.split(whereSeparator: { $0 == " " || $0 == "-" })
            .map { PeopleExtractor.fold(String($0)).filter { $0.isASCII && $0.isLetter } }.filter { $0.count >= 5 }
        guard !words.isEmpty else { return emails }
        var out: [String] = []
        for email in emails {
            guard let address = EmailAddress(email) else { out.append(email); continue }
            var local = ""
            var part = ""
            func flush() {
                let close = words.filter { $0.count == part.count && $0 != part && editDistance($0, part) == 1 && PersonNames.isListed($0) }
                local += close.count == 1 && !words.contains(part) && !PersonNames.isListed(part) ? close[0] : part
                part = ""
            }
            for c in address.local.lowercased() {
                if c.isASCII && c.isLetter { part.append(c) } else { flush(); local.append(c) }
            }
            flush()
            let respelled = EmailAddress(local: local, domain: address.domain).text
            if !out.contains(respelled) { out.append(respelled) }
        }
        return out
    }

    /// E-mail addresses whose local part OCR cut at an underscore it did not see, the word before
    /// it left on the line ("thomas smith@acme.com" read for thomas_smith@): the two words, one
    /// each of the person's name (`name`, each within one slip of its spelling there), joined by
    /// the underscore. An underscore is thin and sits below the line: it is the sign of a local
    /// part OCR loses (a dot or a hyphen it reads). The word before must stand alone in lower
    /// case, no label, and the local part must be no more than the name's word: "Email smith@",
    /// "Jane Smith smith@" and "thomas jsmith@" keep their addresses.
    static func emailsJoinedAtLostUnderscore(_ emails: [String], name: PersonName?, lines: [CardLine]) -> [String] {
        guard let name else { return emails }
        let words = name.full.split(separator: " ").map { PeopleExtractor.fold(String($0)).lowercased().filter(\.isLetter) }
            .filter { $0.count >= 2 }
        guard words.count >= 2 else { return emails }
        // A word of the name within one slip (OCR's, or the address's: "ystein" for Øystein); the
        // local part one letter changed at most, not one added ("mhavel" is an initial and a name).
        func nameWord(_ s: String, sameLength: Bool = false) -> Int? {
            words.firstIndex { $0 == s || (s.count >= 4 && (!sameLength || $0.count == s.count) && editDistance($0, s) == 1) }
        }
        return emails.map { email in
            guard let address = EmailAddress(email), address.local.allSatisfy({ $0.isLetter }),
                  let local = nameWord(address.local.lowercased(), sameLength: true) else { return email }
            let key = (address.local + "@").lowercased()
            for line in lines {
                let tokens = line.text.split(separator: " ").map(String.init)
                guard let at = tokens.firstIndex(where: { $0.lowercased().hasPrefix(key) }), at >= 1 else { continue }
                let before = tokens[at - 1]
                guard before.count >= 2, before.allSatisfy({ $0.isLetter && $0.isLowercase }), Labels.label(before) == nil,
                      let first = nameWord(PeopleExtractor.fold(before)), first != local else { continue }
                return before + "_" + email
            }
            return email
        }
    }

    /// The company name corrected toward the domain: logo letters glued before it dropped
    /// ("SCASTRO-JIMENEZ" and "castrojimenez.com" -> "CASTRO-JIMENEZ"), a word one slip away
    /// respelled when two addresses agree on the domain ("Gualtiert SPA" -> "Gualtieri SPA").
    static func repairOrganization(_ organization: String, domains: [String]) -> String {
        let labels = domains.compactMap { Domains.registrableLabel(of: $0) }
        guard let label = labels.first, label.count >= 4 else { return repairLegalForm(organization) }
        let agreed = labels.filter { $0 == label }.count >= 2
        var words = organization.split(separator: " ").map(String.init)
        guard !words.isEmpty else { return organization }
        // Glued debris: the first word's letters end with the domain's first letters after one or two extra.
        // A word in title case ("Brown", "Ølgod") is whole: glued letters break its case ("iBROWN",
        // "lBrown"); its domain lost a letter instead ("rown", or "lgod" with no letter for Ø).
        let first = PeopleExtractor.lettersOnly(words[0])
        let titleCase = PeopleExtractor.isTitleCase(words[0])
        for extra in 1...2 where first.count > extra + 3 && !titleCase {
            let rest = String(first.dropFirst(extra))
            if label.hasPrefix(rest) || rest.hasPrefix(label), !label.hasPrefix(first) {
                words[0] = String(words[0].dropFirst(extra))
                break
            }
        }
        // Debris read as words of its own before the name ("a | Lindqvist-Moen AS", "47 Brauneck
        // GmbH" of brauneck.de): dropped when the first word of three letters or more after them
        // starts the domain.
        if let k = words.firstIndex(where: { PeopleExtractor.lettersOnly($0).count >= 3 }), k > 0,
           label.hasPrefix(PeopleExtractor.lettersOnly(words[k]).prefix(5)),
           words[..<k].allSatisfy({ isDebris($0, label: label) }) {
            words.removeFirst(k)
        }
        // Lost letters: a first word that starts in lower case where a name starts with a capital
        // is the end of a word whose start OCR lost to the logo beside it ("ital GmbH" on a card
        // of schwital.de, "cher Schinke" of fischer.de): the domain's letters before it give it back.
        if let initial = words[0].first(where: \.isLetter), initial.isLowercase, words.count >= 2, first.count >= 3,
           words[1].first(where: \.isLetter)?.isUppercase == true,
           let start = (1...4).first(where: { label.count >= $0 + first.count && label.dropFirst($0).hasPrefix(first) }) {
            let whole = String(label.prefix(start + first.count))
            words[0] = respell(words[0], as: whole, like: words[1])
        }
        if agreed {
            for (i, word) in words.enumerated() where word.filter(\.isLetter).count >= 6 && word.allSatisfy(\.isASCII) {
                let plain = PeopleExtractor.lettersOnly(word)
                if let umlauted = umlautSpelling(plain, domain: label) {
                    words[i] = respell(word, as: umlauted)
                } else if plain != label, plain.first == label.first, editDistance(label, plain) == 1 {
                    words[i] = respell(word, as: label)
                }
            }
        }
        return repairLegalForm(words.joined(separator: " "))
    }

    /// Whether `word`, before a company's name, is debris (a logo or an icon read as a word): it
    /// has no letter, or at most two, in lower case or beside a mark ("|", "47", "a", "W)"), is no
    /// particle of a name ("de"), no legal form, and does not start the domain's `label`. A
    /// capital alone ("J Smith") may be an initial: never debris.
    static func isDebris(_ word: String, label: String) -> Bool {
        let letters = word.filter(\.isLetter)
        let marked = word.contains { !($0.isLetter || $0.isNumber || ".-&'".contains($0)) }
        guard letters.count <= 2, letters.isEmpty || letters.allSatisfy(\.isLowercase) || marked,
              !PeopleExtractor.nameParticles.contains(word), !ParserData.isLegalForm(word) else { return false }
        let own = PeopleExtractor.lettersOnly(word)
        return own.isEmpty || !label.hasPrefix(own)
    }

    /// A domain writes an umlaut as its vowel and "e" ("suessebier" for Süssebier); a word read
    /// with the bare vowel where the domain has that pair lost the umlaut's dots to OCR (a lost
    /// "e" is rarer). The word's letters with the umlaut; nil when the two differ otherwise.
    static func umlautSpelling(_ plain: String, domain label: String) -> String? {
        let word = Array(plain), domain = Array(label)
        guard domain.count == word.count + 1 else { return nil }
        let umlauts: [Character: Character] = ["a": "ä", "o": "ö", "u": "ü"]
        for i in 0..<word.count where word[i] == domain[i] && domain[i + 1] == "e" {
            guard let umlaut = umlauts[word[i]], Array(word[(i + 1)...]) == Array(domain[(i + 2)...]),
                  Array(word[..<i]) == Array(domain[..<i]) else { continue }
            var letters = word
            letters[i] = umlaut
            return String(letters)
        }
        return nil
    }

    /// The last word corrected to a legal form one OCR slip away ("LLG" -> "LLC", "GrnbH" -> "GmbH").
    static func repairLegalForm(_ organization: String) -> String {
        var words = organization.split(separator: " ").map(String.init)
        guard words.count >= 2, let last = words.last, (2...6).contains(last.count), !ParserData.isLegalForm(last) else { return organization }
        let confusions: [(String, String)] = [("G", "C"), ("C", "G"), ("0", "O"), ("O", "0"), ("1", "I"), ("l", "I"), ("I", "l"),
                                              ("rn", "m"), ("m", "rn"), ("8", "B"), ("5", "S"), ("6", "G")]
        for (from, to) in confusions where last.contains(from) {
            var r = last.startIndex
            while let found = last.range(of: from, range: r..<last.endIndex) {
                let candidate = last.replacingCharacters(in: found, with: to)
                if ParserData.isLegalForm(candidate) {
                    words[words.count - 1] = candidate
                    return words.joined(separator: " ")
                }
                r = found.upperBound
            }
        }
        if let whole = cutLegalForm(last, after: words[words.count - 2]) {
            words[words.count - 1] = whole
            return words.joined(separator: " ")
        }
        return organization
    }

    /// A legal form whose last letter the card's edge or OCR cut off ("Fischer Schinke Gmb", "Kato
    /// Robotics Co., Lt"): the one letter that makes `last` a legal form of the list, when only one
    /// does and the form is sure: three letters read at least, or after a legal form ("Co., Ltd") or
    /// completing a form of two words with the word before. Nil otherwise. The letter takes the
    /// case of the letter before it.
    static func cutLegalForm(_ last: String, after previous: String) -> String? {
        guard let end = last.last, end.isLetter, last.allSatisfy({ $0.isLetter }) else { return nil }
        let completions = "abcdefghijklmnopqrstuvwxyz".map { String($0) }.filter { ParserData.isLegalForm(last + $0) }
        guard completions.count == 1, let letter = completions.first else { return nil }
        let read = last.count >= 3 || ParserData.isLegalForm(previous) || ParserData.isLegalForm(previous + " " + last + letter)
        guard read else { return nil }
        return last + (end.isUppercase ? letter.uppercased() : letter)
    }

    /// `word` written with `letters` (lower case), keeping its case style and its punctuation
    /// around: "COLINA" -> "COLLINA", "Colina" -> "Collina". With `model`, in that word's case
    /// style instead, the punctuation still `word`'s (a word misread in its case: "yxon," before
    /// "Lowe" is "Dixon,").
    static func respell(_ word: String, as letters: String, like model: String? = nil) -> String {
        let core = (model ?? word).filter(\.isLetter)
        let upper = core.count > 1 && core.allSatisfy(\.isUppercase)
        let capital = core.first?.isUppercase == true
        var out = upper ? letters.uppercased() : letters
        if capital && !upper { out = out.prefix(1).uppercased() + out.dropFirst() }
        let leading = word.prefix { !$0.isLetter }, trailing = String(word.reversed().prefix { !$0.isLetter }.reversed())
        return leading + out + trailing
    }

    static func editDistance(_ a: String, _ b: String) -> Int { TextDistance.edits(a, b) }
}

/// How far apart two spellings are.
public enum TextDistance {
    /// Levenshtein distance in characters (insertions, deletions, substitutions).
    public static func edits(_ a: String, _ b: String) -> Int {
        let x = Array(a), y = Array(b)
        guard !x.isEmpty else { return y.count }
        guard !y.isEmpty else { return x.count }
        var row = Array(0...y.count)
        for i in 1...x.count {
            var previous = row[0]
            row[0] = i
            for j in 1...y.count {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (x[i - 1] == y[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return row[y.count]
    }
}
