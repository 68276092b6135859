import Foundation

/// Finds a postal address for any country, driven by Google's address metadata: a postcode of the
/// card's country (its pattern, with OCR's letter-for-digit slips undone by the shape of the
/// country's example postcodes) in the place the country's address format puts it, the locality
/// and sub-region beside it, the street line(s) before, and a country line after.
enum AddressExtractor {
    struct Result {
        var address: PostalAddress?
        var consumedLines: Set<Int> = []
    }

    /// A line holding a postcode where the format puts it, taken apart.
    struct CityLine: Equatable {
        /// Text before the locality on the same line (the street of a one-line address), maybe empty.
        var before: String
        /// The locality; nil when the format keeps it elsewhere (Japan: the last part of the address lines).
        var city: String?
        var region: String?
        /// Nil for a locality and sub-region printed without a postcode (`subregionLine`).
        var postalCode: String?
        var country: String?
        /// How many characters of the postcode OCR had to be corrected in.
        var repairs: Int = 0
        /// True when the postcode is two groups of digits joined ("933 04" read as 93304), or was
        /// glued to its locality ("37412Herzberg"): with no country known, that says nothing of one.
        var joinedDigits = false
    }

    // MARK: - Postcodes

    /// Countries that share a postcode pattern and examples (forty use five digits), tested once.
    struct PostcodeFamily {
        var regex: NSRegularExpression
        var examples: [String]
        var formats: [AddressFormat]
        /// The examples' shapes without spaces: true for a digit, false for a letter, nil otherwise.
        var shapes: [[Bool?]] = []
        /// True when some example has no digit (Bermuda's "HM GX"). Elsewhere a postcode holds a
        /// digit, however loose the pattern (Ireland's allows any seven letters: "AND SONS").
        var lettersOnly: Bool { examples.contains { !$0.contains(where: \.isNumber) } }
    }

    static let families: [PostcodeFamily] = {
        var byKey: [String: PostcodeFamily] = [:]
        for code in ParserData.addressFormats.keys.sorted() {
            guard let format = ParserData.addressFormats[code], let re = format.postcode else { continue }
            let key = re.pattern + "|" + format.postcodeExamples.joined(separator: ",")
            if byKey[key] == nil {
                var shapes: [[Bool?]] = []
                for e in format.postcodeExamples {
                    let sh: [Bool?] = e.filter { $0 != " " }.map { $0.isNumber ? true : ($0.isLetter ? false : nil) }
                    if !shapes.contains(sh) { shapes.append(sh) }
                }
                byKey[key] = PostcodeFamily(regex: re, examples: format.postcodeExamples, formats: [], shapes: shapes)
            }
            byKey[key]?.formats.append(format)
        }
        return byKey.keys.sorted().compactMap { byKey[$0] }
    }()

    /// The family of each region.
    static let familyOfRegion: [String: Int] = {
        var out: [String: Int] = [:]
        for (i, f) in families.enumerated() { for format in f.formats { out[format.region] = i } }
        return out
    }()

    /// The shape of a string: letters as "A", digits as "9", spaces dropped ("S1B 0PA" -> "A9A9AA").
    static func shape(_ s: String) -> String {
        String(s.compactMap { c -> Character? in c == " " ? nil : (c.isLetter ? "A" : (c.isNumber ? "9" : c)) })
    }

    /// Families by the shapes of their example postcodes (with and without their separators), and
    /// by their examples' lengths (for candidates with look-alike characters to repair).
    static let familiesByShape: [String: [Int]] = {
        var out: [String: [Int]] = [:]
        for (i, f) in families.enumerated() {
            var shapes = Set<String>()
            for e in f.examples {
                let sh = shape(e)
                shapes.insert(sh)
                shapes.insert(sh.replacingOccurrences(of: "-", with: ""))
            }
            for sh in shapes { out[sh, default: []].append(i) }
        }
        return out
    }()

    static let familiesByLength: [Int: [Int]] = {
        var out: [Int: [Int]] = [:]
        for (i, f) in families.enumerated() {
            for n in Set(f.examples.map { $0.filter { $0 != " " }.count }) { out[n, default: []].append(i) }
        }
        return out
    }()

    static let lookalikes: Set<Character> = ["O", "o", "D", "Q", "I", "l", "i", "|", "S", "s", "B", "Z", "z", "G", "b", "0", "1", "5",
                                             "8", "2", "6", ")", "]"]

    static let toDigit: [Character: Character] = ["O": "0", "o": "0", "D": "0", "Q": "0", "I": "1", "l": "1", "i": "1", "|": "1",
                                                  "S": "5", "s": "5", "B": "8", "Z": "2", "z": "2", "G": "6", "b": "6"]
    static let toLetter: [Character: Character] = ["0": "O", "1": "I", "5": "S", "8": "B", "2": "Z", "6": "G", ")": "J", "]": "J", "|": "I"]

    /// Turns look-alike characters into what the example shapes want at each position: a digit
    /// where the example has a digit ("S1B OPA" -> "S1B 0PA"), a letter where it has a letter. At
    /// most two slips (or a third of the characters): more make another word, not a postcode. The
    /// readings that need the fewest changes come first, each with the number of changes.
    static func repairedPostcode(_ candidate: String, shapes: [[Bool?]]) -> [(String, Int)] {
        let chars = Array(candidate)
        let compact = chars.filter { $0 != " " }
        let limit = min(2, max(1, compact.count / 3))
        let space = chars.firstIndex(of: " ")
        var repairs: [(String, Int)] = []
        for shape in shapes where shape.count == compact.count {
            var fixed: [Character] = []
            fixed.reserveCapacity(compact.count + 1)
            var changes = 0
            var ok = true
            for (c, wantDigit) in zip(compact, shape) {
                var out = c
                if wantDigit == true {
                    if !c.isNumber { guard let d = toDigit[c] else { ok = false; break }; out = d; changes += 1 }
                } else if wantDigit == false {
                    if c.isLetter { out = Character(c.uppercased()) } else { guard let l = toLetter[c] else { ok = false; break }; out = l; changes += 1 }
                }
                if changes > limit { ok = false; break }
                fixed.append(out)
            }
            guard ok, changes > 0 else { continue }
            var withSpace = fixed
            if let space { withSpace.insert(" ", at: min(space, withSpace.count)) }
            for v in [String(withSpace), String(fixed)] where !repairs.contains(where: { $0.0 == v }) { repairs.append((v, changes)) }
        }
        return repairs.sorted { $0.1 < $1.1 }
    }

    /// The postcode a candidate string is in `format`'s pattern (after repairs), or nil.
    static func postcode(_ candidate: String, format: AddressFormat) -> String? {
        guard let i = familyOfRegion[format.region] else { return nil }
        return postcodeReading(candidate, family: families[i])?.code
    }

    /// The postcode and how many characters had to be corrected.
    /// `joinable`: the candidate's two groups of digits may be one postcode OCR set apart (no
    /// digits on either side: they would be a phone number's groups; one group of three digits or
    /// more: "10 18 Uhr" is opening hours).
    static func postcodeReading(_ candidate: String, family: PostcodeFamily, joinable: Bool = false) -> (code: String, repairs: Int)? {
        let re = family.regex
        // Without a single digit, only a two-part candidate ("SiB oPA") may be a postcode OCR misread,
        // and only once repaired (or where the country has postcodes of letters alone).
        let hasDigit = candidate.contains(where: \.isNumber)
        guard candidate.count >= 2, hasDigit || candidate.contains(" ") else { return nil }
        if hasDigit || family.lettersOnly,
           re.firstMatch(in: candidate, range: NSRange(location: 0, length: (candidate as NSString).length)) != nil {
            return (candidate.uppercased(), 0)
        }
        // Digits OCR set apart at a space ("933 04" for 93304), when the pattern has none there.
        if joinable, candidate.contains(" "), candidate.allSatisfy({ $0.isNumber || $0 == " " }),
           candidate.split(separator: " ").contains(where: { $0.count >= 3 }),
           case let joined = candidate.replacingOccurrences(of: " ", with: ""),
           re.firstMatch(in: joined, range: NSRange(location: 0, length: (joined as NSString).length)) != nil {
            return (joined, 1)
        }
        for (v, changes) in repairedPostcode(candidate, shapes: family.shapes) {
            let ns = v as NSString
            if re.firstMatch(in: v, range: NSRange(location: 0, length: ns.length)) != nil {
                // Upper case is how postcodes are written; OCR's lower-case letters are slips.
                return (v.uppercased(), changes)
            }
        }
        return nil
    }

    // MARK: - City lines

    /// Takes `line` apart as the line of `format` that holds the postcode; nil when it is not one.
    static func cityLine(_ line: String, format: AddressFormat, reversed: Bool = false) -> CityLine? {
        cityLines(line, only: format, reversed: reversed).first?.1
    }

    /// Every format's reading of `line` as the line holding its postcode (the first place in the
    /// line each format finds one), in one pass: candidates are only tested against the postcode
    /// families whose example shapes or lengths they have.
    static func cityLines(_ line: String, only: AddressFormat? = nil, reversed: Bool = false) -> [(AddressFormat, CityLine)] {
        var out: [(AddressFormat, CityLine)] = []
        for field in fieldsOnOneLine(line) {
            for reading in cityLines(ofField: field, only: only, reversed: reversed) where !out.contains(where: { $0.0.region == reading.0.region }) {
                out.append(reading)
            }
        }
        return out
    }

    /// A bar separates fields printed on one line ("M 8636 3991 | 68 Kallang Avenue, ..."): each is
    /// read on its own, and no address runs across one. A bar after a label alone ("T| 0212 ...")
    /// is the label's, not a field's end: the label stays with its value.
    static func fieldsOnOneLine(_ line: String) -> [String] {
        var fields: [String] = []
        var glued = ""
        for part in line.split(separator: "|", omittingEmptySubsequences: false) {
            let text = glued + part
            let trimmed = part.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || Labels.label(trimmed) != nil || Labels.isPictogramDebris(trimmed) {
                glued = text + "|"
                continue
            }
            fields.append(text.trimmingCharacters(in: .whitespaces))
            glued = ""
        }
        if !glued.trimmingCharacters(in: ParserCharacters.barAndSpace).isEmpty { fields.append(glued) }
        return fields
    }

    private static func cityLines(ofField line: String, only: AddressFormat?, reversed: Bool) -> [(AddressFormat, CityLine)] {
        let line = afterWebAddresses(line)
        guard !line.isEmpty else { return [] }
        var segments = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        var country: String?
        if segments.count >= 2, let last = segments.last, ParserData.regionNamed(last) != nil {
            country = last
            segments.removeLast()
        }
        let onlyFamily = only.flatMap { familyOfRegion[$0.region] }
        if only != nil && onlyFamily == nil { return [] }
        var out: [(AddressFormat, CityLine)] = []
        var done = Set<String>()
        for (k, segment) in segments.enumerated() {
            var (tokens, unglue) = ungluedTokens(segment)
            let segmentCountry = country ?? countryAtEnd(of: &tokens, only: only)
            // Postcode candidates: one token or two (a space inside: "653 93", "S1B 0PA").
            for width in [2, 1] {
                guard tokens.count >= width else { continue }
                for start in 0...(tokens.count - width) {
                    guard let raw = postcodeCandidate(tokens[start..<(start + width)].joined(separator: " ")) else { continue }
                    let digitsBeside = [start - 1, start + width].contains { tokens.indices.contains($0) && tokens[$0].contains(where: \.isNumber) }
                    for i in postcodeFamilies(raw, only: onlyFamily) {
                        let family = families[i]
                        guard let (code, repairs) = postcodeReading(raw, family: family, joinable: width == 2 && !digitsBeside) else { continue }
                        var beforeTokens = Array(tokens[..<start])
                        let afterTokens = Array(tokens[(start + width)...])
                        // Its label: "CEP 01310-100", "PLZ 10117", "ZIP: 94105".
                        if let label = beforeTokens.last, isPostcodeLabel(label) { beforeTokens.removeLast() }
                        for format in family.formats where !done.contains(format.region) && (only == nil || only?.region == format.region) {
                            if var cl = assemble(format: format, segments: segments, index: k, before: beforeTokens, after: afterTokens,
                                                 postcode: code, country: segmentCountry, reversed: reversed) {
                                cl.repairs = repairs
                                cl.joinedDigits = (raw.contains(" ") && !code.contains(" ") && raw.allSatisfy { $0.isNumber || $0 == " " })
                                    || unglue.contains(start)
                                // A country whose post writes its code before the postcode ("LT-%Z"):
                                // printed so, it is part of the postcode ("LT-01100").
                                if let prefix = format.postcodePrefix, tokens[start].uppercased().hasPrefix(prefix) {
                                    cl.postalCode = prefix + code
                                }
                                out.append((format, cl))
                                done.insert(format.region)
                            }
                        }
                    }
                }
            }
        }
        return out
    }

    /// The words of a segment, a postcode glued to its locality taken apart (`unglued`), and the
    /// places of the postcodes so taken apart.
    static func ungluedTokens(_ segment: String) -> (tokens: [String], unglued: Set<Int>) {
        var tokens: [String] = [], places = Set<Int>()
        for word in segment.split(separator: " ") {
            let parts = unglued(String(word))
            if parts.count == 2 { places.insert(tokens.count) }
            tokens += parts
        }
        return (tokens, places)
    }

    /// A postcode and its locality OCR read as one word ("61629Lewistown"): the two words.
    static func unglued(_ token: String) -> [String] {
        let digits = token.prefix(while: \.isNumber), rest = token.dropFirst(digits.count)
        guard digits.count >= 2, rest.count >= 3, rest.first?.isUppercase == true, rest.allSatisfy(\.isLetter) else { return [token] }
        return [String(digits), String(rest)]
    }

    /// A country name at the end of the postcode's segment ("Tokyo 170-0013 Japan"), taken off
    /// the tokens; another country's than the card's is the end of a town's name ("Nueva Italia").
    private static func countryAtEnd(of tokens: inout [String], only: AddressFormat?) -> String? {
        guard tokens.count >= 3, let last = tokens.last, let named = ParserData.regionNamed(last), only == nil || only?.region == named
        else { return nil }
        tokens.removeLast()
        return last
    }

    /// An e-mail or web address OCR read on the same line (a second column): the address is after it.
    private static func afterWebAddresses(_ line: String) -> String {
        let tokens = line.split(separator: " ")
        guard let last = tokens.lastIndex(where: { $0.contains("@") || $0.lowercased().hasPrefix("www.") || $0.lowercased().hasPrefix("http") })
        else { return line }
        return tokens[(last + 1)...].joined(separator: " ")
    }

    /// A token or two as a postcode would be printed: a country prefix ("SE-125 44", "D-10117",
    /// "CH-8001") and surrounding punctuation dropped; nil when too short or long for one.
    private static func postcodeCandidate(_ text: String) -> String? {
        var raw = text
        if let dash = raw.firstIndex(of: "-"), raw[..<dash].count <= 3, raw[..<dash].allSatisfy(\.isUppercase),
           raw[raw.index(after: dash)...].first?.isNumber == true {
            raw = String(raw[raw.index(after: dash)...])
        }
        raw = raw.trimmingCharacters(in: ParserCharacters.postcodePunctuation)
        return raw.count >= 2 && raw.count <= 10 ? raw : nil
    }

    /// The postcode families (indices into `families`) whose example shapes, or lengths when OCR
    /// may have slipped a letter for a digit, `raw` has; in order.
    private static func postcodeFamilies(_ raw: String, only: Int?) -> [Int] {
        var candidates = Set(familiesByShape[shape(raw)] ?? [])
        if raw.contains(where: { lookalikes.contains($0) }) {
            candidates.formUnion(familiesByLength[raw.filter { $0 != " " }.count] ?? [])
        }
        if let only {
            // The card's country's pattern read directly, for postcodes of a length its examples lack
            // (Vietnam's examples have five digits, its pattern allows six).
            let fits = candidates.contains(only)
                || families[only].regex.firstMatch(in: raw, range: NSRange(location: 0, length: (raw as NSString).length)) != nil
            candidates = fits ? [only] : []
        }
        return candidates.sorted()
    }

    /// Assigns the words around the postcode to locality and sub-region as the format orders them,
    /// or, `reversed`, the other way round: cards print "12345 City" in countries whose post writes
    /// "City 12345", and the reverse.
    private static func assemble(format: AddressFormat, segments: [String], index k: Int, before: [String], after: [String],
                                 postcode: String, country: String?, reversed: Bool) -> CityLine? {
        let earlier = segments[..<k].map { $0 }
        let following = k + 1 < segments.count ? segments[k + 1] : nil
        func localityAfter() -> CityLine? {
            localityAfterPostcode(format: format, earlier: earlier, before: before, after: after, following: following,
                                  postcode: postcode, country: country)
        }
        func localityBefore() -> CityLine? {
            localityBeforePostcode(format: format, earlier: earlier, before: before, after: after, postcode: postcode, country: country)
        }
        switch (format.placement, reversed) {
        case (.beforeLocality, false): return localityAfter()
        case (.beforeLocality, true): return before.isEmpty ? nil : localityBefore()
        case (.afterLocality, false), (.noLocality, false): return localityBefore()
        case (.afterLocality, true): return after.isEmpty ? nil : localityAfter()
        case (.noLocality, true): return nil
        }
    }

    static func cleanPart(_ s: String) -> String {
        s.trimmingCharacters(in: ParserCharacters.partPunctuation).trimmingCharacters(in: .whitespaces)
    }

    /// "12345 City", "16025 Primaluna (PU)", "28001 Madrid Madrid": the locality follows the
    /// postcode (in the next segment when nothing does on its own).
    private static func localityAfterPostcode(format: AddressFormat, earlier: [String], before: [String], after: [String],
                                              following: String?, postcode: String, country: String?) -> CityLine? {
        var region: String?
        var words = after
        if let last = words.last, last.hasPrefix("("), last.hasSuffix(")") {
            region = String(last.dropFirst().dropLast())
            words.removeLast()
        } else if words.count >= 2, let s = subregion(words.last ?? "", format: format) {
            region = s
            words.removeLast()
        }
        var city = withoutTrailingDebris(cleanPart(words.joined(separator: " ")))
        if city.isEmpty, let following { city = cleanPart(following) }
        guard isLocality(city) else { return nil }
        let street = (earlier + (before.isEmpty ? [] : [before.joined(separator: " ")])).joined(separator: ", ")
        return CityLine(before: cleanPart(street), city: city, region: region, postalCode: postcode, country: country)
    }

    /// The sub-region at the end of the words before a postcode ("IL", "NSW", "Uttar Pradesh",
    /// or joined to the locality: "Campinas/SP 13010-001"), and the words before it.
    private static func subregionAtEnd(of before: [String], format: AddressFormat) -> (words: [String], region: String?) {
        var words = before
        if let last = words.last, let glued = gluedSubregion(last, format: format) {
            words.removeLast()
            words += [glued.locality, glued.subregion]
        }
        guard format.subregionBeforePostcode || format.placement == .noLocality || !format.subregions.isEmpty else { return (words, nil) }
        for n in [3, 2, 1] where words.count >= n {
            if let s = subregion(words.suffix(n).joined(separator: " "), format: format) { return (Array(words.dropLast(n)), s) }
        }
        return (words, nil)
    }

    /// "City, ST 12345", "London N1 7GR", Japan's "ward, City 450-0002": the locality (and the
    /// sub-region) come before the postcode.
    private static func localityBeforePostcode(format: AddressFormat, earlier: [String], before: [String], after: [String],
                                               postcode: String, country: String?) -> CityLine? {
        // Nothing but a country, punctuation or a little pictogram debris may follow the postcode.
        guard after.count <= 2, after.allSatisfy({ cleanPart($0).isEmpty || ParserData.regionNamed($0) != nil
            || ($0.count <= 3 && !$0.contains(where: \.isNumber)) || $0.count == 1 })
            // Or a word of debris alone ("Troy, MI 48084 qmxv").
            || (after.count == 1 && after[0].filter(\.isNumber).count <= 2
                && (isJunkWord(Substring(after[0])) || (after[0].count <= 5 && after[0].allSatisfy(\.isLowercase))))
        else { return nil }
        var (words, region) = subregionAtEnd(of: before, format: format)
        var rest = cleanPart(words.joined(separator: " "))
        var previous = earlier
        if format.placement == .noLocality {
            // Japan: "ward, City 450-0002": the words before the postcode are the city (its
            // sub-region in the format), the ward is the last part of the address.
            if region == nil, !rest.isEmpty {
                guard isLocality(rest) else { return nil }
                region = rest
                rest = ""
            }
            let city = previous.popLast().map(cleanPart)
            guard region != nil, city.map(isLocality) ?? true else { return nil }
            return CityLine(before: previous.joined(separator: ", "), city: city, region: region, postalCode: postcode, country: country)
        }
        var city = rest
        if city.isEmpty, let p = previous.popLast() { city = cleanPart(p) }
        // A street and its locality printed on one line with a dash between them:
        // "12 Hill Road - Springfield, IL 62701", "Rua Augusta, 90 - Campinas/SP 13010-001".
        // So after a unit ("Flat 2, Hollin Meadows - Eastbury B2 4PA"): a locality never follows one.
        let afterUnit = previous.count == 1 && isUnitLine(previous[0])
        if !isLocality(city) || afterUnit, let (street, locality) = streetThenLocality(city, afterStreetName: !previous.isEmpty, afterUnit: afterUnit) {
            // The house number after the street's name: "Rua Augusta, 90 - Campinas/SP".
            if isHouseNumber(street), let name = previous.popLast() { previous.append(name + ", " + street) } else { previous.append(street) }
            city = locality
        }
        // "City, ST" where the sub-region is in its own segment: "Visakhapatnam, Uttar Pradesh 059905".
        if region == nil, !city.isEmpty, let s = subregion(city, format: format), let p = previous.last, isLocality(cleanPart(p)) {
            region = s
            city = cleanPart(previous.removeLast())
        }
        // The sub-region after the locality, in the segment before the postcode's.
        if region == nil, rest.isEmpty, let split = keyAfterLocality(city, format: format) { (city, region) = (split.locality, split.key) }
        guard city.isEmpty || isLocality(city) else { return nil }
        return CityLine(before: previous.joined(separator: ", "), city: city.isEmpty ? nil : city, region: region,
                        postalCode: postcode, country: country)
    }

    /// A locality and the key of a sub-region of `format` printed after it (`isSubregionKey`: "da
    /// Mata - SC", "Austin TX"); nil when the last word is no such key ("New Delhi" ends with a
    /// state's name, and is a city's).
    static func keyAfterLocality(_ text: String, format: AddressFormat) -> (locality: String, key: String)? {
        guard let key = text.split(separator: " ").last.map(String.init), isSubregionKey(key, format: format) else { return nil }
        let locality = cleanPart(String(text.dropLast(key.count)))
        return isLocality(locality) ? (locality, key) : nil
    }

    /// The sub-region `text` names in `format` (key, name or Latin name), as printed; nil when none.
    static func subregion(_ text: String, format: AddressFormat) -> String? {
        guard !format.subregions.isEmpty else { return nil }
        let printed = text.trimmingCharacters(in: ParserCharacters.subregionPunctuation)
        let t = printed.lowercased()
        guard !t.isEmpty else { return nil }
        if format.subregionIndex[t] != nil { return printed }
        // A short upper-case key with OCR's slips: "Hl" for "HI", "0N" for "ON".
        if printed.count <= 3 {
            let fixed = String(printed.map { ["l": "I", "|": "I", "1": "I", "0": "O", "5": "S", "8": "B"][$0] ?? $0 }).uppercased()
            if fixed != printed.uppercased(), let s = format.subregions.first(where: { $0.key == fixed }) { return s.key }
        }
        return nil
    }

    /// A locality is words of letters (hyphens, apostrophes and dots allowed; "Dublin 2" may end
    /// in a district number), and not a label, a phone or a web address.
    static func isLocality(_ s: String) -> Bool {
        let tokens = s.split(separator: " ")
        guard !tokens.isEmpty, s.filter(\.isLetter).count >= 2, !s.contains("@"), !s.lowercased().contains("www") else { return false }
        for (i, t) in tokens.enumerated() {
            // A street is no locality: "Calle de Nidia Herrera 470" ends like "Pontevedra 50097" would.
            if Lexicon.isStreetWord(String(t)) { return false }
            if t.allSatisfy({ $0.isLetter || "-'.’".contains($0) }) { continue }
            if i == tokens.count - 1, i > 0, t.count <= 2, t.allSatisfy(\.isNumber) { continue }
            return false
        }
        // Not a label: "Tel. kom 512" is no "City 512" (but "Port Andrew" is a town).
        let first = tokens[0].lowercased()
        if first.hasSuffix(":") || first.hasSuffix(".") || first.hasSuffix("|") { return Labels.label(first) == nil }
        return !strongLabels.contains(first)
    }

    /// Labels that are no word of a place name.
    static let strongLabels: Set<String> = ["tel", "tél", "tfn", "tlf", "phone", "fax", "telefax", "email", "e-mail", "mail", "mobile",
                                            "mob", "mobil", "cell", "handy", "web", "www", "url", "telefon", "teléfono", "telefono",
                                            "móvil", "movil", "puh", "kom", "gsm", "correo", "courriel"]

    // MARK: - Address

    static func extract(from lines: [CardLine], skip: Set<Int>, region: String?) -> Result {
        // The order the country's post writes first; the other order only when no line reads so.
        for reversed in [false, true] {
            let found = extract(from: lines, skip: skip, region: region, reversed: reversed)
            if found.address != nil { return found }
        }
        // No postcode printed: the locality with its sub-region, and a street.
        guard let region, let format = ParserData.addressFormats[region] else { return Result() }
        for (pos, line) in lines.enumerated() where !skip.contains(line.index) {
            guard let city = subregionLine(Labels.strip(line.text).value, format: format) else { continue }
            let found = build(city, at: pos, in: lines, skip: skip, format: format)
            if let street = found.address?.street, isPlainStreet(street) { return found }
        }
        // The country read wrong (a number or a domain of another): a line the formats agree on,
        // as on a card that names no country, its postcode read as printed, below a street.
        // A street must come with it: a year in a tagline ("Est. 1998") is no postcode line.
        for reversed in [false, true] {
            let found = extract(from: lines, skip: skip, region: nil, reversed: reversed, asPrinted: true)
            if found.address?.street != nil { return found }
        }
        return Result()
    }

    private static func extract(from lines: [CardLine], skip: Set<Int>, region: String?, reversed: Bool, asPrinted: Bool = false) -> Result {
        if let region {
            guard let format = ParserData.addressFormats[region], format.postcode != nil else { return Result() }
            func reading(_ pos: Int) -> CityLine? {
                guard pos < lines.count, !skip.contains(lines[pos].index) else { return nil }
                return cityLine(lines[pos].text, format: format, reversed: reversed)
                    ?? cityLine(Labels.strip(lines[pos].text).value, format: format, reversed: reversed)
            }
            // A locality in lower case ("0714 cdww": a number's last digits and debris) gives way
            // to a later line whose locality is capitalised.
            var fallback: Result?
            for pos in lines.indices {
                guard let city = reading(pos) else { continue }
                // A house number that reads as a postcode ("48213 Linden Court") right above the
                // postcode line: the line below is the postcode's.
                let found = if let next = reading(pos + 1), next.before.isEmpty { build(next, at: pos + 1, in: lines, skip: skip, format: format) }
                    else { build(city, at: pos, in: lines, skip: skip, format: format) }
                // ("'s-Hertogenbosch" starts with its article, not a lower-case letter.)
                guard let first = found.address?.city?.first, first.isLetter, first.isLowercase else { return found }
                fallback = fallback ?? found
            }
            return fallback ?? Result()
        }
        // The card does not say its country: a line that the formats it fits all (or mostly)
        // read the same way is the address; the country stays unknown. Of several such lines, the
        // one the most formats read so ("4821 Ostrava" over a street's "Dvorská 708").
        var best: (agreeing: Int, pos: Int, reading: CityLine, format: AddressFormat, unsure: Bool)?
        for (pos, line) in lines.enumerated() where !skip.contains(line.index) && line.text.contains(where: \.isNumber) {
            var readings: [(CityLine, AddressFormat)] = cityLines(line.text, reversed: reversed)
                .filter { isUnplacedAddress($0.1) && (!asPrinted || $0.1.repairs == 0) }.map { ($0.1, $0.0) }
            guard let fewest = readings.map(\.0.repairs).min() else { continue }
            // The readings that needed the fewest corrections.
            readings = readings.filter { $0.0.repairs == fewest }
            var counts: [String: Int] = [:]
            func key(_ c: CityLine) -> String { "\(c.postalCode ?? "")|\(c.city ?? "")|\(c.before)" }
            for (c, _) in readings { counts[key(c), default: 0] += 1 }
            guard let (bestKey, agreeing) = counts.max(by: { $0.value == $1.value ? $0.key > $1.key : $0.value < $1.value }),
                  let (cl, format) = readings.first(where: { key($0.0) == bestKey }) else { continue }
            if agreeing > best?.agreeing ?? 0 { best = (agreeing, pos, cl, format, counts.count > 1) }
        }
        guard let best else { return Result() }
        var found = build(best.reading, at: best.pos, in: lines, skip: skip, format: best.format)
        // Only what all the readings agree on: the sub-region named by one country's list is not sure.
        if best.unsure { found.address?.region = nil }
        return found
    }

    /// A postcode line of a card that names no country: with nothing else to place it, a postcode
    /// of four characters or more, not made of digits set apart or glued to a word (the three-digit
    /// ones of a few countries are what a house number or debris reads as), and a locality that
    /// starts with a capital, as towns are printed.
    static func isUnplacedAddress(_ line: CityLine) -> Bool {
        guard let code = line.postalCode, code.filter({ $0.isLetter || $0.isNumber }).count >= 4, !line.joinedDigits else { return false }
        guard let first = line.city?.first(where: \.isLetter) else { return true }
        return first.isUppercase || first.lowercased() == first.uppercased()
    }

    private static func build(_ cityLine: CityLine, at pos: Int, in lines: [CardLine], skip: Set<Int>, format: AddressFormat) -> Result {
        var found = FoundAddress(lines: lines, skip: skip, format: format, pos: pos,
                                 address: PostalAddress(lines: [], city: cityLine.city, region: cityLine.region,
                                                        postalCode: cityLine.postalCode, country: cityLine.country))
        if found.address.city == nil, format.placement == .afterLocality { found.takeLocalityAbove() }
        // The street before the postcode on its line, once a label is stripped ("Address: 4 Elm Row,
        // 2000 Antwerpen"); a word of debris there ("oq 2000 Antwerpen": a logo or an icon read as
        // letters) leaves the street to the lines above.
        let before = Labels.strip(cityLine.before).value
        if !before.isEmpty, looksLikeStreet(before) {
            found.address.street = dropIcon(before)
        } else {
            found.takeStreetAbove()
        }
        found.printed.append(lines[pos].text)
        found.takeCountryBelow()
        found.address.lines = found.printed
        var result = Result()
        result.address = found.address
        result.consumedLines = found.consumed
        return result
    }

    /// An address being put together around its postcode line: the lines it takes and the
    /// fields they fill.
    private struct FoundAddress {
        let lines: [CardLine]
        let skip: Set<Int>
        let format: AddressFormat
        /// Where the postcode line is.
        let pos: Int
        var address: PostalAddress
        var consumed: Set<Int>
        /// The lines as printed, top to bottom.
        var printed: [String] = []
        /// The first line of the address below the street (the postcode's line, or the locality above it).
        var streetEnd: Int

        init(lines: [CardLine], skip: Set<Int>, format: AddressFormat, pos: Int, address: PostalAddress) {
            self.lines = lines
            self.skip = skip
            self.format = format
            self.pos = pos
            self.address = address
            consumed = [lines[pos].index]
            streetEnd = pos
        }

        /// The postcode alone on its line: the locality (and sub-region) on the line above, as the
        /// format has it ("São Paulo - SP" above "01304-001"; "Butlerburgh" above "RM5 0HQ").
        mutating func takeLocalityAbove() {
            guard pos > 0, !skip.contains(lines[pos - 1].index) else { return }
            var text = lines[pos - 1].text.trimmingCharacters(in: .whitespaces)
            var region: String?
            for separator in [" - ", "-", "/", ", ", " "] {
                if let r = text.range(of: separator, options: .backwards), let s = subregion(String(text[r.upperBound...]), format: format) {
                    region = s
                    text = String(text[..<r.lowerBound]).trimmingCharacters(in: ParserCharacters.commaDashSpace)
                    break
                }
            }
            guard isLocality(text) else { return }
            address.city = text
            if address.region == nil { address.region = region }
            consumed.insert(lines[pos - 1].index)
            printed.append(lines[pos - 1].text)
            streetEnd = pos - 1
        }

        /// The nearest lines above that no other field took (a two-column card puts a phone or an
        /// e-mail between them in reading order) and that read as address lines. The nearest street
        /// line is kept, and the one above it only when it is an address part too ("Flat 2" /
        /// "12 High Street").
        mutating func takeStreetAbove() {
            var streetLines: [(Int, String)] = []
            var k = streetEnd - 1
            var pastDebris = false
            while k >= 0, streetEnd - k <= 4, streetLines.count < 2 {
                defer { k -= 1 }
                if skip.contains(lines[k].index) { continue }
                let text = Labels.strip(lines[k].text).value
                guard looksLikeStreet(text) else {
                    // A line OCR was unsure of between the street and the postcode line is a logo or
                    // texture read as letters, and so is a fragment however sure: looked past.
                    if streetLines.isEmpty, lines[k].confidence < debrisConfidence || isFragment(text) { pastDebris = true; continue }
                    break
                }
                // Past debris, only a street read surely and plainly: more debris is no street.
                if pastDebris, streetLines.isEmpty, lines[k].confidence < debrisConfidence || !isPlainStreet(text) { break }
                streetLines.insert((k, text), at: 0)
            }
            guard let nearest = streetLines.last else { return }
            var text = nearest.1
            if format.placement == .noLocality, address.city == nil {
                // Japan: the ward is the last part of the address lines.
                var parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                if parts.count >= 2 { address.city = parts.removeLast(); text = parts.joined(separator: ", ") }
            }
            address.street = dropIcon(text)
            consumed.insert(lines[nearest.0].index)
            printed.insert(lines[nearest.0].text, at: 0)
            if streetLines.count == 2, isUnitLine(streetLines[0].1) {
                address.street = streetLines[0].1 + ", " + (address.street ?? text)
                consumed.insert(lines[streetLines[0].0].index)
                printed.insert(lines[streetLines[0].0].text, at: 0)
            }
        }

        /// A country (or the sub-region, then a country) on the next lines.
        mutating func takeCountryBelow() {
            var next = pos + 1
            while next < lines.count, next <= pos + 2, address.country == nil {
                let text = lines[next].text.trimmingCharacters(in: ParserCharacters.punctuationAndSpaces)
                if ParserData.regionNamed(text) != nil {
                    address.country = text
                } else if address.region == nil, subregion(text, format: format) != nil {
                    address.region = text
                } else {
                    break
                }
                consumed.insert(lines[next].index)
                printed.append(lines[next].text)
                next += 1
            }
        }
    }

    /// A pin pictogram read as a lone digit before the address: "9 43/98, Shroff Street",
    /// "9 H.No. 360" (a house number is not followed by another number or a unit word).
    static func dropIcon(_ street: String) -> String {
        let tokens = street.split(separator: " ").map(String.init)
        guard tokens.count >= 3, tokens[0].count == 1, tokens[0].first?.isNumber == true else { return street }
        let next = tokens[1]
        // Or the street already has its number after its name ("9 Alameda Borja Hoyos 108",
        // "9 Stretto Schiavo, 2"): a second house number before the name is the pin.
        let numberAfterName = next.first?.isLetter == true && tokens.last?.first?.isNumber == true
        guard next.first?.isNumber == true || unitWords.contains(next.lowercased()) || numberAfterName else { return street }
        return tokens.dropFirst().joined(separator: " ")
    }

    /// Words that start a line of an address within a building: "Flat 2", "Suite 400", "Level 9".
    static let unitWords: Set<String> = ["flat", "studio", "suite", "ste", "apt", "apt.", "apartment", "unit", "floor", "fl", "level",
                                         "building", "bldg", "room", "office", "piso", "planta", "étage", "etage", "stock", "og",
                                         "c/o", "po", "p.o.", "box", "postfach", "apartado", "casella", "h.no.", "#"]

    static func isUnitLine(_ text: String) -> Bool {
        guard let first = text.split(separator: " ").first?.lowercased() else { return false }
        return unitWords.contains(first) || first.hasPrefix("#")
    }

    /// A street line has a house number, a street word or a unit word, and no e-mail or web address.
    static func looksLikeStreet(_ text: String) -> Bool {
        guard !text.contains("@"), !text.lowercased().contains("www."), !text.lowercased().hasPrefix("http") else { return false }
        guard text.filter(\.isLetter).count >= 2 else { return false }
        if text.contains(where: \.isNumber) {
            // Not a phone number: few digits relative to letters.
            return text.filter(\.isNumber).count <= max(6, text.filter(\.isLetter).count)
        }
        let words = text.lowercased().split(whereSeparator: { !$0.isLetter && $0 != "." })
        return words.contains { Lexicon.foldedStreetWords.contains(ParserData.fold(String($0))) } || isUnitLine(text)
    }
}
