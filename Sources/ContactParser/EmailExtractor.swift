import Foundation

/// Finds e-mail addresses, repairing what OCR typically breaks in them.
enum EmailExtractor {
    struct Result {
        var emails: [String] = []
        var consumedLines: Set<Int> = []
        /// How many emails needed a repair (lower confidence).
        var repaired: Int = 0
    }

    static let localChars = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._%+-'")
    static let domainChars = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-")

    static func extract(from lines: [CardLine]) -> Result {
        var result = Result()
        for line in lines {
            var text = line.text
            let original = text
            // "(at)", " at ", "[at]" spellings and spaces around @ and dots.
            for at in ["(at)", "[at]", "{at}", " (at) ", " [at] "] { text = text.replacingOccurrences(of: at, with: "@") }
            text = text.replacingOccurrences(of: " @ ", with: "@").replacingOccurrences(of: "@ ", with: "@")
                .replacingOccurrences(of: " @", with: "@")
            guard text.contains("@") else { continue }
            let chars = Array(text)
            var found = false
            for (i, ch) in chars.enumerated() where ch == "@" {
                // Local part: walk left over local characters.
                var s = i
                while s > 0, let u = chars[s - 1].unicodeScalars.first, chars[s - 1].unicodeScalars.count == 1,
                      localChars.contains(u) { s -= 1 }
                // Domain: walk right; allow ", " or " . " or " " before a TLD (OCR splits).
                var e = i + 1
                var domain = ""
                while e < chars.count {
                    let c = chars[e]
                    if let u = c.unicodeScalars.first, c.unicodeScalars.count == 1, domainChars.contains(u) {
                        domain.append(c); e += 1; continue
                    }
                    // A comma or space followed by a short alphabetic TLD-like tail continues the domain.
                    if (c == "," || c == " "), !domain.isEmpty {
                        var k = e
                        while k < chars.count, chars[k] == " " || chars[k] == "," || chars[k] == "." { k += 1 }
                        var tail = ""
                        var m = k
                        while m < chars.count, chars[m].isLetter, chars[m].isASCII { tail.append(chars[m]); m += 1 }
                        let tailIsEnd = m == chars.count || chars[m] == " " || chars[m] == "." || chars[m] == ","
                        if (2...4).contains(tail.count), tailIsEnd, tail == tail.lowercased(),
                           ["com", "org", "net", "uk", "de", "ca", "au", "co", "io", "fr", "nl", "ch", "ie", "at", "edu", "gov", "info", "biz", "us", "nz", "be"].contains(tail) {
                            if !domain.hasSuffix(".") { domain.append(".") }
                            domain.append(tail)
                            e = m
                            continue
                        }
                    }
                    break
                }
                var local = String(chars[s..<i])
                local = local.trimmingCharacters(in: CharacterSet(charactersIn: ".-'"))
                // Drop a label glued to the address ("E:jane@", "Email-jane@").
                if let colon = local.lastIndex(of: ":") { local = String(local[local.index(after: colon)...]) }
                domain = domain.trimmingCharacters(in: CharacterSet(charactersIn: ".-"))
                domain = repairDomain(domain)
                guard !local.isEmpty, domain.contains("."), let tld = domain.split(separator: ".").last,
                      tld.count >= 2, tld.allSatisfy(\.isLetter) else { continue }
                let email = (local + "@" + domain).lowercased()
                if !result.emails.contains(email) {
                    result.emails.append(email)
                    if text != original || email != String(chars[s..<e]).lowercased() { result.repaired += 1 }
                }
                found = true
            }
            if found, Residue.isLabelOnly(line.text, removing: { $0.contains("@") }) {
                result.consumedLines.insert(line.index)
            }
        }
        return result
    }

    /// Fixes common OCR slips in a domain: "co uk" -> "co.uk", doubled dots, a digit read for a letter.
    static func repairDomain(_ domain: String) -> String {
        var d = domain.lowercased()
        while d.contains("..") { d = d.replacingOccurrences(of: "..", with: ".") }
        // In the TLD part digits are OCR slips: 0 -> o, 1 -> l.
        var labels = d.split(separator: ".").map(String.init)
        if let last = labels.last {
            labels[labels.count - 1] = last.replacingOccurrences(of: "0", with: "o").replacingOccurrences(of: "1", with: "l")
        }
        d = labels.joined(separator: ".")
        return d
    }

}

/// Finds web addresses.
enum URLExtractor {
    struct Result {
        var urls: [String] = []
        var consumedLines: Set<Int> = []
    }

    static let knownTLDs: Set<String> = [
        "com", "org", "net", "io", "co", "uk", "de", "ca", "au", "fr", "nl", "ch", "ie", "at", "us", "biz",
        "info", "eu", "nz", "be", "es", "it", "app", "dev", "ai", "tech", "edu", "gov",
    ]

    static func extract(from lines: [CardLine], emails: [String]) -> Result {
        var result = Result()
        let emailDomains = Set(emails.compactMap { $0.split(separator: "@").last.map { String($0) } })
        for line in lines {
            var text = line.text
            text = text.replacingOccurrences(of: "https //", with: "https://").replacingOccurrences(of: "http //", with: "http://")
                .replacingOccurrences(of: "https:/ /", with: "https://").replacingOccurrences(of: "www ", with: "www.")
            let tokens = text.split(whereSeparator: { $0 == " " || $0 == "|" }).map(String.init)
            for raw in tokens {
                var token = raw.trimmingCharacters(in: CharacterSet(charactersIn: ",;()<>\"'"))
                if token.hasSuffix(".") { token.removeLast() }
                guard !token.contains("@") else { continue }
                let lower = token.lowercased()
                // Drop a label glued on: "W:www.acme.com", "Web:acme.com".
                var candidate = lower
                if let colon = candidate.firstIndex(of: ":"), !candidate.hasPrefix("http") {
                    candidate = String(candidate[candidate.index(after: colon)...])
                }
                let hostPart = host(of: candidate)
                let labels = hostPart.split(separator: ".")
                guard labels.count >= 2, let tld = labels.last, tld.count >= 2, tld.allSatisfy(\.isLetter),
                      labels.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" } })
                else { continue }
                // A top-level domain cardscan does not know counts when nothing else on the line
                // competes: the address alone (or after a web label), in lower case, or the e-mail's domain.
                let standsAlone = Residue.isLabelOnly(line.text, removing: { $0 == raw }) && raw == raw.lowercased()
                guard knownTLDs.contains(String(tld)) || standsAlone || emailDomains.contains(hostPart)
                      || candidate.hasPrefix("http") || candidate.hasPrefix("www.") else { continue }
                let looksLikeURL = candidate.hasPrefix("http") || candidate.hasPrefix("www.")
                    || emailDomains.contains(hostPart) || labels.count >= 2 && !labels[0].allSatisfy(\.isNumber)
                guard looksLikeURL else { continue }
                if !result.urls.contains(candidate) { result.urls.append(candidate) }
                if Residue.isLabelOnly(line.text, removing: { $0.contains(".") && !$0.hasSuffix(".") }) {
                    result.consumedLines.insert(line.index)
                }
            }
        }
        return result
    }

    /// The host of a URL: scheme, "www.", path and port removed.
    static func host(of url: String) -> String {
        var s = url.lowercased()
        if let r = s.range(of: "://") { s = String(s[r.upperBound...]) }
        if s.hasPrefix("www.") { s.removeFirst(4) }
        if let slash = s.firstIndex(of: "/") { s = String(s[..<slash]) }
        if let colon = s.firstIndex(of: ":") { s = String(s[..<colon]) }
        return s
    }
}

/// What is left of a line once its contact data is taken out.
enum Residue {
    static let labels: Set<String> = [
        "e", "email", "e-mail", "mail", "w", "web", "website", "www", "url", "internet", "t", "tel", "phone",
        "telephone", "m", "mob", "mobile", "cell", "f", "fax", "p", "o", "office", "d", "direct", "ph", "c",
        "telefon", "mobil", "handy", "telefax", "fon",
    ]

    /// True when, after dropping the tokens `removing` matches and known labels, no word of three
    /// or more letters remains: the line held contact data only.
    static func isLabelOnly(_ text: String, removing: (String) -> Bool) -> Bool {
        for token in text.split(whereSeparator: { $0 == " " || $0 == "|" }) {
            let t = String(token)
            if removing(t) { continue }
            let word = t.lowercased().trimmingCharacters(in: CharacterSet.letters.inverted)
            if labels.contains(word) { continue }
            if t.filter(\.isLetter).count >= 3 { return false }
        }
        return true
    }
}
