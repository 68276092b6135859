import Foundation

/// Finds e-mail addresses, repairing what OCR typically breaks in them; the domain must be a real
/// one (it ends in a public suffix), so label debris and stray words never become addresses.
enum EmailExtractor {
    struct Result {
        var emails: [String] = []
        var consumedLines: Set<Int> = []
        /// How many emails needed a repair (lower confidence).
        var repaired: Int = 0
        /// Addresses whose domain is none (an unknown suffix: "roberts.com.ay"); the card's web
        /// address may say what it was (`resolving`).
        var unresolved: [Unresolved] = []
    }

    /// An address whose domain is none, and whether it was read as an address is printed: the
    /// "@" between a local part with a letter and the domain with no space ("@acme" after a
    /// number is a social handle). Only such a domain may be a web host's start (`isCutShort`).
    struct Unresolved {
        var address: EmailAddress
        var asPrinted: Bool
    }

    static let localChars = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._%+-'")
    static let domainChars = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-")

    static func extract(from lines: [CardLine]) -> Result {
        var result = Result()
        for line in lines {
            let text = normalizedAt(line.text)
            guard text.contains("@") else { continue }
            let chars = Array(text)
            var found = false
            for (i, ch) in chars.enumerated() where ch == "@" {
                let s = withSplitFragment(chars, localStart: localStart(chars, at: i), at: i)
                let (domain, e) = domainAfter(chars, at: i)
                var local = misreadInitial(chars, localStart: s) + String(chars[s..<i]).replacingIfPresent(" ", with: "")
                local = local.trimmingCharacters(in: ParserCharacters.localPunctuation)
                // A label glued to the address ("E:jane@", "Email-jane@"), or its letter read with
                // the space after it as an underscore ("E_jane@": a capital, which addresses lack).
                if let colon = local.lastIndex(of: ":") { local = String(local[local.index(after: colon)...]) }
                if local.count > 2, let first = local.first, first.isUppercase, local.dropFirst().first == "_",
                   Labels.label(String(first)) == .email, !local.dropFirst(2).contains(where: \.isUppercase) {
                    local = String(local.dropFirst(2))
                }
                guard !local.isEmpty else { continue }
                guard let host = Domains.repair(domain) else {
                    // This "@" read with no space around it (another "@" on the line may be an icon's).
                    let asPrinted = line.text.contains(String(chars[s..<e])) && local.contains(where: \.isLetter)
                    result.unresolved.append(Unresolved(address: EmailAddress(local: local.lowercased(), domain: domain.lowercased()),
                                                        asPrinted: asPrinted))
                    continue
                }
                let email = (local + "@" + host).lowercased()
                if !result.emails.contains(email) {
                    result.emails.append(email)
                    if text != line.text || email != String(chars[s..<e]).lowercased() { result.repaired += 1 }
                }
                found = true
            }
            if found, Residue.isLabelOnly(line.text, removing: { $0.contains("@") }) {
                result.consumedLines.insert(line.index)
            }
        }
        return result
    }

    /// The unresolved addresses whose domain is one slip from a web host of the card, dots aside
    /// ("roberts.com.ay" beside "www.roberts.com.au", "kondo.cajp" beside "www.kondo.co.jp"), or,
    /// read as printed (`Unresolved.asPrinted`), the start of one that holds its whole name, its
    /// suffix cut short where OCR lost or misread the end ("roberts" or "roberts.c" beside
    /// "www.roberts.com"), with that host.
    static func resolving(_ unresolved: [Unresolved], webHosts: [String]) -> [String] {
        func undotted(_ s: String) -> String { s.replacingOccurrences(of: ".", with: "") }
        return unresolved.compactMap { read in
            let address = read.address
            return webHosts.first(where: {
                Domains.isValid($0) && (CrossChecks.editDistance($0, address.domain) == 1
                    || CrossChecks.editDistance(undotted($0), undotted(address.domain)) == 1
                    || (read.asPrinted && isCutShort(address.domain, of: $0)))
            }).map { EmailAddress(local: address.local, domain: $0).text }
        }
    }

    /// True when `domain` is `host` cut short after its registrable name: "roberts" or
    /// "roberts.c" of "roberts.com", not "robert" nor "acme" of "acmegroup.com".
    static func isCutShort(_ domain: String, of host: String) -> Bool {
        let read = domain.hasSuffix(".") ? String(domain.dropLast()) : domain
        guard let label = Domains.registrableLabel(of: host), label.count >= 3, host.count > read.count,
              host.hasPrefix(read), let at = host.range(of: label, options: .backwards) else { return false }
        return read.count >= host.distance(from: host.startIndex, to: at.upperBound)
    }

    /// The line with "(at)", " at ", "[at]" spellings as "@", and no spaces around it.
    static func normalizedAt(_ line: String) -> String {
        var text = Domains.joinSplitSuffixes(withMarkReadForAt(line))
        for at in [" (at) ", " [at] ", "(at)", "[at]", "{at}"] { text = text.replacingIfPresent(at, with: "@") }
        return text.replacingIfPresent(" @ ", with: "@").replacingIfPresent("@ ", with: "@")
            .replacingIfPresent(" @", with: "@")
    }

    /// The line with a registered or copyright mark OCR read for the "@" of an address
    /// ("jane®acme.com", "jane©acme.com") written as "@": on a line without an "@", a mark between
    /// a character of a local part and a letter or digit. The domain after it must still be real.
    static func withMarkReadForAt(_ line: String) -> String {
        guard !line.contains("@"), line.contains("®") || line.contains("©") else { return line }
        var chars = Array(line)
        for i in chars.indices.dropFirst().dropLast() where (chars[i] == "®" || chars[i] == "©") && isLocal(chars[i - 1])
            && (chars[i + 1].isLetter || chars[i + 1].isNumber) && chars[i + 1].isASCII {
            chars[i] = "@"
        }
        return String(chars)
    }

    /// True when `tail` (a label OCR set apart) and the last label of `domain` make a public
    /// suffix of two labels: "ruikang.co" and "kr" are "ruikang.co.kr", not "ruikang.co".
    static func continuesSuffix(_ domain: String, with tail: String) -> Bool {
        let label = tail.trimmingCharacters(in: CharacterSet(charactersIn: ".")).lowercased()
        guard label.count == 2, label.allSatisfy(\.isLetter), let last = domain.lowercased().split(separator: ".").last else { return false }
        return ParserData.publicSuffixes.contains(last + "." + label)
    }

    /// The letter a sign before a local part that starts with a dot stands for ("|.bitta@" is
    /// l.bitta, "¢.solgu@" c.solgu: a local part never starts with a dot); empty for the others.
    static func misreadInitial(_ chars: [Character], localStart s: Int) -> String {
        guard s >= 1, s < chars.count, chars[s] == ".", s == 1 || !chars[s - 2].isLetter else { return "" }
        return misreadInitials[chars[s - 1]] ?? ""
    }

    /// Signs OCR reads for an e-mail address's initial, and the letters they stand for.
    static let misreadInitials: [Character: String] = ["|": "l", "¢": "c"]

    /// Where the local part before the "@" at `at` starts when OCR split it at a space ("mir
    /// a@acme.com", "jud it@", "anna.k aro@", "anna. karo@": OCR sets a space after a dot as it
    /// would in a sentence): the word before the space is taken in when it is lower case, no label
    /// and no web address, and either the part after the space is too short for a local part of
    /// its own (three letters or fewer) or the word holds a dot or an underscore (a dot at its end
    /// after four letters or more). A label ("Email info@"), a capitalised name ("Jane Doe jd@"),
    /// a web address ("acme.dk info@") or a sentence ("write to us at info@", "mail us. info@")
    /// keeps its own start (`localStart`'s).
    static func withSplitFragment(_ chars: [Character], localStart s: Int, at: Int) -> Int {
        guard s >= 2, s < at, chars[s - 1] == " " else { return s }
        var t = s - 1
        while t > 0, isLocal(chars[t - 1]) { t -= 1 }
        guard t == 0 || chars[t - 1] == " " else { return s }
        var before = String(chars[t..<(s - 1)])
        let local = String(chars[s..<at])
        // The dot OCR set a space after ends the word: it is read without it.
        let dotEnded = before.hasSuffix(".") && before.count > 4
        if dotEnded { before.removeLast() }
        guard before.count <= 12, before.first?.isLetter == true, before.last.map({ $0.isLetter || $0.isNumber }) == true,
              !before.contains(where: \.isUppercase), local.first.map({ $0.isLetter || $0.isNumber }) == true,
              Labels.label(before) == nil, !Domains.isValid(before) else { return s }
        let tooShort = local.count <= 3
        let dotted = dotEnded || before.contains(".") || before.contains("_")
        return tooShort || dotted ? t : s
    }

    /// True for a character a local part may hold.
    static func isLocal(_ c: Character) -> Bool {
        c.unicodeScalars.count == 1 && c.unicodeScalars.first.map(localChars.contains) == true
    }

    /// Where the local part before the "@" at `at` starts.
    static func localStart(_ chars: [Character], at: Int) -> Int {
        var s = at
        while s > 0, isLocal(chars[s - 1]) { s -= 1 }
        // A space OCR put before an underscore or a dot inside the local part ("thomas _pearson@"):
        // a local part never starts with either.
        while s >= 2, s < at, chars[s] == "_" || chars[s] == ".", chars[s - 1] == " ", isLocal(chars[s - 2]) {
            s -= 1
            while s > 0, isLocal(chars[s - 1]) { s -= 1 }
        }
        return s
    }

    /// What a space OCR set inside a domain stood for, before `tail`: a dot before a label
    /// ("acme com") or a public suffix ("acme co.uk"); nothing inside a name whose suffix follows
    /// ("acme catering.hu" is acmecatering.hu: OCR splits long names at a space, and a dot read
    /// as a space leaves no dot after it); nothing after a dot already read ("acme. com").
    static func separator(before tail: String, after domain: String) -> String {
        let label = tail.trimmingCharacters(in: CharacterSet(charactersIn: ".")).lowercased()
        guard !domain.hasSuffix("."), label.contains(".") else { return domain.hasSuffix(".") ? "" : "." }
        return ParserData.publicSuffixes.contains(label) ? "." : ""
    }

    /// The domain after the "@" at `at`, and where it ends. ", " / " . " / " " before the rest of
    /// the domain is where OCR splits it: joined when the joined domain is real and the domain so
    /// far is not.
    static func domainAfter(_ chars: [Character], at: Int) -> (domain: String, end: Int) {
        var e = at + 1
        var domain = ""
        while e < chars.count {
            let c = chars[e]
            if c.unicodeScalars.count == 1, let u = c.unicodeScalars.first, domainChars.contains(u) {
                domain.append(c); e += 1; continue
            }
            if c == "," || c == " ", !domain.isEmpty {
                var k = e
                while k < chars.count, chars[k] == " " || chars[k] == "," || chars[k] == "." { k += 1 }
                var tail = ""
                var m = k
                while m < chars.count, chars[m].isASCII, chars[m].isLetter || chars[m] == "." { tail.append(chars[m]); m += 1 }
                // A two-letter word after a complete domain ("acme, com in" beside a LinkedIn
                // icon) is a suffix's last label only when it ends the line.
                let endsLine = !chars[m...].contains { $0.isLetter || $0.isNumber }
                let unfinished = Domains.repair(domain) == nil || domain.hasSuffix(".") || (endsLine && continuesSuffix(domain, with: tail))
                if unfinished, !tail.isEmpty, let joined = Domains.repair(domain + separator(before: tail, after: domain) + tail) {
                    domain = joined
                    e = m
                    continue
                }
            }
            break
        }
        return (domain, e)
    }
}

/// Finds web addresses: "www." or a scheme, or a bare host whose domain is real and which stands
/// alone on its line or after a web label.
public enum URLExtractor {
    struct Result {
        var urls: [String] = []
        var consumedLines: Set<Int> = []
        /// Lines a web address was read on.
        var readLines: Set<Int> = []
    }

    static func extract(from lines: [CardLine], emails: [String]) -> Result {
        var result = Result()
        let emailDomains = Set(emails.compactMap { EmailAddress($0)?.domain })
        var read = Set<Int>()  // lines a web address was read on
        for line in lines {
            var text = Domains.joinSplitSuffixes(line.text)
            for (from, to) in [("https //", "https://"), ("http //", "http://"), ("https:/ /", "https://"), ("http:/ /", "http://"), ("https:/", "https://"),
                               ("http:/", "http://"), ("https: //", "https://"), ("www ", "www."), ("www,", "www."), (". ", "."),
                               (" .", ".")] {
                text = text.replacingIfPresent(from, with: to)
            }
            text = text.replacingIfPresent("https:///", with: "https://").replacingIfPresent("http:///", with: "http://")
                .replacingIfPresent("https:// ", with: "https://").replacingIfPresent("http:// ", with: "http://")
            text = repairScheme(text)
            let (label, _) = Labels.strip(line.text)
            for raw in joiningSplitHosts(text.split(whereSeparator: { $0 == " " || $0 == "|" }).map(String.init)) {
                var token = raw.trimmingCharacters(in: ParserCharacters.tokenPunctuation)
                if token.hasSuffix(".") { token.removeLast() }
                var candidate = token.lowercased()
                // A comma read for the dot of a host after a scheme ("https://acme,com").
                guard !token.contains("@"), token.contains(".") || (candidate.contains("://") && token.contains(",")) else { continue }
                // A label glued before a scheme ("Web.http://", from "Web. http://").
                if let r = candidate.range(of: "http"), r.lowerBound > candidate.startIndex, candidate[r.lowerBound...].contains("://") {
                    candidate = String(candidate[r.lowerBound...])
                }
                // A label glued on: "W:www.acme.com", "Web:acme.com".
                if let colon = candidate.firstIndex(of: ":"), !candidate.hasPrefix("http") {
                    candidate = String(candidate[candidate.index(after: colon)...])
                }
                candidate = mendWWW(withoutGluedLabel(withoutMisreadScheme(candidate)))
                let rawHost = host(of: candidate)
                guard !rawHost.allSatisfy({ $0.isNumber || $0 == "." }) else { continue }
                // As read, then as repaired: each may be one of OCR's slips beside an e-mail domain.
                guard let fixedHost = agreeing(rawHost, withEmailDomains: emailDomains)
                        ?? Domains.repair(rawHost).map({ agreeing($0, withEmailDomains: emailDomains) ?? $0 }) else { continue }
                // "www" glued to the host ("wwwacme.com") is as plain a sign as "www.".
                let explicit = candidate.hasPrefix("http") || candidate.hasPrefix("www")
                let standsAlone = Residue.isLabelOnly(line.text, removing: { $0 == raw })
                guard explicit || emailDomains.contains(fixedHost) || label == .web || standsAlone else { continue }
                if fixedHost != rawHost, let r = candidate.range(of: rawHost) { candidate.replaceSubrange(r, with: fixedHost) }
                if !result.urls.contains(candidate) { result.urls.append(candidate) }
                read.insert(line.index)
                if Residue.isLabelOnly(line.text, removing: { $0.contains(".") && !$0.hasSuffix(".") }) {
                    result.consumedLines.insert(line.index)
                }
            }
        }
        result.readLines = read
        return result
    }

    /// Web addresses of the e-mails' domains on web lines no address was read on, OCR having
    /// broken them past reading (`webLineOfEmailDomain`). Called once the e-mails are reconciled
    /// with the organisation, so a domain OCR misread in both the e-mail and the web line does not
    /// outvote the company's name.
    static func spelledByEmailDomains(_ lines: [CardLine], skip: Set<Int>, emails: [String], urls: [String]) -> [String] {
        let emailDomains = Set(emails.compactMap { EmailAddress($0)?.domain })
        var found: [String] = []
        for line in lines where !skip.contains(line.index) {
            guard let domain = webLineOfEmailDomain(line.text, emailDomains: emailDomains),
                  !(urls + found).contains(where: { host(of: $0) == domain }) else { continue }
            found.append(domain)
        }
        return found
    }

    /// The e-mail domain a web line spells when OCR broke it past reading as an address: a scheme
    /// misread and the dot read as a space ("W hitpsv/www.acme ie" beside jane@acme.ie), or
    /// letters OCR confuses ("https://acrne.ie" beside jane@acme.ie: the same letters but for
    /// "rn" and "m"). The line must be a web line: its label, or nothing but a scheme's letters as
    /// OCR reads them before the domain's ("ww", "tp" or "//" among them); nil otherwise.
    static func webLineOfEmailDomain(_ text: String, emailDomains: Set<String>) -> String? {
        let (label, value) = Labels.strip(text)
        guard !value.contains("@") else { return nil }
        let squeezed = Reconciliation.skeleton(String(value.lowercased().filter { $0.isLetter || $0.isNumber || $0 == "/" || $0 == ":" }))
        for domain in emailDomains.sorted() where domain.count >= 6 {
            let letters = Reconciliation.skeleton(String(domain.filter { $0.isLetter || $0.isNumber }))
            guard squeezed.hasSuffix(letters) else { continue }
            let before = squeezed.dropLast(letters.count)
            // Only a scheme's letters as OCR reads them ("hltpsv/www", "https://"): "Outpost" is no scheme.
            let schemeDebris = before.count <= 12 && before.allSatisfy(schemeReadings.contains)
                && (before.hasSuffix("ww") || before.contains("tp") || before.contains("//"))
            if (label == .web && before.count <= 12) || schemeDebris { return domain }
        }
        return nil
    }

    /// A host OCR misread next to the card's e-mail domains, written as the e-mail has it when
    /// the difference is a known slip: scheme letters glued before it ("bttpswedwards.com"), the
    /// dot after "www" lost ("wwwacme.ca"), or an "m" of the suffix read as two letters
    /// ("acme.corw" for "acme.com"). Nil when it agrees with none.
    static func agreeing(_ host: String, withEmailDomains domains: Set<String>) -> String? {
        if domains.contains(host) { return host }
        if host.hasPrefix("www"), !host.hasPrefix("www."), case let rest = String(host.dropFirst(3)),
           domains.contains(rest) || (Domains.isValid(rest) && (Domains.registrableLabel(of: rest)?.count ?? 0) >= 3) {
            return rest
        }
        for domain in domains.sorted() where domain.count >= 6 {
            // Or "www-" for "www." ("www-acme.com.au"), but no other hyphen: "s-bahn.de" is not "bahn.de".
            if host.hasSuffix(domain), case let prefix = host.dropLast(domain.count), !prefix.isEmpty,
               prefix.allSatisfy(schemeLetters.contains) || (prefix.hasSuffix("www-") && prefix.dropLast(4).allSatisfy(schemeLetters.contains)) {
                return domain
            }
            // An "m" of the suffix read as two letters: "acme.corw", "acme.corn" for "acme.com".
            if let label = Domains.registrableLabel(of: domain), label.count >= 4, host.hasPrefix(label + "."),
               case let suffix = domain.dropFirst(label.count), suffix.contains("m"),
               ["rn", "rw", "nn", "ri"].contains(where: { suffix.replacingOccurrences(of: "m", with: $0) == host.dropFirst(label.count) }) {
                return domain
            }
        }
        return nil
    }

    /// Web addresses that are e-mails whose "@" OCR read as a letter of its shape, "a", "g" or "q"
    /// ("adixitakala.in" beside "kala.in", "npaniczgfundacja.pl" beside "fundacja.pl"): a bare host
    /// that is a local part, such a letter and another host of the card. They leave the web
    /// addresses and join the e-mails.
    static func emailsReadAsWebAddresses(_ urls: [String], emails: [String]) -> (urls: [String], emails: [String]) {
        let hosts = Domains.hosts(emails: emails, urls: urls)
        var keptURLs: [String] = [], found: [String] = []
        for url in urls {
            let host = host(of: url)
            let bare = !url.hasPrefix("http") && !url.hasPrefix("www.")
            if bare, let domain = hosts.first(where: { other in other != host && "agq".contains { host.hasSuffix(String($0) + other) } }),
               case let local = host.dropLast(domain.count + 1), local.count >= 2, !local.contains("."),
               local.unicodeScalars.allSatisfy(EmailExtractor.localChars.contains) {
                found.append(local + "@" + domain)
            } else {
                keptURLs.append(url)
            }
        }
        return (keptURLs, emails + found.filter { !emails.contains($0) })
    }

    /// True when the address names a page under its host ("social.example/shopname").
    static func hasPath(_ url: String) -> Bool {
        var rest = Substring(url)
        if let scheme = rest.range(of: "://") { rest = rest[scheme.upperBound...] }
        guard let slash = rest.firstIndex(of: "/") else { return false }
        return rest[rest.index(after: slash)...].contains(where: { $0.isLetter || $0.isNumber })
    }

    /// True when `url` is one of `emails` with its "@" read as another character
    /// ("jane.doeqacme.com" for jane.doe@acme.com).
    public static func isEmailMisread(_ url: String, emails: [String]) -> Bool {
        let read = Array(host(of: url).lowercased())
        return emails.contains { email in
            let e = Array(email.lowercased())
            guard e.count == read.count, let at = e.firstIndex(of: "@") else { return false }
            return e.indices.allSatisfy { $0 == at || e[$0] == read[$0] }
        }
    }

    /// The tokens of a line with a web address OCR split at a space inside its name joined again:
    /// a token that starts as one ("www.", a scheme) but whose host is no real domain, and the
    /// next token, which holds the rest of the name and its suffix, when together they make one
    /// ("www.gonza lez.com.ar", "http://ww w.acme.com"). A token with no host ("www" as a label,
    /// "www | acme.com"), a next one that starts an address itself, or a suffix alone ("www.acme
    /// com", "www.acme co.uk": the dot read as a space; `spelledByEmailDomains` reads such a line
    /// once the company has mended the e-mails, so a domain misread in both does not outvote the
    /// company's name) is left alone.
    static func joiningSplitHosts(_ tokens: [String]) -> [String] {
        var out: [String] = []
        var i = 0
        while i < tokens.count {
            let token = tokens[i].lowercased()
            if i + 1 < tokens.count, token.hasPrefix("http") || token.hasPrefix("ww"), case let read = host(of: token), !read.isEmpty,
               Domains.repair(read) == nil {
                let next = tokens[i + 1].trimmingCharacters(in: ParserCharacters.tokenPunctuation)
                let rest = next.lowercased()
                let startsAddress = rest.hasPrefix("http") || rest.hasPrefix("www")
                if !startsAddress, rest.contains("."), !rest.contains("@"), EmailExtractor.separator(before: rest, after: token).isEmpty,
                   Domains.repair(host(of: mendWWW(token + rest))) != nil {
                    out.append(tokens[i] + next)
                    i += 2
                    continue
                }
            }
            out.append(tokens[i])
            i += 1
        }
        return out
    }

    /// A web address with a label glued before it by a dot: before its "www." ("site.www.acme.com",
    /// from "Site. www.acme.com"), from its "www." on, as "www" is only ever a host's first label;
    /// a web label before a host (below).
    static func withoutGluedLabel(_ url: String) -> String {
        guard !url.contains("://") else { return url }
        if let www = url.range(of: ".www."), url[..<www.lowerBound].allSatisfy(\.isLetter) {
            return String(url[url.index(after: www.lowerBound)...])
        }
        // A web label glued on by its dot ("web.acme.com", "w.acme.com" from "Web. acme.com") when
        // what follows is a real domain itself ("web.de" stays).
        guard let dot = url.firstIndex(of: "."), url[..<dot] != "www", Labels.label(String(url[..<dot])) == .web else { return url }
        let rest = String(url[url.index(after: dot)...])
        return Domains.repair(host(of: rest)) != nil ? rest : url
    }

    /// A web address whose scheme OCR misread and glued on ("hapsy/www.acme.cz", "htps:/" read as
    /// a label, leaving "/www.acme.cz"), from its "www." on: a short run of letters and scheme
    /// marks ending in "/" or ":" is no part of a host. A whole scheme ("https://") stays.
    static func withoutMisreadScheme(_ url: String) -> String {
        guard !url.contains("://"), let www = url.range(of: "www."), www.lowerBound > url.startIndex else { return url }
        let prefix = url[..<www.lowerBound]
        guard prefix.count <= 8, prefix.last == "/" || prefix.last == ":",
              prefix.allSatisfy({ $0.isLetter || ":/;".contains($0) }) else { return url }
        return String(url[www.lowerBound...])
    }

    /// "www" as OCR reads it with a letter lost, doubled or turned ("ww.", "wwww.", "vww."), or
    /// after a scheme with a letter before it, the scheme's second slash misread ("https:/Awww.",
    /// "https:/Mwww."), written as printed; only before a host of two labels or more, so "ww.com"
    /// and "https://awww.com" are left alone.
    static func mendWWW(_ url: String) -> String {
        let scheme = url.range(of: "://").map { url[..<$0.upperBound] } ?? ""
        let rest = url.dropFirst(scheme.count)
        let labels = rest.split(separator: ".", maxSplits: 1)
        guard labels.count == 2, labels[1].split(separator: "/").first?.contains(".") == true else { return url }
        func isWWW(_ s: Substring) -> Bool {
            (2...5).contains(s.count) && s.allSatisfy({ $0 == "w" || $0 == "v" }) && s.filter({ $0 == "w" }).count >= 2
        }
        var first = labels[0]
        if !scheme.isEmpty, first.count >= 4, let lead = first.first, lead.isLetter, !isWWW(first), isWWW(first.dropFirst()) {
            first = first.dropFirst()
        }
        guard first != labels[0] || (first != "www" && isWWW(first)) else { return url }
        return scheme + "www." + labels[1]
    }

    /// The letters of "https://www." and what OCR reads for them ("hltpsv/", "hups"), skeletons
    /// as `Reconciliation.skeleton` makes them.
    static let schemeReadings = Set("htpsbw:/lvu")

    /// The letters of "https://www." that OCR leaves glued before a host.
    static let schemeLetters = Set("htpsbw:/.")

    /// A scheme OCR misread by a letter ("hetps://", "htlps://", "hftp://") written as it was meant.
    static func repairScheme(_ text: String) -> String {
        guard let r = text.range(of: "://") else { return text }
        let before = text[..<r.lowerBound]
        let start = before.lastIndex(where: { $0 == " " }).map { before.index(after: $0) } ?? before.startIndex
        let scheme = String(before[start...]).lowercased()
        guard scheme != "https", scheme != "http", (4...6).contains(scheme.count) else { return text }
        for target in ["https", "http"] where scheme.count == target.count && zip(scheme, target).filter({ $0 != $1 }).count == 1 {
            return text.replacingCharacters(in: start..<r.lowerBound, with: target)
        }
        return text
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
