import Foundation

/// Addresses of Japanese, Chinese and Korean cards, written from the largest unit down: a postal
/// mark and code (〒100-0005, 邮编 200120, (우) 06234), the prefecture, province or province-level
/// city (Google's address metadata lists them), the municipality (市 区 町 村 郡 县 縣, 시 군 구),
/// then the district, road or town and the number, and a building on the next line.
enum CJKAddress {
    struct Result {
        var address: PostalAddress?
        var consumedLines: Set<Int> = []
    }

    /// The ends of the units of an address: the municipality's, and the endings that make a line an address.
    static let municipalityEnds: Set<Character> = ["市", "区", "區", "町", "村", "县", "縣", "郡", "시", "군", "구"]
    static let addressMarks: [String] = ["丁目", "番地", "番", "号", "號", "路", "街", "道", "巷", "弄", "樓", "楼", "室", "階",
                                         "로", "길", "동", "층", "호", "ビル", "大厦", "大樓", "빌딩", "タワー", "타워"]
    static let buildingMarks: [String] = ["ビル", "階", "F", "大厦", "大樓", "樓", "楼", "室", "빌딩", "층", "호", "타워", "タワー",
                                          "センター", "Building", "Bldg", "Tower"]

    static func extract(from lines: [CJKLine], skip: Set<Int>, region: String?) -> Result {
        var result = Result()
        let candidates = lines.indices.filter { !skip.contains(lines[$0].index) && isAddressLine(lines[$0], region: region) }
        // The first line of the address itself: a postcode printed alone above it (〒100-0005) is
        // taken with it below.
        guard let main = candidates.first(where: { postcodeOnly(lines[$0].folded, region: region) == nil }) ?? candidates.first
        else { return result }
        var postcode: String?
        var used = [lines[main]]
        // A postcode on its own line just above or below.
        for k in [main - 1, main + 1] where lines.indices.contains(k) && !skip.contains(lines[k].index) {
            if let code = postcodeOnly(lines[k].folded, region: region) {
                postcode = code
                used.append(lines[k])
            }
        }
        var text = lines[main].folded
        if let (code, rest) = leadingPostcode(text, region: region) {
            postcode = code
            text = rest
        } else if let (code, rest) = trailingPostcode(text, region: region) {
            postcode = code
            text = rest
        }
        text = stripLabel(text)
        var address = split(text, region: region)
        address.postalCode = postcode.map { standardPostcode($0, region: region) }
        var printed = [lines[main].text]
        // A building, a floor, on the next line.
        let next = main + 1
        if lines.indices.contains(next), !skip.contains(lines[next].index), !used.contains(where: { $0.index == lines[next].index }),
           isBuildingLine(lines[next]) {
            used.append(lines[next])
            printed.append(lines[next].text)
        }
        address.lines = used.sorted { $0.index < $1.index }.map(\.text)
        _ = printed
        result.address = address
        result.consumedLines = Set(used.map(\.index))
        return result
    }

    /// A line that holds an address: a postal mark, a known prefecture or province at its start,
    /// or a municipality followed by a road or number. A line with a legal form and no number is
    /// the company's name, whatever unit its words end in (반도체 ends in 도, a province's).
    static func isAddressLine(_ line: CJKLine, region: String?) -> Bool {
        let text = stripLabel(line.folded)
        if text.hasPrefix("〒") { return text.contains(where: \.isNumber) }
        guard CJKText.counts(text).eastAsian >= 4,
              !(CJKLexicon.holdsLegalForm(line.folded) && !text.contains(where: \.isNumber)) else { return false }
        if subregion(atStartOf: stripPostcode(text, region: region), region: region) != nil { return true }
        let marks = addressMarks.filter { text.contains($0) }.count
        return text.contains(where: \.isNumber) && marks >= 1 && text.contains(where: { municipalityEnds.contains($0) })
    }

    static func isBuildingLine(_ line: CJKLine) -> Bool {
        buildingMarks.contains { line.folded.contains($0) } && line.folded.count <= 40
            && CJKLexicon.legalForms.allSatisfy { !line.text.contains($0) }
    }

    /// The text after an "address" label ("住所：", "地址:").
    static func stripLabel(_ text: String) -> String {
        var s = text.trimmingCharacters(in: .whitespaces)
        for label in ["住所", "所在地", "地址", "주소", "Add", "Address"] where s.hasPrefix(label) {
            s = String(s.dropFirst(label.count)).trimmingCharacters(in: CharacterSet(charactersIn: " :：.").union(.whitespaces))
        }
        return s
    }

    /// The postcode of a line holding nothing else but its mark ("〒100-0005", "邮编：200120", "(우) 06234"),
    /// or a mark OCR misread (a character or two of it wrong, a bracket for another): a code of
    /// the region's own shape, five digits or more, after at most `misreadMark` characters that
    /// are neither digits nor Latin letters.
    static func postcodeOnly(_ text: String, region: String?) -> String? {
        if let (code, rest) = leadingPostcode(text, region: region) ?? trailingPostcode(text, region: region) {
            return rest.filter({ $0.isLetter }).isEmpty ? code : nil
        }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let mark = trimmed.prefix { !$0.isNumber }
        // Not a Latin label ("Ext.", "QQ"), and a code of five digits or more (分機 123 is an extension).
        guard mark.filter({ $0 != " " }).count <= misreadMark, !mark.contains(where: { $0.isASCII && $0.isLetter }) else { return nil }
        let code = String(trimmed.dropFirst(mark.count)).trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: ")）]")))
        guard code.allSatisfy({ $0.isNumber || $0 == "-" }), code.filter(\.isNumber).count >= 5,
              isPostcode(code, region: region, marked: false) else { return nil }
        return code
    }

    /// The most characters a misread postal mark and its brackets or colon take ("部编:", "( 우 ]",
    /// "邮政蝙码;"): the longest mark's and a colon's.
    static let misreadMark = (CJKLexicon.postalMarks.map(\.count).max() ?? 4) + 1

    static func stripPostcode(_ text: String, region: String?) -> String {
        leadingPostcode(text, region: region)?.rest ?? text
    }

    /// A postcode at the start of the line, after its mark or alone: the code and the rest.
    static func leadingPostcode(_ text: String, region: String?) -> (code: String, rest: String)? {
        var s = Substring(text.trimmingCharacters(in: .whitespaces))
        var marked = false
        for mark in CJKLexicon.postalMarks.sorted(by: { $0.count > $1.count }) where s.hasPrefix(mark) {
            s = s.dropFirst(mark.count)
            marked = true
            break
        }
        s = s.drop { " :：()（）".contains($0) }
        // OCR reads a postcode's thin dash as a bar or a long vowel mark now and then (〒008|0812).
        let printed = s.prefix { $0.isNumber || Self.postcodeDashes.contains($0) }
        let code = String(printed.map { Self.postcodeDashes.contains($0) ? "-" : $0 }).trimmingCharacters(in: ["-"])
        guard isPostcode(code, region: region, marked: marked || code.contains("-")) else { return nil }
        let rest = s.dropFirst(printed.count).drop { " )）".contains($0) }
        return (code, String(rest))
    }

    /// A Japanese postcode read without its dash (OCR drops a thin one) in Japan Post's form,
    /// three digits, a dash, four (8742367 is 874-2367); other codes as read.
    static func standardPostcode(_ code: String, region: String?) -> String {
        guard region == "JP", code.count == 7, code.allSatisfy(\.isNumber) else { return code }
        return code.prefix(3) + "-" + code.suffix(4)
    }

    /// What OCR makes of the dash between a postcode's groups of digits (a dot of a thin one,
    /// 〒220.5439).
    static let postcodeDashes: Set<Character> = ["-", "|", "ー", "一", "－", "—", "–", "‐", ".", "・"]

    /// A postcode at the end of the line, with or without its mark ("... 邮编 200120", "... (06234)").
    static func trailingPostcode(_ text: String, region: String?) -> (code: String, rest: String)? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: ")）"))
        let code = String(trimmed.reversed().prefix { $0.isNumber || $0 == "-" }.reversed())
        var rest = String(trimmed.dropLast(code.count)).trimmingCharacters(in: .whitespaces)
        var marked = false
        for mark in CJKLexicon.postalMarks + ["("] where rest.hasSuffix(mark) || rest.hasSuffix(mark + ":") || rest.hasSuffix(mark + "：") {
            rest = String(rest.dropLast(rest.hasSuffix(mark) ? mark.count : mark.count + 1))
            marked = true
        }
        guard marked, isPostcode(code, region: region, marked: true) else { return nil }
        return (code, rest.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: ",，"))))
    }

    /// True for a postcode of the region's shape (Google's pattern); any 3-7 digits when the mark says so.
    static func isPostcode(_ code: String, region: String?, marked: Bool) -> Bool {
        let digits = code.filter(\.isNumber).count
        guard digits >= 3, digits <= 7 else { return false }
        if let region, let pattern = ParserData.addressFormats[region]?.postcode {
            let range = NSRange(code.startIndex..., in: code)
            if pattern.firstMatch(in: code, range: range).map({ $0.range == range }) == true { return true }
        }
        return marked
    }

    /// The prefecture, province or province-level unit at the start of `text`: a sub-region of
    /// the address metadata, or a unit of the shape every one of them has (東京都, 广东省, 경기도).
    static func subregion(atStartOf text: String, region: String?) -> String? {
        let regions = region.map { [$0] } ?? ["JP", "CN", "KR", "TW"]
        for code in regions {
            for s in ParserData.addressFormats[code]?.subregions ?? [] {
                for name in [s.name, s.key] where name.count >= 2 && CJKText.counts(name).eastAsian >= 2 && text.hasPrefix(name) {
                    if case let full = s.key.count > s.name.count ? s.key : s.name, name != full, isMisread(full, atStartOf: text) {
                        return full
                    }
                    return fullUnit(text, prefix: name)
                }
            }
        }
        if let listed = misreadSubregion(atStartOf: text, regions: regions) { return listed }
        let first = text.split(separator: " ").first.map(String.init) ?? text
        for suffix in subregionMarks(region: region) where first.count <= 8 {
            if let r = first.range(of: suffix), r.lowerBound > first.startIndex, first.distance(from: first.startIndex, to: r.lowerBound) <= 5 {
                return String(first[..<r.upperBound])
            }
        }
        return nil
    }

    /// The marks that end a first-level unit's name in the region's addresses: Japan's 都道府県,
    /// China's and Taiwan's 省 and autonomous regions, Korea's 도 and its special and metropolitan
    /// cities; all of them when the region is not known. (都 and 府 end words of Chinese, 成都 a city's
    /// name, and 道 a road's.)
    static func subregionMarks(region: String?) -> [String] {
        switch region {
        case "JP": return ["都", "道", "府", "県"]
        case "CN", "TW", "HK", "MO": return ["自治区", "自治區", "省"]
        case "KR": return ["특별자치도", "특별자치시", "특별시", "광역시", "도"]
        default: return ["特別自治道", "特別自治市", "특별자치도", "특별자치시", "특별시", "광역시", "自治区", "自治區", "都", "道", "府", "県", "省", "도"]
        }
    }

    /// A listed sub-region of three characters or more whose name OCR misread by one character
    /// before its unit's mark ("税馬県" for 群馬県, "雇児島県" for 鹿児島県), spelled as listed; only
    /// when no other listed name is as close. Not a city's (上海市): a city of another name one
    /// character away (上虞市) may begin the address itself.
    static func misreadSubregion(atStartOf text: String, regions: [String]) -> String? {
        var found: [String] = []
        for code in regions {
            for s in ParserData.addressFormats[code]?.subregions ?? [] where s.name.count >= 3 && CJKText.counts(s.name).eastAsian == s.name.count {
                let name = Array(s.name), read = Array(text.prefix(name.count))
                guard read.last == name.last, name.last != "市" else { continue }
                if isOneCharacterOff(read, name), !found.contains(s.name) { found.append(s.name) }
            }
        }
        return found.count == 1 ? found[0] : nil
    }

    /// True when `text` starts with the listed unit `name` (one that runs on past its short name,
    /// 新疆维吾尔自治区) misread by one character before the unit's mark (维否尔 for 维吾尔).
    static func isMisread(_ name: String, atStartOf text: String) -> Bool {
        let listed = Array(name), read = Array(text.prefix(listed.count))
        return listed.count >= 5 && read.suffix(3) == listed.suffix(3) && isOneCharacterOff(read, listed)
    }

    /// True when `read` is `listed` with exactly one character misread (as long, one differs).
    static func isOneCharacterOff(_ read: [Character], _ listed: [Character]) -> Bool {
        read.count == listed.count && zip(listed, read).filter { $0 != $1 }.count == 1
    }

    /// The whole unit that starts with a listed short name ("서울" -> "서울특별시", "广西" -> "广西壮族自治区",
    /// "香港" -> "香港特别行政区").
    static func fullUnit(_ text: String, prefix: String) -> String {
        let rest = text.dropFirst(prefix.count)
        for suffix in ["특별자치도", "특별자치시", "특별시", "광역시", "特别行政区", "特別行政區", "壮族自治区", "回族自治区", "维吾尔自治区",
                       "自治区", "省", "市", "都", "府", "県", "道", "도"]
        where rest.hasPrefix(suffix) && !prefix.hasSuffix(String(suffix.last!)) {
            return prefix + suffix
        }
        return prefix
    }
}

extension CJKAddress {
    /// The parts of an address line without its postcode: region, municipality, the rest.
    static func split(_ text: String, region: String?) -> PostalAddress {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        // Japanese and Chinese print no space inside an address (`tidy` drops any OCR set there),
        // nor inside a unit's name ("西藏自 治区").
        if !rest.contains(where: CJKText.isHangul) { rest = Substring(CJKText.joiningHanSpaces(String(rest))) }
        var subregion: String?
        var city: String?
        let unit = Self.subregion(atStartOf: String(rest), region: region)
        if let unit {
            rest = rest.dropFirst(unit.count)
            // A province-level city (上海市, 台北市, 新竹縣) is the card's city.
            if let last = unit.last, "市縣县".contains(last) { city = unit } else { subregion = unit }
        }
        rest = rest.drop { " ,，、".contains($0) }
        // A province-level city followed by a city is the region of that city.
        if let provincial = city, let end = municipalityEnd(in: rest), rest[rest.index(before: end)] == "市" {
            subregion = provincial
            city = nil
        }
        if city == nil, var end = municipalityEnd(in: rest) {
            if region == "JP", let ward = wardEnd(in: rest, after: end) { end = ward }
            city = String(rest[..<end]).trimmingCharacters(in: .whitespaces)
            rest = rest[end...].drop { " ,，、".contains($0) }
        }
        var street = String(rest).trimmingCharacters(in: .whitespaces)
        if street.contains(where: CJKText.isHangul) { street = koreanStreet(street) }
        return PostalAddress(lines: [], street: street.isEmpty ? nil : street, city: city, region: subregion, postalCode: nil, country: nil)
    }

    /// A Korean road address as its standard form writes it: the road's name as one word (석촌호수로,
    /// 테헤란로7길), a space, then the building's number and the rest (", 5층"). OCR of Hangul
    /// parts words where the type sets syllables apart and joins the number to the road.
    static func koreanStreet(_ street: String) -> String {
        let chars = Array(street)
        var i = 0
        while i < chars.count {
            guard CJKText.isDigit(chars[i]), i == 0 || !CJKText.isDigit(chars[i - 1]) else { i += 1; continue }
            var end = i
            while end < chars.count, CJKText.isDigit(chars[end]) || chars[end] == "-" { end += 1 }
            var before = i - 1
            while before >= 0, chars[before] == " " { before -= 1 }
            // A number followed by 길 or 번길 belongs to the road's name (테헤란로7길).
            let roadGoesOn = end < chars.count && (chars[end] == "길" || chars[end] == "번")
            if before >= 1, "로길".contains(chars[before]), !roadGoesOn {
                let road = chars[...before].filter { $0 != " " }
                guard road.allSatisfy({ CJKText.isHangul($0) || CJKText.isDigit($0) }) else { return street }
                return String(road) + " " + String(chars[i...])
            }
            i = end
        }
        return street
    }

    /// The end of a city whose name holds a town's or a village's mark (東村山市, 十日町市, 大町市):
    /// after 町 or 村 not in a county, a 市 within two more characters of the name ends the
    /// municipality (a town or village comes after its county, never before a city), unless it
    /// starts a market's name (市場, 市场). Nil when no such 市 follows.
    static func cityGoingOn(in text: Substring, after end: Substring.Index) -> Substring.Index? {
        guard end > text.startIndex, "町村".contains(text[text.index(before: end)]) else { return nil }
        let next = text[end...].prefix(3)
        guard let mark = next.firstIndex(of: "市"), next[..<mark].allSatisfy(CJKText.isHanOrKana),
              text.index(after: mark) == text.endIndex || !"場场".contains(text[text.index(after: mark)]) else { return nil }
        return text.index(after: mark)
    }

    /// The end of a ward of a Japanese designated city (横浜市港南区): a city's municipality is
    /// the city with its ward, as Japan Post lists them. Nil when no ward follows the city.
    static func wardEnd(in text: Substring, after end: Substring.Index) -> Substring.Index? {
        guard end > text.startIndex, text[text.index(before: end)] == "市" else { return nil }
        let ward = text[end...].prefix(5)
        guard let mark = ward.firstIndex(of: "区"), mark > end, ward[..<mark].allSatisfy(CJKText.isHanOrKana) else { return nil }
        return text.index(after: mark)
    }

    /// Where the municipality ends: after the first word ending in 시, 군 or 구 (Korean), or the
    /// first 市, 区, 町, 村, 县 (a 郡 goes on to its town: 夷隅郡大多喜町).
    static func municipalityEnd(in text: Substring) -> Substring.Index? {
        if text.contains(where: CJKText.isHangul) {
            guard let word = text.split(separator: " ").first, word.count >= 2 else { return nil }
            if let last = word.last, "시군구".contains(last) { return word.endIndex }
            // Read without its space (구로구언주로 47): the first 시, 군 or 구 after a syllable,
            // followed by the road's name.
            var i = word.index(after: word.startIndex)
            while i < word.endIndex {
                let next = word.index(after: i)
                if "시군구".contains(word[i]), next < word.endIndex, CJKText.isHangul(word[next]) { return next }
                i = next
            }
            return nil
        }
        var i = text.startIndex
        var county = false
        var count = 0
        while i < text.endIndex {
            let ch = text[i]
            count += 1
            if !CJKText.isHanOrKana(ch) { return nil }
            if ch == "郡" && count >= 2 {
                county = true
            } else if count >= 2 && municipalityEnds.contains(ch) && (!county || "町村".contains(ch)) {
                let end = text.index(after: i)
                return county ? end : cityGoingOn(in: text, after: end) ?? end
            }
            if count > 8 { return nil }
            i = text.index(after: i)
        }
        return nil
    }
}
