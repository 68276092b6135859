/// Text of Japanese, Chinese and Korean cards: which script a card is printed in, full-width
/// forms folded to ASCII for numbers and addresses, and the spaces OCR puts between characters.
enum CJKText {
    /// The East Asian scripts, as the parser tells them apart.
    enum Script: Sendable, Equatable {
        case japanese, chinese, korean
    }

    /// Letters counted by script.
    struct Counts: Sendable, Equatable {
        var han = 0, kana = 0, hangul = 0, latin = 0
        var eastAsian: Int { han + kana + hangul }
    }

    static func counts(_ text: String) -> Counts {
        var c = Counts()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9D: c.kana += 1
            case 0xAC00...0xD7A3, 0x1100...0x11FF, 0x3130...0x318F: c.hangul += 1
            case 0x4E00...0x9FFF, 0x3400...0x4DBF, 0xF900...0xFAFF: c.han += 1
            case 0x41...0x5A, 0x61...0x7A: c.latin += 1
            default: continue
            }
        }
        return c
    }

    /// The script of a card when its text is mainly East Asian (at least four such letters, and
    /// a quarter of all letters but those of its e-mail and web addresses); nil for a Latin card,
    /// which is then parsed as before.
    static func script(of lines: [TextLine]) -> Script? {
        var c = Counts()
        var japaneseMark = false
        for line in lines {
            let l = counts(withoutAddresses(line.text))
            c.han += l.han; c.kana += l.kana; c.hangul += l.hangul; c.latin += l.latin
            japaneseMark = japaneseMark || japaneseOnlyMarks.contains { line.text.contains($0) }
        }
        guard c.eastAsian >= 4, c.eastAsian * 3 >= c.latin else { return nil }
        let script = script(c)
        return script == .chinese && japaneseMark ? .japanese : script
    }

    /// Signs only Japanese writes among the Han characters: the postal mark, the prefecture's
    /// 県 (Chinese writes 县 or 縣) and the Companies Act's legal forms. A card that prints one is
    /// Japanese though it prints no kana (a company, a name and an address all in kanji).
    static let japaneseOnlyMarks = ["〒", "県", "株式会社", "有限会社", "合同会社", "(株)", "（株）", "㈱", "(有)", "（有）", "㈲"]

    /// `text` without its e-mail and web addresses, which are Latin on a card in any script.
    static func withoutAddresses(_ text: String) -> String {
        guard text.contains("@") || text.localizedCaseInsensitiveContains("www.") || text.contains("://") else { return text }
        return text.split(separator: " ").filter { word in
            !(word.contains("@") || word.lowercased().hasPrefix("www.") || word.contains("://"))
        }.joined(separator: " ")
    }

    static func script(_ c: Counts) -> Script {
        if c.hangul >= c.kana && c.hangul * 2 >= c.han { return .korean }
        // Chinese is written without kana: two or more make the card Japanese, however many
        // Han characters its company, address and title hold.
        if c.kana >= 2 || (c.kana > 0 && c.kana * 10 >= c.han) { return .japanese }
        return .chinese
    }

    /// True for a Han character, kana or the prolonged sound mark (not Hangul, which Korean
    /// writes with spaces between words).
    static func isHanOrKana(_ ch: Character) -> Bool {
        guard let v = ch.unicodeScalars.first?.value else { return false }
        return (0x3040...0x30FF).contains(v) || (0x4E00...0x9FFF).contains(v) || (0x3400...0x4DBF).contains(v)
            || (0xF900...0xFAFF).contains(v) || (0x3005...0x3007).contains(v)
    }

    /// True for a digit written with a place value (0-9, full-width ０-９), not for the Han numerals
    /// (一, 二, 十), which Swift counts as numbers and names and titles are written with (陽一, 第一営業部).
    static func isDigit(_ ch: Character) -> Bool {
        ch.unicodeScalars.count == 1 && ch.unicodeScalars.first?.properties.numericType == .decimal
    }

    static func isHangul(_ ch: Character) -> Bool {
        guard let v = ch.unicodeScalars.first?.value else { return false }
        return (0xAC00...0xD7A3).contains(v)
    }

    static func isEastAsian(_ ch: Character) -> Bool { isHanOrKana(ch) || isHangul(ch) }

    /// Full-width digits, letters and punctuation as ASCII, the ideographic space as a space
    /// (Unicode's compatibility forms, NFKC), for numbers, e-mail addresses and postcodes.
    static func folded(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value >= 0x3000 }) else { return text }
        var s = text.precomposedStringWithCompatibilityMapping
        for (from, to) in [("\u{2212}", "-"), ("\u{30FC}", "ー"), ("\u{2010}", "-"), ("\u{2015}", "-")] {
            s = s.replacingOccurrences(of: from, with: to)
        }
        return s
    }

    /// `text` without the spaces OCR (or letter-spaced type) leaves between two Han or kana
    /// characters; Korean keeps its spaces between words.
    static func joiningHanSpaces(_ text: String) -> String {
        joiningSpaces(text) { before, after in
            (isHanOrKana(before) || isHanOrKana(after)) && !(isHangul(before) && isHangul(after)) && !(before.isASCII && after.isASCII)
        }
    }

    /// `text` with its spaces (and ideographic spaces) dropped between two characters `joins`
    /// accepts, the others as one space, none at the ends.
    static func joiningSpaces(_ text: String, where joins: (Character, Character) -> Bool) -> String {
        let chars = Array(text)
        var out = ""
        for (i, ch) in chars.enumerated() {
            if ch == " " || ch == "\u{3000}" {
                let before = out.last, after = chars[(i + 1)...].first { $0 != " " && $0 != "\u{3000}" }
                if let before, let after, joins(before, after) { continue }
                if out.last == " " || out.isEmpty { continue }
                out.append(" ")
            } else {
                out.append(ch)
            }
        }
        return out.trimmingCharacters(in: .whitespaces)
    }

    /// A Korean line's words joined as printed: Tesseract parts Hangul syllables set close
    /// together ("시 너 지"), so two words stay apart only where the gap between them is at least
    /// `wordGap` of the text's height (a space in Korean type is about a third of it); brackets
    /// always join. Tesseract's boxes of single syllables are loose, so a syllable left alone
    /// (Korean words of one syllable are rare on cards) joins the Hangul word nearer to it
    /// (`joiningLoneSyllables`). Nil without words.
    static func joiningByGaps(_ words: [TextWord], height: Double, wordGap: Double = 0.3) -> String? {
        guard let first = words.first else { return nil }
        var tokens = [(text: first.text, gap: 0.0)]
        for (previous, word) in zip(words, words.dropFirst()) {
            let bracket = previous.text.last.map { "(（[".contains($0) } == true || word.text.first.map { ")）]".contains($0) } == true
            let gap = word.left - previous.right
            if !bracket && gap >= wordGap * height {
                tokens.append((word.text, gap))
            } else {
                tokens[tokens.count - 1].text += word.text
            }
        }
        return joiningLoneSyllables(tokens).map(\.text).joined(separator: " ")
    }

    /// The last syllables of Korean address units (city, district, county, province, town,
    /// neighbourhood, road, street, floor).
    static let addressUnitEnds: Set<Character> = Set("시군구도읍면동리로길층")

    /// Words of one Hangul syllable joined to the Hangul word beside them with the narrower gap
    /// (`gap` is the gap before a word, an address unit's end joins the word before it); a family name before a given name ("이 정숙") stays apart.
    static func joiningLoneSyllables(_ input: [(text: String, gap: Double)]) -> [(text: String, gap: Double)] {
        var tokens = input
        func hangulAt(_ i: Int, last: Bool) -> Bool {
            guard tokens.indices.contains(i), let ch = last ? tokens[i].text.last : tokens[i].text.first else { return false }
            return isHangul(ch)
        }
        var i = 0
        while i < tokens.count {
            let lone = tokens[i].text.count == 1 && hangulAt(i, last: true)
            let familyName = i == 0 && tokens.count == 2 && tokens[1].text.count == 2
                && CJKLexicon.koreanFamilyNames.contains(tokens[0].text.first!)
            let left = hangulAt(i - 1, last: true), right = hangulAt(i + 1, last: false)
            guard lone, !familyName, left || right else { i += 1; continue }
            // An address unit's last syllable (시, 구, 로 ...) ends a word: it joins the word before
            // it, and a word that ends in one takes no syllable after it.
            let unit = addressUnitEnds.contains(tokens[i].text.last!)
            let afterUnit = left && addressUnitEnds.contains(tokens[i - 1].text.last!)
            if left && (unit || !right || (!afterUnit && tokens[i].gap <= tokens[i + 1].gap)) {
                tokens[i - 1].text += tokens[i].text
                tokens.remove(at: i)
            } else {
                tokens[i + 1] = (tokens[i].text + tokens[i + 1].text, tokens[i].gap)
                tokens.remove(at: i)
            }
        }
        return tokens
    }

    /// Characters written only in the simplified or only in the traditional form, among the
    /// commonest on cards (telephone, number, district, county, company, manager ...): simplified
    /// first, traditional second. A card whose Han characters include more of the second is
    /// Taiwanese, Hong Kong or Macanese.
    static let simplifiedTraditional: [(Character, Character)] = [
        ("电", "電"), ("话", "話"), ("传", "傳"), ("号", "號"), ("区", "區"), ("县", "縣"), ("务", "務"), ("经", "經"),
        ("总", "總"), ("业", "業"), ("长", "長"), ("发", "發"), ("东", "東"), ("国", "國"), ("门", "門"), ("广", "廣"),
        ("华", "華"), ("湾", "灣"), ("楼", "樓"), ("机", "機"), ("营", "營"), ("销", "銷"), ("场", "場"), ("资", "資"),
        ("讯", "訊"), ("设", "設"), ("计", "計"), ("处", "處"), ("师", "師"), ("关", "關"), ("术", "術"), ("产", "產"),
        ("网", "網"), ("络", "絡"), ("贸", "貿"), ("易", "易"), ("际", "際"), ("实", "實"), ("们", "們"), ("为", "為"),
        ("个", "個"), ("于", "於"), ("这", "這"), ("车", "車"), ("银", "銀"), ("行", "行"), ("乡", "鄉"), ("镇", "鎮"),
        ("兴", "興"), ("达", "達"), ("联", "聯"), ("动", "動"), ("邮", "郵"), ("编", "編"), ("码", "碼"), ("责", "責"),
        ("监", "監"), ("董", "董"), ("协", "協"), ("专", "專"), ("项", "項"), ("员", "員"), ("级", "級"), ("导", "導"),
        ("科", "科"), ("学", "學"), ("会", "會"), ("医", "醫"), ("药", "藥"), ("线", "線"), ("园", "園"), ("电", "電"),
    ]

    static let simplifiedOnly: Set<Character> = Set(simplifiedTraditional.filter { $0.0 != $0.1 }.map(\.0))
    static let traditionalOnly: Set<Character> = Set(simplifiedTraditional.filter { $0.0 != $0.1 }.map(\.1))

    /// True when the text writes more characters in their traditional form than in their simplified one.
    static func isTraditional(_ text: String) -> Bool {
        var simplified = 0, traditional = 0
        for ch in text {
            if simplifiedOnly.contains(ch) { simplified += 1 } else if traditionalOnly.contains(ch) { traditional += 1 }
        }
        return traditional > simplified
    }
}
