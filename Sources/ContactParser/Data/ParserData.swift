import CPhoneNumber
import Foundation

/// One country's address conventions, from Google's address metadata.
struct AddressFormat: Sendable {
    struct Subregion: Sendable {
        var key: String
        var name: String
        var latinName: String
    }

    var region: String
    /// The postcode pattern (whole postcode), nil when the country has none.
    var postcode: NSRegularExpression?
    var postcodeExamples: [String]
    /// The Latin-script format when there is one, else the native one ("%N%n%O%n%A%n%Z %C").
    var format: String
    var subregions: [Subregion]
    var languages: [String]
    /// Where the postcode stands relative to the locality (computed once from `format`).
    var placement: PostcodePlacement = .afterLocality
    /// True when the format puts the sub-region (state, province) before the postcode.
    var subregionBeforePostcode = false
    /// True when the format prints the sub-region on the locality's line, after it ("%C-%S",
    /// "%C, %S %Z"): a card may print the two without the postcode.
    var subregionFollowsLocality = false
    /// The code the format writes before the postcode ("CH" of "CH-%Z", "LT" of "LT-%Z %C"), nil
    /// when none: the code of international mail.
    var postcodeCode: String?
    /// The country's code its post writes as part of the postcode ("LT-" of "LT-%Z %C"), nil when
    /// none: of the countries with a `postcodeCode`, Lithuania's and Moldova's posts make it part of
    /// the postcode itself.
    var postcodePrefix: String?
    static let prefixedPostcodes: Set<String> = ["LT", "MD"]
    /// A place name the format spells out before the postcode ("SINGAPORE %Z"), nil when none.
    var literalLocality: String?
    /// Lower-case keys, names and Latin names of the sub-regions, for lookups.
    var subregionIndex: [String: Int] = [:]

    init(region: String, postcode: NSRegularExpression?, postcodeExamples: [String], format: String, subregions: [Subregion],
         languages: [String]) {
        self.region = region
        self.postcode = postcode
        self.postcodeExamples = postcodeExamples
        self.format = format
        self.subregions = subregions
        self.languages = languages
        literalLocality = Self.literalLocality(in: format)
        placement = Self.placement(of: format, literal: literalLocality)
        if let s = format.range(of: "%S"), let z = format.range(of: "%Z") { subregionBeforePostcode = s.lowerBound < z.lowerBound }
        if let z = format.range(of: "-%Z"), format.distance(from: format.startIndex, to: z.lowerBound) >= 2,
           case let code = String(format[format.index(z.lowerBound, offsetBy: -2)..<z.lowerBound]), code.allSatisfy(\.isUppercase) {
            postcodeCode = code
            if Self.prefixedPostcodes.contains(region), code == region { postcodePrefix = code + "-" }
        }
        subregionFollowsLocality = !subregions.isEmpty && format.components(separatedBy: "%n").contains { line in
            guard let c = line.range(of: "%C"), let s = line.range(of: "%S") else { return false }
            return c.upperBound <= s.lowerBound
        }
        for (i, s) in subregions.enumerated() {
            for k in [s.key, s.name, s.latinName] where subregionIndex[k.lowercased()] == nil { subregionIndex[k.lowercased()] = i }
        }
    }

    /// Where the postcode stands relative to the locality in the format: before ("%Z %C"), after
    /// ("%C, %S %Z" / "%C%n%Z"), or the format names no locality (Japan's Latin format puts the ward
    /// in the address lines).
    enum PostcodePlacement: Sendable { case beforeLocality, afterLocality, noLocality }

    static func placement(of format: String, literal: String?) -> PostcodePlacement {
        let tokens = format.replacingOccurrences(of: "%n", with: " ").components(separatedBy: "%").compactMap(\.first)
        guard let z = tokens.firstIndex(of: "Z") else { return .afterLocality }
        guard let c = tokens.firstIndex(of: "C") else {
            // A locality written into the format itself ("SINGAPORE %Z") stands before the postcode.
            return literal != nil ? .afterLocality : .noLocality
        }
        return z < c ? .beforeLocality : .afterLocality
    }

    static func literalLocality(in format: String) -> String? {
        guard let z = format.range(of: "%Z") else { return nil }
        let before = format[..<z.lowerBound].components(separatedBy: "%n").last ?? ""
        let words = before.split(separator: " ").filter { !$0.hasPrefix("%") && $0.count >= 3 && $0.allSatisfy(\.isLetter) }
        return words.isEmpty ? nil : words.joined(separator: " ")
    }
}

/// The data the parser leans on, loaded once from the generated sources (see Data/README.md).
enum ParserData {
    /// Address conventions per region (ISO 3166 alpha-2).
    static let addressFormats: [String: AddressFormat] = {
        var out: [String: AddressFormat] = [:]
        let lines = AddressMetadataSource.raw.split(separator: "\n", omittingEmptySubsequences: false)
        guard let header = lines.first?.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) else { return [:] }
        for line in lines.dropFirst() {
            let cols = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard cols.count == header.count else { continue }
            var f: [String: String] = [:]
            for (k, v) in zip(header, cols) { f[k] = v }
            let code = f["code"] ?? ""
            let zip = f["zip"] ?? ""
            let regex = zip.isEmpty ? nil : try? NSRegularExpression(pattern: "^(?:" + zip + ")$", options: [.caseInsensitive])
            func list(_ key: String) -> [String] {
                (f[key] ?? "").isEmpty ? [] : (f[key] ?? "").components(separatedBy: "~")
            }
            let keys = list("sub_keys"), names = list("sub_names"), latin = list("sub_lnames")
            let subregions = keys.indices.map { i in
                AddressFormat.Subregion(key: keys[i], name: i < names.count ? names[i] : keys[i],
                                        latinName: i < latin.count ? latin[i] : (i < names.count ? names[i] : keys[i]))
            }
            let lfmt = f["lfmt"] ?? ""
            out[code] = AddressFormat(region: code, postcode: regex, postcodeExamples: list("zipex").flatMap { $0.components(separatedBy: ",") },
                                      format: lfmt.isEmpty ? (f["fmt"] ?? "%A%n%C") : lfmt, subregions: subregions,
                                      languages: list("languages"))
        }
        return out
    }()

    /// Legal-form terms (lower case, as written: "gmbh", "s.r.l.", "pty ltd", "sp. z o.o."), from cleanco.
    static let legalForms: Set<String> = {
        var out = Set<String>()
        for line in LegalFormsSource.raw.split(separator: "\n") {
            let cols = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard cols.count == 3 else { continue }
            let term = cols[2].trimmingCharacters(in: .whitespaces).lowercased()
            // Drop terms that are everyday words in the languages on cards ("at", "and company" is fine).
            guard !term.isEmpty, !["at", "da", "ad", "ee", "et", "ec", "ei", "ij", "og", "sd", "mb", "pp", "bl", "ba", "as oy"].contains(term)
            else { continue }
            out.insert(term)
        }
        return out
    }()

    /// The legal forms written without dots and spaces ("s.p.a." -> "spa", "sp. z o.o." -> "spzoo"),
    /// for OCR that drops or adds them; two letters at least.
    static let compactLegalForms: Set<String> = Set(legalForms.map(compactForm).filter { $0.count >= 2 })

    static func compactForm(_ s: String) -> String {
        String(fold(s).filter { $0.isLetter || $0 == "&" || $0 == "/" })
    }

    /// True when `term` (one or more words) is a legal form, with or without its dots.
    static func isLegalForm(_ term: String) -> Bool {
        let t = term.lowercased().trimmingCharacters(in: ParserCharacters.commaAndSpace)
        if legalForms.contains(t) || legalForms.contains(t + ".") { return true }
        let c = compactForm(t)
        return c.count >= 2 && compactLegalForms.contains(c)
    }

    /// The countries whose companies use a legal form (cleanco's terms by country), by the form's
    /// letters: "gmbh" -> DE, AT, CH; "scoop" -> ES.
    static let legalFormCountries: [String: Set<String>] = {
        var out: [String: Set<String>] = [:]
        for line in LegalFormsSource.raw.split(separator: "\n") {
            let cols = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard cols.count == 3, cols[0] == "country", let code = regionNamed(String(cols[1])) else { continue }
            let key = compactForm(String(cols[2]))
            guard key.count >= 2 else { continue }
            out[key, default: []].insert(code)
        }
        return out
    }()

    /// The system's Public Suffix List, or why it could not be read.
    static let publicSuffixList = Result { () throws(ContactParserError) in try PublicSuffixList.system() }

    /// Public suffixes of one or two labels (ICANN section of the Public Suffix List); empty
    /// when the list could not be read (`Domains.publicSuffix` then goes by shape).
    static let publicSuffixes: Set<String> = (try? publicSuffixList.get())?.suffixes ?? []

    /// Top-level domains (one label).
    static let topLevelDomains: Set<String> = Set(publicSuffixes.filter { !$0.contains(".") })

    /// Regions libphonenumber knows (two-letter codes).
    static let phoneRegions: Set<String> = {
        var buffer = [CChar](repeating: 0, count: 1024)
        let n = Int(cs_phone_supported_regions(&buffer, Int32(buffer.count)))
        var out = Set<String>()
        for i in 0..<n {
            let chars = [buffer[2 * i], buffer[2 * i + 1]].map { UInt8(bitPattern: $0) }
            out.insert(String(decoding: chars, as: UTF8.self))
        }
        return out
    }()

    /// Country-code top-level domains that are marketed worldwide and say nothing of the country.
    static let genericCountryDomains: Set<String> = ["co", "io", "ai", "tv", "me", "fm", "ws", "cc", "to", "ly", "gg", "am", "la", "vc", "sh", "ac"]

    /// The region a domain's top-level label names: ISO 3166 codes, with "uk" for GB; nil for
    /// generic domains and country domains used generically.
    static func region(forTopLevelDomain tld: String) -> String? {
        let t = tld.lowercased()
        if t == "uk" { return "GB" }
        guard t.count == 2, !genericCountryDomains.contains(t), topLevelDomains.contains(t) else { return nil }
        let code = t.uppercased()
        return phoneRegions.contains(code) || addressFormats[code] != nil ? code : nil
    }

    /// Country names, lower case and with accents as written and folded, in the languages cards
    /// are printed in (Foundation's names of every region), plus the usual short forms.
    static let countryNames: [String: String] = {
        var out: [String: String] = [:]
        let languages = ["en", "de", "fr", "es", "it", "pt", "nl", "sv", "da", "nb", "nn", "fi", "pl", "cs", "sk", "hu", "ro",
                         "hr", "sl", "el", "tr", "ru", "ja", "zh", "ko", "id", "ms", "ca", "et", "lv", "lt", "is", "ga"]
        let locales = languages.map { Locale(identifier: $0) }
        for region in Locale.Region.isoRegions where region.identifier.count == 2 && region.identifier.allSatisfy(\.isLetter) {
            let code = region.identifier
            for locale in locales {
                guard let name = locale.localizedString(forRegionCode: code) else { continue }
                let lower = name.lowercased()
                if out[lower] == nil { out[lower] = code }
                let folded = fold(lower)
                if out[folded] == nil { out[folded] = code }
            }
        }
        let short: [String: String] = [
            "usa": "US", "u.s.a.": "US", "u.s.a": "US", "us": "US", "u.s.": "US", "united states of america": "US",
            "uk": "GB", "u.k.": "GB", "great britain": "GB", "england": "GB", "scotland": "GB", "wales": "GB",
            "northern ireland": "GB", "holland": "NL", "the netherlands": "NL", "uae": "AE", "korea": "KR",
            "south korea": "KR", "republic of korea": "KR", "czechia": "CZ", "czech republic": "CZ", "russia": "RU",
            "hong kong": "HK", "macau": "MO", "taiwan": "TW", "vietnam": "VN", "viet nam": "VN", "nippon": "JP",
        ]
        for (k, v) in short { out[k] = v }
        return out
    }()

    /// The region named by a whole string ("Deutschland", "Sverige", "U.K."), nil when none.
    static func regionNamed(_ text: String) -> String? {
        let t = text.trimmingCharacters(in: ParserCharacters.nameEnds).trimmingCharacters(in: .whitespaces).lowercased()
        guard t.count >= 2 else { return nil }
        if let code = countryNames[t] { return code }
        // Lower-case ASCII folds to itself: the lookup above was the folded one.
        if t.utf8.allSatisfy({ $0 < 0x80 }) { return nil }
        return countryNames[fold(t)]
    }

    /// Lower case, accents folded.
    static func fold(_ s: String) -> String {
        s.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased()
    }
}

/// Given and family names (Faker's lists, three quarters of them: see scripts/generate_name_data.py).
enum PersonNames {
    /// Lower case with accents folded (OCR drops them): "cäcilia" is listed as "cacilia"; looked
    /// up by the hash of the name.
    static let given = HashedTable(base64: PersonNamesSource.given)
    static let family = HashedTable(base64: PersonNamesSource.family)

    /// True when `word` is a listed given name, whatever its case and accents.
    static func isGiven(_ word: some StringProtocol) -> Bool { given.contains(ParserData.fold(word.lowercased())) }

    /// True when `word` is a listed given or family name, whatever its case and accents.
    static func isListed(_ word: some StringProtocol) -> Bool {
        let folded = ParserData.fold(word.lowercased())
        return given.contains(folded) || family.contains(folded)
    }
}
