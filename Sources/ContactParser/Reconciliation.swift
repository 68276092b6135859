import Foundation

/// Cross-checks e-mail domains, web addresses and the organisation: on a card they usually agree,
/// and where OCR misread one of them ("griffithsitd" for "griffithsltd", "byrdpic" for "byrdplc")
/// the reading that makes them agree is the likelier one.
enum Reconciliation {
    /// Collapses characters OCR confuses into one class each, so two readings that differ only
    /// by such confusions compare equal.
    static func skeleton(_ s: String) -> String {
        var t = s.lowercased()
        for (from, to) in [("rn", "m"), ("vv", "w"), ("cl", "d")] { t = t.replacingIfPresent(from, with: to) }
        return String(t.map { ch -> Character in
            switch ch {
            case "i", "1", "|", "!", "j": return "l"
            case "0": return "o"
            case "5": return "s"
            case "8": return "b"
            default: return ch
            }
        })
    }

    /// Spellings of an organisation's name a domain label may use: "Griffiths Ltd" ->
    /// "griffithsltd", "griffiths".
    static func organizationSpellings(_ organization: String) -> [String] {
        let all = organization.split(whereSeparator: { $0 == " " || $0 == "," }).map { PeopleExtractor.lettersOnly(String($0)) }
            .filter { !$0.isEmpty }
        guard !all.isEmpty else { return [] }
        // Domains leave out joining words and the legal form: "Cabezas y Figuerola S.L.L." -> "cabezasfiguerola".
        let joiners: Set<String> = ["and", "y", "e", "et", "und", "en", "och", "og", "i", "a", "the", "of", "de", "la"]
        let words = all.filter { !joiners.contains($0) }
        var out = [words.joined(), all.joined()]
        // Without the last word (often the legal form), and the first word alone.
        if words.count > 1 { out.append(words.dropLast().joined()); out.append(words[0]) }
        // The first two words alone: "Teo & Yeo Trading Pte. Ltd." -> "teoyeo".
        if words.count > 2 { out.append(words.prefix(2).joined()) }
        var unique: [String] = []
        for o in out where o.count >= 3 && !unique.contains(o) { unique.append(o) }
        return unique
    }

    /// Letters OCR reads in small print for others, as (read, printed): a thin "l" read as "i" or
    /// "t", a "c" read as "e". One way only: a domain printed small is misread so beside a
    /// company's name read right; where the name's letter is the one of the pair OCR reads for
    /// the other, the name may be the one misread ("Koveik" for "Kovčík" beside "kovcik").
    static let smallPrintSlips: Set<[Character]> = [["i", "l"], ["t", "l"], ["e", "c"]]

    /// The organisation's spelling of a domain `label` that OCR misread in the small print of an
    /// e-mail or web address, letter for letter ("paviicekhromadov" beside "Pavlíček Hromadová
    /// s.r.o.", "mendonple" beside "Mendon PLC"): the start of one of its spellings
    /// (`organizationSpellings`, in ASCII letters), as long as the label, that differs from it only
    /// by OCR's slips in small print (`smallPrintSlips`). A domain often keeps only the start of
    /// a long name. The e-mail and the web address, printed alike, are often misread alike: the
    /// organisation's larger print is the evidence, even against both. A lower-case "l" in a word
    /// otherwise in capitals is read as the capital "I" it likely is ("EI" read "El"). Labels of
    /// six letters or more. (Records of 900 generated photos, seeds 1796020101/20102 and
    /// 1796021101-21107: 12 addresses it would respell, all 12 to the truth.)
    static func organizationPrefix(of label: String, organization: String) -> String? {
        guard label.count >= 6, label.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        let capitalI = organization.split(separator: " ").map { word -> String in
            let others = word.filter { $0.isLetter && $0 != "l" }
            return !others.isEmpty && others.allSatisfy(\.isUppercase) ? word.replacingOccurrences(of: "l", with: "I") : String(word)
        }.joined(separator: " ")
        for spelling in organizationSpellings(capitalI) {
            let ascii = spelling.filter(\.isASCII)
            guard ascii.count >= label.count else { continue }
            let start = String(ascii.prefix(label.count))
            if start != label, zip(label, start).allSatisfy({ $0 == $1 || smallPrintSlips.contains([$0, $1]) }) { return start }
        }
        return nil
    }

    /// Returns the e-mails and web addresses with domain labels repaired where they are an OCR
    /// slip away from each other or from the organisation's name. `repairs` counts the changes.
    static func reconcile(emails: [String], urls: [String], organization: String?) -> (emails: [String], urls: [String], repairs: Int) {
        let organizationReferences: [String] = organization.map(organizationSpellings) ?? []
        var references = organizationReferences
        // Labels the e-mails and web addresses agree on, when the organisation gives none.
        let labels = emails.compactMap { EmailAddress($0).flatMap { PeopleExtractor.domainLabel($0.domain) } }
            + urls.compactMap { PeopleExtractor.domainLabel(URLExtractor.host(of: $0)) }
        for label in labels where labels.filter({ $0 == label }).count >= 2 && !references.contains(label) {
            references.append(label)
        }
        var repairs = 0
        // A label that is no reference itself: the same letters as one but for OCR's confusions;
        // or, from the company's own name, one slip.
        func slipOfReference(_ label: String) -> String? {
            guard !references.contains(label) else { return nil }
            return references.first(where: { $0 != label && skeleton($0) == skeleton(label) })
                ?? organizationReferences.first(where: { ref in
                    // A hyphen is no slip: "open-lantern" spells "Open Lantern".
                    let plain = label.replacingOccurrences(of: "-", with: "")
                    // A letter more or less at the end is how domains shorten or extend a name
                    // ("correiad" beside "Correia de Minas"), not a slip.
                    return ref != plain && ref.count >= 6 && ref.first == label.first && !ref.hasPrefix(plain) && !plain.hasPrefix(ref)
                        && CrossChecks.editDistance(ref, plain) == 1
                })
        }
        func fix(_ host: String) -> String {
            // The company's spelling of a label misread in small print comes first, even against
            // two addresses that read it alike.
            guard let label = PeopleExtractor.domainLabel(host),
                  let better = organization.flatMap({ organizationPrefix(of: label, organization: $0) }) ?? slipOfReference(label)
            else { return host }
            repairs += 1
            // Replace the label inside the host (the last occurrence: it is the registrable part).
            guard let range = host.range(of: label, options: .backwards) else { return host }
            return host.replacingCharacters(in: range, with: better)
        }
        let newEmails = emails.map { email -> String in
            guard let address = EmailAddress(email) else { return email }
            return EmailAddress(local: address.local, domain: fix(address.domain)).text
        }
        let newURLs = urls.map { url -> String in
            let host = URLExtractor.host(of: url)
            let fixed = fix(host)
            return fixed == host ? url : url.replacingOccurrences(of: host, with: fixed)
        }
        return (newEmails, newURLs, repairs)
    }

    /// The evidence of a region that does not come from the card's domains (nor from the caller
    /// or the script): its numbers, postcode, country name, legal form.
    static let domainFreeEvidence: Set<String> = ["country-name", "phone-prefix", "phone-number", "postcode", "legal-form"]

    /// E-mail and web addresses whose country domain is an OCR slip of the country domain of the
    /// region the card's numbers, postcode, country name or legal form place it in (".ni" read
    /// for ".nl" on a card whose numbers are Dutch); nil when none is.
    static func countryDomains(emails: [String], urls: [String], region: RegionGuess?) -> (emails: [String], urls: [String])? {
        guard let region, region.sources.contains(where: domainFreeEvidence.contains) else { return nil }
        let own = region.code == "GB" ? "uk" : region.code.lowercased()
        var changed = false
        func fix(_ host: String) -> String {
            guard let dot = host.lastIndex(of: ".") else { return host }
            let tld = host[host.index(after: dot)...].lowercased()
            guard tld.count == 2, tld != own, skeleton(tld) == skeleton(own) else { return host }
            changed = true
            return host[...dot] + own
        }
        let newEmails = emails.map { email -> String in
            guard let address = EmailAddress(email) else { return email }
            let fixed = fix(address.domain)
            return fixed == address.domain ? email : EmailAddress(local: address.local, domain: fixed).text
        }
        let newURLs = urls.map { url -> String in
            let host = URLExtractor.host(of: url)
            let fixed = fix(host)
            guard fixed != host, let range = url.range(of: host, options: [.caseInsensitive, .backwards]) else { return url }
            return url.replacingCharacters(in: range, with: fixed)
        }
        return changed ? (newEmails, newURLs) : nil
    }
}
