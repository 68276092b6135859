import ImageIngest

/// The scripts of East Asian cards cardscan reads in their own letters, each with the Tesseract
/// data that reads it (Debian's tesseract-ocr-jpn, -chi-sim, -chi-tra, -kor).
public enum CardScript: String, Sendable, CaseIterable {
    case japanese, simplifiedChinese, traditionalChinese, korean

    /// The Tesseract language that reads this script; its model reads Latin letters and digits too.
    public var languages: OCRLanguages {
        switch self {
        case .japanese: return "jpn"
        case .simplifiedChinese: return "chi_sim"
        case .traditionalChinese: return "chi_tra"
        case .korean: return "kor"
        }
    }

    /// The Tesseract language that reads this script set in vertical columns (Debian's
    /// tesseract-ocr-jpn-vert, -chi-sim-vert, -chi-tra-vert); nil for Korean, printed across.
    public var verticalLanguages: OCRLanguages? {
        switch self {
        case .japanese: return "jpn_vert"
        case .simplifiedChinese: return "chi_sim_vert"
        case .traditionalChinese: return "chi_tra_vert"
        case .korean: return nil
        }
    }

    /// The script a Tesseract language code reads, nil for the others ("eng", "deu").
    public init?(language code: String) {
        guard let script = Self.allCases.first(where: { $0.languages.codes == [code] }) else { return nil }
        self = script
    }

    /// The script of text read from a card, by its letters: Hangul is Korean, kana Japanese, and
    /// Han characters alone Chinese (`hanScript` says which form); nil when fewer than
    /// `minimumLetters` letters are East Asian.
    public static func of(_ text: String, minimumLetters: Int = 2, hanScript: CardScript = .simplifiedChinese) -> CardScript? {
        var han = 0, kana = 0, hangul = 0
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9D: kana += 1
            case 0xAC00...0xD7A3, 0x1100...0x11FF, 0x3130...0x318F: hangul += 1
            case 0x4E00...0x9FFF, 0x3400...0x4DBF, 0xF900...0xFAFF: han += 1
            default: continue
            }
        }
        guard han + kana + hangul >= minimumLetters else { return nil }
        if hangul >= kana && hangul * 2 >= han { return .korean }
        if kana > 0 && kana * 8 >= han { return .japanese }
        return hanScript
    }
}

/// Evidence, from a reading with Latin-script data, that the card is printed in another script:
/// the lines such data cannot read. Read with English, a line of Japanese, Chinese or Korean
/// comes out as a few short, unsure words of stray letters ("BSB aR"), without the digits,
/// "@" or "." of the numbers and addresses the same cards print in Latin letters.
public enum ForeignScriptEvidence {
    /// Mean word confidence under which a line of letters counts as unread.
    public static let unsureLine = 0.6

    /// The lines read mostly as unsure stray letters; empty when they are too few to say the card
    /// is printed in another script (at least three, or two that are a third of the lines of
    /// words: lines of numbers, e-mail and web addresses alone are printed in Latin letters on
    /// any card, and do not count).
    public static func unreadLines(in page: OCRPage) -> [OCRLine] {
        let unread = page.lines.filter(isUnread)
        // The lines of words are counted only when two lines are unread.
        guard unread.count >= 3 || (unread.count == 2 && 3 * unread.count >= page.lines.filter { !letteredWords(of: $0).isEmpty }.count)
        else { return [] }
        return unread
    }

    /// True for a line whose words of letters (not numbers, e-mail or web addresses) were mostly
    /// read unsurely.
    public static func isUnread(_ line: OCRLine) -> Bool {
        guard line.confidence < 0.7 else { return false }
        let lettered = letteredWords(of: line)
        let stray = lettered.filter { $0.confidence < unsureLine }.count
        return !lettered.isEmpty && 5 * stray >= 3 * lettered.count
    }

    /// The line's words of letters, without numbers, e-mail and web addresses.
    static func letteredWords(of line: OCRLine) -> [OCRWord] {
        line.words.filter { word in
            word.text.contains(where: \.isLetter) && !(word.text.contains("@") || word.text.contains(".") && word.text.count > 5)
                && word.text.filter(\.isNumber).count < 3
        }
    }

    /// Han characters, kana and Hangul syllables in the words read with at least `sureWord`
    /// confidence: how much East Asian text a reading found surely.
    public static func sureEastAsianLetters(in page: OCRPage, sureWord: Double = 0.7) -> Int {
        var count = 0
        for line in page.lines {
            for word in line.words where word.confidence >= sureWord {
                count += word.text.unicodeScalars.filter { (0x3040...0x30FF).contains($0.value) || (0x4E00...0x9FFF).contains($0.value)
                    || (0xAC00...0xD7A3).contains($0.value) }.count
            }
        }
        return count
    }

    /// The lines a card's first reading (with English data) found but could not read, that no
    /// word of its reading in its own script (`script`, of the same image, not turned) crosses:
    /// the script's layout analysis leaves out a line now and then, most often the name set
    /// large. Each box is widened by a quarter of its height, within the page, to be read alone.
    public static func missedLines(script: OCRPage, english: OCRPage, minimumHeight: Int = 16) -> [Box] {
        let read = script.lines.flatMap(\.words).map(\.box)
        return english.lines.filter { line in
            line.box.height >= minimumHeight && line.box.width >= line.box.height && isUnread(line)
                && !read.contains { $0.intersects(line.box) }
        }.map { VerticalText.widened($0.box, by: $0.box.height / 4, within: english) }
    }

    /// `page` with the surely read lines of `part`, a reading of its image's part at `origin`
    /// (a missed line read alone), in their places from the top down.
    public static func adding(_ part: OCRPage, at origin: Box, to page: OCRPage) -> OCRPage {
        let sure = OCRPage(lines: part.lines.filter { $0.confidence >= VerticalText.unsureColumn }, width: part.width, height: part.height)
        let added = VerticalText.adding(sure, at: origin, to: page)
        return OCRPage(lines: added.lines.sorted { $0.box.top < $1.box.top }, width: page.width, height: page.height)
    }
}
