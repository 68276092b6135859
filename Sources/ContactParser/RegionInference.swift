import Foundation

/// Infers the card's country from what it prints: a country line, the postcode's shape, the
/// e-mail or web domain's country code. Nil when nothing says.
enum RegionInference {
    static func infer(lines: [String], emails: [String], urls: [String]) -> String? {
        var votes: [String: Int] = [:]
        for line in lines {
            let lower = line.lowercased().trimmingCharacters(in: CharacterSet.punctuationCharacters.union(.whitespaces))
            if let code = Lexicon.countries[lower] { votes[code, default: 0] += 5 }
            // A country at the end of an address line: "..., Germany".
            if let last = lower.split(separator: ",").last?.trimmingCharacters(in: .whitespaces),
               lower.contains(","), let code = Lexicon.countries[last] { votes[code, default: 0] += 4 }
            if let code = postcodeRegion(line) { votes[code, default: 0] += 3 }
        }
        for host in emails.compactMap({ $0.split(separator: "@").last.map(String.init) }) + urls.map(URLExtractor.host) {
            guard let tld = host.split(separator: ".").last.map(String.init), let code = Lexicon.domainRegions[tld] else { continue }
            votes[code, default: 0] += 2
        }
        return votes.max { a, b in a.value == b.value ? a.key > b.key : a.value < b.value }?.key
    }

    /// The region a postcode pattern on the line points to.
    static func postcodeRegion(_ line: String) -> String? {
        if AddressPatterns.northAmerican(line) != nil {
            let upper = line.uppercased()
            if upper.range(of: #"[A-Z]\d[A-Z] ?\d[A-Z]\d\b"#, options: .regularExpression) != nil { return "CA" }
            return "US"
        }
        if AddressPatterns.australian(line) != nil { return "AU" }
        if AddressPatterns.british(line) != nil { return "GB" }
        return nil
    }
}
