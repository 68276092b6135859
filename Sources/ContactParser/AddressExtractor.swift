import Foundation

/// The "city line" patterns of the address conventions cardscan reads.
enum AddressPatterns {
    struct CityLine {
        var before: String      // text before the city (a street on one-line addresses), may be empty
        var city: String
        var region: String?
        var postalCode: String
        var country: String?
    }

    private static func match(_ line: String, _ pattern: String) -> [String]? {
        guard let re = try? NSRegularExpression(pattern: pattern, options: []) else { return nil }
        let ns = line as NSString
        guard let m = re.firstMatch(in: line, range: NSRange(location: 0, length: ns.length)) else { return nil }
        return (0..<m.numberOfRanges).map { i in
            let r = m.range(at: i)
            return r.location == NSNotFound ? "" : ns.substring(with: r)
        }
    }

    /// Removes a trailing country ("..., USA") and returns it.
    static func splitCountry(_ line: String) -> (String, String?) {
        let parts = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if parts.count >= 2, let last = parts.last, Lexicon.countries[last.lowercased()] != nil {
            return (parts.dropLast().joined(separator: ", "), last)
        }
        return (line, nil)
    }

    /// "City, ST 12345" (US) or "City, PR A1A 1A1" (Canada). OCR's "Hl" for "HI" is read as "HI".
    static func northAmerican(_ line: String) -> CityLine? {
        let (body, country) = splitCountry(line)
        guard var g = match(body, #"^(.*?)[,.]?\s+([A-Z][A-Zl|])[,.]?\s+(\d{5}(?:-\d{4})?|[A-Z0-9]{3}\s?[A-Z0-9]{3})\s*$"#) else { return nil }
        let region = g[2].replacingOccurrences(of: "l", with: "I").replacingOccurrences(of: "|", with: "I")
        let isCanadian = !g[3].allSatisfy { $0.isNumber || $0 == "-" }
        if isCanadian {
            guard let code = canadianPostcode(g[3]) else { return nil }
            g[3] = code
        }
        guard isCanadian ? Lexicon.caProvinces.contains(region) : Lexicon.usStates.contains(region) else { return nil }
        let (before, city) = splitLastComma(g[1])
        guard !city.isEmpty else { return nil }
        return CityLine(before: before, city: city, region: region, postalCode: g[3], country: country)
    }

    /// A Canadian postal code (A1A 1A1) with OCR's letter/digit confusions undone by position;
    /// nil when it cannot be one.
    static func canadianPostcode(_ raw: String) -> String? {
        let chars = Array(raw.filter { $0 != " " })
        guard chars.count == 6 else { return nil }
        let toLetter: [Character: Character] = ["0": "O", "1": "I", "5": "S", "8": "B", "2": "Z", "6": "G"]
        let toDigit: [Character: Character] = ["O": "0", "D": "0", "Q": "0", "I": "1", "L": "1", "S": "5", "B": "8", "Z": "2", "G": "6"]
        var out: [Character] = []
        for (i, c) in chars.enumerated() {
            let fixed: Character = i % 2 == 0 ? (c.isLetter ? c : toLetter[c] ?? c) : (c.isNumber ? c : toDigit[c] ?? c)
            guard i % 2 == 0 ? fixed.isLetter : fixed.isNumber else { return nil }
            out.append(fixed)
        }
        // Keep the spacing as printed.
        return String(out[0..<3]) + (raw.contains(" ") ? " " : "") + String(out[3..<6])
    }

    /// "Suburb NSW 2000" (Australia).
    static func australian(_ line: String) -> CityLine? {
        let (body, country) = splitCountry(line)
        guard let g = match(body, #"^(.*?)[,.]?\s+(NSW|VIC|QLD|WA|SA|TAS|ACT|NT)[,.]?\s+(\d{4})\s*$"#) else { return nil }
        let (before, city) = splitLastComma(g[1])
        guard !city.isEmpty else { return nil }
        return CityLine(before: before, city: city, region: g[2], postalCode: g[3], country: country)
    }

    /// "Town POSTCODE" (United Kingdom, Ireland's Eircode not included). A postcode's digit
    /// positions read as letters by OCR ("GO 5DB", "JE1 SHR") are turned back into digits.
    static func british(_ line: String) -> CityLine? {
        let (body, country) = splitCountry(line)
        guard let g = match(body, #"^(.*?)[,.]?\s+([A-Z]{1,2})([0-9OIl][A-Z0-9]?)(\s?)([0-9OISl])([A-Z]{2})\s*$"#) else { return nil }
        let digit: (Character) -> Character = { ["O": "0", "I": "1", "l": "1", "S": "5"][$0] ?? $0 }
        var district = g[3]
        if let first = district.first { district = String(digit(first)) + district.dropFirst() }
        let inward = String(g[5].map(digit)) + g[6]
        let (before, city) = splitLastComma(g[1])
        guard !city.isEmpty, city.contains(where: \.isLetter) else { return nil }
        return CityLine(before: before, city: city, region: nil, postalCode: g[2] + district + g[4] + inward, country: country)
    }

    /// "Town D02 X285" (Ireland's Eircode: a routing key and a four-character identifier).
    static func irish(_ line: String) -> CityLine? {
        let (body, country) = splitCountry(line)
        guard let g = match(body, #"^(.*?)[,.]?\s+((?:[AC-FHKNPRTV-Y][0-9]{2}|D6W)\s?[0-9AC-FHKNPRTV-Y]{4})\s*$"#) else { return nil }
        let (before, city) = splitLastComma(g[1])
        guard !city.isEmpty, city.contains(where: \.isLetter) else { return nil }
        return CityLine(before: before, city: city, region: nil, postalCode: g[2], country: country)
    }

    /// "12345 City" (Germany, France, Switzerland, Austria; "1234 AB City" in the Netherlands).
    static func continental(_ line: String) -> CityLine? {
        let (body, country) = splitCountry(line)
        // Either the whole line, or "street, 12345 City".
        let (before, rest) = splitLastComma(body)
        let candidates = before.isEmpty ? [("", body)] : [(before, rest), ("", body)]
        for (b, text) in candidates {
            if let g = match(text, #"^(?:[A-Z]{1,2}-)?(\d{4,5}|\d{4}\s?[A-Z]{2})\s+(\p{Lu}[\p{L}\p{M}.' -]+?)\s*$"#) {
                return CityLine(before: b, city: g[2], region: nil, postalCode: g[1], country: country)
            }
        }
        return nil
    }

    static func splitLastComma(_ s: String) -> (String, String) {
        guard let comma = s.lastIndex(of: ",") else { return ("", s.trimmingCharacters(in: .whitespaces)) }
        return (String(s[..<comma]).trimmingCharacters(in: .whitespaces),
                String(s[s.index(after: comma)...]).trimmingCharacters(in: .whitespaces))
    }
}

/// Finds a postal address: the city line by its postcode pattern, the street line before it.
enum AddressExtractor {
    struct Result {
        var address: PostalAddress?
        var consumedLines: Set<Int> = []
    }

    static func extract(from lines: [CardLine], skip: Set<Int>, region: String? = nil) -> Result {
        // Strongest patterns first, over all lines: "12345 Name" could be a US street line as
        // well as a German city line, so the continental pattern only counts when nothing else
        // does, and never on a card from a country that writes the postcode after the city.
        var patterns: [(String) -> AddressPatterns.CityLine?] = [
            AddressPatterns.northAmerican, AddressPatterns.australian, AddressPatterns.british, AddressPatterns.irish,
        ]
        if !["US", "CA", "GB", "AU", "NZ", "IE"].contains(region ?? "") { patterns.append(AddressPatterns.continental) }
        for pattern in patterns {
            for (pos, line) in lines.enumerated() where !skip.contains(line.index) {
                guard let city = pattern(line.text) else { continue }
                return build(city, at: pos, in: lines, skip: skip)
            }
        }
        return Result()
    }

    private static func build(_ city: AddressPatterns.CityLine, at pos: Int, in lines: [CardLine], skip: Set<Int>) -> Result {
        var result = Result()
        let line = lines[pos]
        var address = PostalAddress(lines: [], city: city.city, region: city.region, postalCode: city.postalCode,
                                    country: city.country)
        var consumed: Set<Int> = [line.index]
        var printed: [String] = []
        if !city.before.isEmpty {
            address.street = city.before
        } else {
            // The nearest line above that no other field took (a two-column card puts a phone or an
            // e-mail between them in reading order), if it looks like a street.
            var k = pos - 1
            while k >= 0, pos - k <= 3, skip.contains(lines[k].index) { k -= 1 }
            if k >= 0, pos - k <= 3, looksLikeStreet(lines[k].text) {
                address.street = lines[k].text
                consumed.insert(lines[k].index)
                printed.append(lines[k].text)
            }
        }
        printed.append(line.text)
        // A country on the next line.
        if pos + 1 < lines.count, address.country == nil {
            let next = lines[pos + 1].text.trimmingCharacters(in: CharacterSet.punctuationCharacters.union(.whitespaces))
            if Lexicon.countries[next.lowercased()] != nil {
                address.country = next
                consumed.insert(lines[pos + 1].index)
                printed.append(lines[pos + 1].text)
            }
        }
        address.lines = printed
        result.address = address
        result.consumedLines = consumed
        return result
    }

    /// A street line has a house number or a street word, and no '@'.
    static func looksLikeStreet(_ text: String) -> Bool {
        guard !text.contains("@") else { return false }
        if text.contains(where: \.isNumber) { return true }
        let words = text.lowercased().split(whereSeparator: { !$0.isLetter && $0 != "." })
        return words.contains { Lexicon.streetWords.contains(String($0)) }
    }
}
