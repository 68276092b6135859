/// The lines of a Japanese, Chinese or Korean card set in large type (the name, often the
/// company) read a second time alone, as single lines.
///
/// Read with the rest of the card, such a line is read in the layout Tesseract's data made of the
/// whole card, at the size of its neighbours; read alone, a name misread as a similar character
/// (山田 床弘 for 山田 康弘) is often read right. The line read alone is kept when it reads as many
/// characters, all full-width letters, clearly more surely than the card's reading did.
public enum LargeLines {
    /// Lowest text height, in pixels of the OCR image, of a line read again.
    public static let smallestHeight = 36.0
    /// Most characters of a line read again (names and companies; not an address).
    static let mostCharacters = 16
    /// How much surer (mean word confidence) a line read alone must be to replace the card's
    /// reading of it: read alone, a character misread as a similar one is often a little surer.
    static let surer = 0.1

    /// The lines of `page` worth reading again alone, each with its box widened by a quarter of
    /// its height within the page.
    public static func candidates(in page: OCRPage) -> [(index: Int, box: Box)] {
        page.lines.indices.compactMap { i in
            let line = page.lines[i]
            guard line.textHeight >= smallestHeight, let letters = InkSpacing.fullWidthLetters(only: line.text),
                  (2...mostCharacters).contains(letters.count), line.box.width >= line.box.height else { return nil }
            return (i, VerticalText.widened(line.box, by: line.box.height / 4, within: page))
        }
    }

    /// `page` with its line `index` replaced by `part` (a reading of the image's part at
    /// `origin`) when `part` is one line of as many full-width letters, read `surer`.
    public static func replacing(line index: Int, with part: OCRPage, at origin: Box, in page: OCRPage) -> OCRPage {
        let read = part.lines.filter { !$0.text.allSatisfy { $0 == " " } }
        guard page.lines.indices.contains(index), read.count == 1, let alone = read.first else { return page }
        let original = page.lines[index]
        guard let letters = InkSpacing.fullWidthLetters(only: alone.text),
              letters.count == original.text.filter(InkSpacing.isFullWidthLetter).count,
              alone.confidence >= original.confidence + surer else { return page }
        let placed = VerticalText.adding(OCRPage(lines: [alone], width: part.width, height: part.height), at: origin,
                                         to: OCRPage(lines: [], width: page.width, height: page.height)).lines[0]
        var lines = page.lines
        // The card's reading's box of the line: a reading of the line alone boxes its words by
        // the part of the image it was given.
        lines[index] = OCRLine(words: placed.words, box: original.box, printed: placed.printed)
        return OCRPage(lines: lines, width: page.width, height: page.height)
    }
}
