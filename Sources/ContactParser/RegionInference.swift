import CPhoneNumber
import Foundation

/// The country a card is from, and what said so.
public struct RegionGuess: Sendable, Equatable {
    /// ISO 3166 alpha-2.
    public var code: String
    /// The evidence: "country-name", "phone-prefix", "domain", "postcode", "script", or, when the
    /// card said nothing, "option" (the caller's region) or "locale" (the environment's).
    public var sources: [String]

    public init(code: String, sources: [String]) {
        self.code = code
        self.sources = sources
    }
}

extension RegionGuess {
    /// Every country a card's own clues name, each alone: the country-code domains of its e-mail
    /// and web addresses, and the calling codes of the numbers it prints with one ("+886 2 ...").
    /// Where OCR misread one clue (+62 for +82, .co.br for .co.kr) the country the votes pick can
    /// be another; the caller looks among these for the one it is after.
    public static func countriesNamed(emails: [String], urls: [String], numbers: [String]) -> Set<String> {
        Set(numbers.flatMap { RegionInference.internationalRegions(in: $0) }).union(RegionInference.domainRegions(emails: emails, urls: urls))
    }
}

/// Infers the card's country from what it prints, weighing every clue: a country name (in any of
/// the languages Foundation names regions in), the international prefix of its numbers
/// (libphonenumber), the country-code domain of its e-mail and web addresses (the Public Suffix
/// List), a postcode of the country's shape in the place its address format puts it (Google's
/// address metadata), and the script of its text. Nil when nothing says.
enum RegionInference {
    static func infer(lines cardLines: [CardLine], emails: [String], urls: [String]) -> RegionGuess? {
        // Lines OCR read with little confidence are mostly texture read as letters: they say nothing.
        let lines = cardLines.filter { $0.confidence >= sureLine }.map(\.text)
        var votes: [String: Double] = [:]
        var sources: [String: Set<String>] = [:]
        func vote(_ code: String, _ weight: Double, _ source: String) {
            votes[code, default: 0] += weight
            sources[code, default: []].insert(source)
        }
        var namedCountries = Set<String>()
        for line in lines {
            if let code = ParserData.regionNamed(line) {
                namedCountries.insert(code)
            } else if line.contains(","), let last = line.split(separator: ",").last, let code = ParserData.regionNamed(String(last)) {
                namedCountries.insert(code)
            }
        }
        for code in namedCountries { vote(code, 5, "country-name") }
        for code in prefixRegions(cardLines) { vote(code, 3, "phone-prefix") }
        for code in domainRegions(emails: emails, urls: urls) { vote(code, 2, "domain") }
        for (code, weight) in postcodeVotes(lines: lines) { vote(code, weight, "postcode") }
        if let code = scriptRegion(lines.joined(separator: " ")) { vote(code, 2, "script") }
        for (code, weight) in legalFormVotes(lines: lines) { vote(code, weight, "legal-form") }
        for (code, weight) in subregionVotes(lines: lines) { vote(code, weight, "subregion") }
        // National numbers valid in some of the countries other clues name tip the balance.
        let candidates = Set(votes.keys)
        if candidates.count >= 2 {
            for (code, weight) in nationalNumberVotes(lines: lines, candidates: candidates) { vote(code, weight, "phone-number") }
        }
        if (votes.values.max() ?? 0) <= minimumEvidence, let code = homeOfNationalNumbers(lines: lines) {
            vote(code, homeNumbersWeight, "phone-number")
        }
        guard let best = votes.max(by: { $0.value == $1.value ? $0.key > $1.key : $0.value < $1.value }) else { return nil }
        // One weak clue alone (a legal form, a postcode's shape, a sub-region, each worth 1.5 at
        // most) names the wrong country about as often as the right one, and a wrong country
        // reads the numbers wrong: numbers kept as printed are better than numbers misread.
        guard best.value > minimumEvidence else { return nil }
        let order = ["country-name", "phone-prefix", "domain", "postcode", "script", "legal-form", "subregion", "phone-number"]
        return RegionGuess(code: best.key, sources: order.filter { sources[best.key]?.contains($0) == true })
    }

    /// The language of the card's country when no clue names the country surely but the weak
    /// clues (a legal form, a postcode's shape, a sub-region) name only countries of one language
    /// ("… AG": Germany and Austria): enough to read the card's letters in it, not to
    /// read its numbers in one of those countries. Nil when they name none, or several languages.
    static func sharedLanguage(lines cardLines: [CardLine]) -> String? {
        let lines = cardLines.filter { $0.confidence >= sureLine }.map(\.text)
        let forms = lines.map { legalFormVotes(lines: [$0]).keys }
        // A legal form is no sub-region's key ("AG" of "… AG" is not Aargau's).
        let unformed = zip(lines, forms).filter { $0.1.isEmpty }.map(\.0)
        let candidates = Set(forms.joined()).union(postcodeVotes(lines: lines).keys).union(subregionVotes(lines: unformed).keys)
        let languages = Set(candidates.map { ContactParser.languages(ofRegion: $0).first ?? "" })
        guard languages.count == 1, let language = languages.first, !language.isEmpty, language != "en" else { return nil }
        return language
    }

    /// OCR confidence from which a line's words count as evidence (below it, mostly texture read as letters).
    static let sureLine = 0.45

    /// The weight of evidence a region must exceed to be said.
    static let minimumEvidence = 1.5

    /// The countries of the country-code domains of the card's e-mail and web addresses.
    static func domainRegions(emails: [String], urls: [String]) -> Set<String> {
        Set(Domains.hosts(emails: emails, urls: urls).compactMap { host in
            host.split(separator: ".").last.flatMap { ParserData.region(forTopLevelDomain: String($0)) }
        })
    }

    /// Regions of the card's numbers printed with an international prefix: on the lines read
    /// surely, and, on the others, those valid in their calling code's plan (such a number is no
    /// texture, however unsure the line it is on).
    static func prefixRegions(_ lines: [CardLine]) -> Set<String> {
        var out = Set<String>()
        for line in lines {
            out.formUnion(internationalRegions(in: line.text, validOnly: line.confidence < sureLine))
        }
        return out
    }

    /// Regions of the numbers printed with an international prefix ("+81 52-858-6777"); with
    /// `validOnly`, only of those valid in their calling code's plan.
    static func internationalRegions(in line: String, validOnly: Bool = false) -> [String] {
        guard line.contains("+") else { return [] }
        var out: [String] = []
        for m in PhoneNumbers.find(in: PhoneExtractor.repairDigits(line), region: "ZZ") where m.printed.hasPrefix("+") {
            if let region = m.region, m.valid {
                out.append(region)
            } else if !validOnly, m.countryCode > 0, let region = PhoneNumbers.mainRegion(forCallingCode: m.countryCode) {
                out.append(region)
            }
        }
        return out
    }

    /// Regions whose postcode, in the place their address format puts it, a line shows. A line
    /// whose sub-region is one of the country's own ("IL", "NSW", "Uttar Pradesh") says so clearly;
    /// otherwise the vote is shared among the countries the line fits (five digits fit forty), and
    /// a line that fits too many says nothing.
    static func postcodeVotes(lines: [String]) -> [String: Double] {
        var out: [String: Double] = [:]
        for line in lines where line.contains(where: \.isNumber) && !hasEmail(line) {
            var specific = Set<String>(), fits = Set<String>()
            for (format, cl) in AddressExtractor.cityLines(line) where !cl.joinedDigits {
                fits.insert(format.region)
                if cl.region != nil, !format.subregions.isEmpty { specific.insert(format.region) }
            }
            // The country's code printed before its postcode, as its format writes it ("LT-01103",
            // "CH-8001"): that country.
            if let prefixed = prefixedPostcodeRegion(line) { specific = [prefixed] }
            if !specific.isEmpty, specific.count <= 3 {
                for code in specific { out[code, default: 0] += 2.5 / Double(specific.count) }
            } else if !fits.isEmpty, fits.count <= 6 {
                for code in fits { out[code, default: 0] += 1.5 / Double(fits.count) }
            }
        }
        return out
    }

    /// The region whose address format writes a code before the postcode ("CH-%Z", "LT-%Z") when
    /// the line prints that code, a hyphen and a postcode of that region ("CH-8001 Zürich").
    static func prefixedPostcodeRegion(_ line: String) -> String? {
        for token in line.split(separator: " ") where token.count >= 5 {
            let chars = Array(token)
            guard chars[2] == "-", chars[0].isUppercase, chars[1].isUppercase, chars[3].isNumber,
                  let region = postcodeCodes[String(chars[0...1])], let format = ParserData.addressFormats[region],
                  AddressExtractor.postcode(String(chars[3...]).trimmingCharacters(in: ParserCharacters.postcodePunctuation), format: format) != nil
            else { continue }
            return region
        }
        return nil
    }

    /// The codes address formats write before a postcode ("CH" of "CH-%Z"), and their regions.
    static let postcodeCodes: [String: String] = {
        var out: [String: String] = [:]
        for (region, format) in ParserData.addressFormats { if let code = format.postcodeCode { out[code] = region } }
        return out
    }()

    /// Countries whose companies use the legal form a line ends with ("S.L.L." -> Spain, "Oy" ->
    /// Finland), the vote shared among them.
    static func legalFormVotes(lines: [String]) -> [String: Double] {
        var out: [String: Double] = [:]
        for line in lines {
            let tokens = line.lowercased().split(separator: " ").map { $0.trimmingCharacters(in: ParserCharacters.comma) }
            guard tokens.count >= 2 else { continue }
            for n in [3, 2, 1] where tokens.count > n {
                let term = ParserData.compactForm(tokens.suffix(n).joined(separator: " "))
                guard term.count >= 2, let countries = ParserData.legalFormCountries[term], countries.count <= 4 else { continue }
                for code in countries { out[code, default: 0] += 1.5 / Double(countries.count) }
                break
            }
        }
        return out
    }

    /// Countries whose state or province a line names (Google's address metadata): its name as a
    /// part of the line between separators ("Av. Paulista, 900 - São Paulo"), or its key as the
    /// line's last part ("... Centro - SP", "Austin, TX"), the vote shared among the countries
    /// that have it. Keys are short and shared by many countries: they weigh less.
    static func subregionVotes(lines: [String]) -> [String: Double] {
        var out: [String: Double] = [:]
        for line in lines where !hasEmail(line) {
            let parts = line.replacingOccurrences(of: " - ", with: ",").components(separatedBy: CharacterSet(charactersIn: ",/|–("))
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            var named = Set<String>()
            for part in parts where part.count >= 4 {
                named.formUnion(subregionNames[ParserData.fold(part)] ?? [])
            }
            // The key as the line's last word, after a separator or a hyphen: "Centro - SP", "Fernandes-SP".
            let tail = line.split(whereSeparator: { " ,-/|".contains($0) })
            if tail.count >= 2, let last = tail.last.map(String.init)?.trimmingCharacters(in: ParserCharacters.debris), (2...3).contains(last.count),
               last.allSatisfy({ $0.isUppercase && $0.isLetter }), let keyed = subregionKeys[last], keyed.count <= 4 {
                for code in keyed { out[code, default: 0] += 1 / Double(keyed.count) }
            }
            if !named.isEmpty, named.count <= 3 {
                for code in named { out[code, default: 0] += 1.5 / Double(named.count) }
            }
        }
        return out
    }

    /// Sub-region names (folded, four letters or more) and keys (upper case) to their countries.
    static let subregionNames: [String: Set<String>] = {
        var out: [String: Set<String>] = [:]
        for (code, format) in ParserData.addressFormats {
            for s in format.subregions {
                for name in [s.name, s.latinName] where name.count >= 4 { out[ParserData.fold(name), default: []].insert(code) }
            }
        }
        return out
    }()

    static let subregionKeys: [String: Set<String>] = {
        var out: [String: Set<String>] = [:]
        for (code, format) in ParserData.addressFormats {
            for s in format.subregions where s.key.allSatisfy({ $0.isUppercase && $0.isLetter }) { out[s.key, default: []].insert(code) }
        }
        return out
    }()

    /// A line with an e-mail address in it (a word with text before its "@" and a dot after it),
    /// not a line where OCR read an icon as "@".
    static func hasEmail(_ line: String) -> Bool {
        line.split(separator: " ").contains { word in
            guard let at = word.firstIndex(of: "@"), at > word.startIndex else { return false }
            return word[word.index(after: at)...].contains(".")
        }
    }

    /// Candidate countries in which the card's national numbers (no "+") are valid numbers.
    static func nationalNumberVotes(lines: [String], candidates: Set<String>) -> [String: Double] {
        var out: [String: Double] = [:]
        for printed in nationalNumbers(lines: lines, minimumDigits: 7) {
            let valid = candidates.filter { PhoneNumbers.parse(printed, region: $0)?.valid == true }
            guard !valid.isEmpty, valid.count < candidates.count else { continue }
            for code in valid { out[code, default: 0] += 1 }
        }
        return out
    }

    /// The one country whose plan holds two or more of the card's numbers printed with a trunk
    /// prefix ("030 12345678", "0151 23456789") and as that country prints them at home: the same
    /// groups of digits as its national format (`PhoneNumbers.region(ofPrintedNumbers:)`). For a
    /// card that names no country surely otherwise. Numbers without a trunk prefix ("4821-3967",
    /// "(555) 201-3344") look alike in too many plans to say.
    static func homeOfNationalNumbers(lines: [String]) -> String? {
        let numbers = nationalNumbers(lines: lines, minimumDigits: 8).filter { $0.drop(while: { $0 == "(" }).first == "0" }
        guard numbers.count >= 2, let code = PhoneNumbers.region(ofPrintedNumbers: numbers, among: PhoneNumbers.supportedRegions),
              numbers.filter({ PhoneNumbers.nationalFormat($0, region: code) != nil }).count >= 2 else { return nil }
        return code
    }

    /// The numbers of `lines` printed without a calling code (no "+" on their line), of at least
    /// `minimumDigits` digits, as printed (OCR's letters in digit runs repaired).
    static func nationalNumbers(lines: [String], minimumDigits: Int) -> [String] {
        lines.filter { !$0.contains("+") && $0.filter(\.isNumber).count >= minimumDigits }.flatMap { line in
            PhoneExtractor.nationalRuns(PhoneExtractor.repairDigits(line)).map(\.1).filter { $0.filter(\.isNumber).count >= minimumDigits }
        }
    }

    /// What the card's national numbers weigh when nothing else names a country: enough alone.
    static let homeNumbersWeight = 2.0

    /// A region the script of the text points to: kana to Japan, hangul to Korea, Thai, Greek;
    /// Han alone and Cyrillic are shared by too many countries to say more than a little.
    static func scriptRegion(_ text: String) -> String? {
        var kana = 0, hangul = 0, thai = 0, greek = 0, han = 0, cyrillic = 0
        for u in text.unicodeScalars {
            switch u.value {
            case 0x3040...0x30FF: kana += 1
            case 0xAC00...0xD7AF, 0x1100...0x11FF: hangul += 1
            case 0x0E00...0x0E7F: thai += 1
            case 0x0370...0x03FF: greek += 1
            case 0x4E00...0x9FFF: han += 1
            case 0x0400...0x04FF: cyrillic += 1
            default: break
            }
        }
        if kana >= 2 { return "JP" }
        if hangul >= 2 { return "KR" }
        if thai >= 2 { return "TH" }
        if greek >= 4 { return "GR" }
        if han >= 4 { return "CN" }
        if cyrillic >= 4 { return "RU" }
        return nil
    }
}
