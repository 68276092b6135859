import Foundation

/// Host names checked and repaired against the Public Suffix List: a domain read from a card must
/// end in a real public suffix; OCR's usual slips in one (a dropped dot in "co.jp", a digit for a
/// letter, a comma for a dot) are undone only when the result is a real domain.
enum Domains {
    static let hostCharacters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyz0123456789.-")

    /// Top-level names reserved for examples and tests (RFC 2606): documentation and test cards use them.
    static let reservedForExamples: Set<String> = ["example", "test"]

    /// The public suffix a host ends with (the longest: "co.uk" rather than "uk"), nil when none.
    static func publicSuffix(of host: String) -> String? {
        let labels = host.split(separator: ".")
        guard labels.count >= 2 else { return nil }
        let two = labels.suffix(2).joined(separator: ".")
        if labels.count >= 3, ParserData.publicSuffixes.contains(two) { return two }
        let one = String(labels.last ?? "")
        if ParserData.topLevelDomains.contains(one) || reservedForExamples.contains(one) { return one }
        return ParserData.publicSuffixes.isEmpty && PublicSuffixList.looksLikeTopLevelDomain(one) ? one : nil
    }

    /// True when `host` has the shape of a real domain: labels of letters, digits and inner
    /// hyphens, a real public suffix, and a name before it.
    static func isValid(_ host: String) -> Bool {
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty && !$0.hasPrefix("-") && !$0.hasSuffix("-") }),
              host.unicodeScalars.allSatisfy({ hostCharacters.contains($0) }),
              let suffix = publicSuffix(of: host) else { return false }
        return host.count > suffix.count + 1
    }

    /// The hosts a card names: its e-mails' domains, then its web addresses' hosts.
    static func hosts(emails: [String], urls: [String]) -> [String] {
        emails.compactMap { EmailAddress($0)?.domain } + urls.map { URLExtractor.host(of: $0) }
    }

    /// The label that names the organisation: "mail.acme.co.uk" -> "acme".
    static func registrableLabel(of host: String) -> String? {
        guard let suffix = publicSuffix(of: host) else {
            let labels = host.split(separator: ".")
            return labels.count >= 2 ? String(labels[labels.count - 2]) : nil
        }
        let rest = host.dropLast(suffix.count + 1)
        return rest.split(separator: ".").last.map(String.init)
    }

    /// Joins a two-label public suffix that OCR split with a space or a comma: "acme.co jp" ->
    /// "acme.co.jp", "acme.com, au" -> "acme.com.au".
    static func joinSplitSuffixes(_ text: String) -> String {
        guard let re = splitSuffix else { return text }
        var out = text
        let ns = text as NSString
        for m in re.matches(in: text, range: NSRange(location: 0, length: ns.length)).reversed() {
            let first = ns.substring(with: m.range(at: 1)).lowercased(), second = ns.substring(with: m.range(at: 2)).lowercased()
            guard ParserData.publicSuffixes.contains(first + "." + second), let r = Range(m.range, in: out) else { continue }
            out.replaceSubrange(r, with: "." + ns.substring(with: m.range(at: 1)) + "." + ns.substring(with: m.range(at: 2)))
        }
        return out
    }

    private static let splitSuffix = try? NSRegularExpression(pattern: #"\.([A-Za-z]{2,3})[ ,]+\.?([A-Za-z]{2})\b"#)

    /// Repairs a host read by OCR; nil when no repair gives a real domain.
    static func repair(_ raw: String) -> String? {
        var host = raw.lowercased().trimmingCharacters(in: ParserCharacters.hostPunctuation)
        host = host.replacingIfPresent(",", with: ".").replacingIfPresent(" ", with: "")
        while host.contains(bytes: "..") { host = host.replacingOccurrences(of: "..", with: ".") }
        if isValid(host) { return host }
        var labels = host.split(separator: ".").map(String.init)
        guard labels.count >= 1, var last = labels.last else { return nil }
        // Digits OCR reads for letters in the top-level label.
        let letters = String(last.map { ["0": "o", "1": "l", "5": "s", "8": "b"][$0] ?? $0 })
        if letters != last {
            labels[labels.count - 1] = letters
            last = letters
            if isValid(labels.joined(separator: ".")) { return labels.joined(separator: ".") }
        }
        // "m" read as "rn" in the top-level label ("acme.corn").
        if last.contains("rn") {
            let mended = (labels.dropLast() + [last.replacingOccurrences(of: "rn", with: "m")]).joined(separator: ".")
            if isValid(mended) { return mended }
        }
        // A dot lost inside a two-label public suffix: "precision.cojp" -> "precision.co.jp",
        // "simlow.comsg" -> "simlow.com.sg".
        guard labels.count >= 2 else { return nil }
        for cut in 2..<max(2, last.count - 1) {
            let head = String(last.prefix(cut)), tail = String(last.suffix(last.count - cut))
            guard ParserData.publicSuffixes.contains(head + "." + tail) else { continue }
            let candidate = (labels.dropLast() + [head, tail]).joined(separator: ".")
            if isValid(candidate) { return candidate }
        }
        return nil
    }
}
