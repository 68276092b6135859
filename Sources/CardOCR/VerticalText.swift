import ImageIngest

/// Cards printed in vertical columns (Japanese and Chinese cards set top to bottom, the columns
/// from right to left), with their numbers, e-mail and web addresses often across the foot.
///
/// Such a card is read twice: with vertical data (`jpn_vert`, `chi_tra_vert`, `chi_sim_vert`) as
/// one vertical block, which reads the columns, and with horizontal data, which reads the lines
/// across. `VerticalText.page` keeps each reading's own kind of line and turns the columns into
/// lines as the parser reads them: one line a column, right to left, then the horizontal lines
/// from the top down. A column's words are laid along the line's x axis (`left`, `right` from the
/// column's top and bottom) and its type size is the column's width, so a line's height, the gaps
/// between its words and its place among the lines mean what they mean on a horizontal card.
public enum VerticalText {
    /// How much taller than wide a line's box must be to be a column, and how much wider than tall
    /// to be a line across.
    public static let elongation = 2.0
    /// The gap between two words of a column, in columns' widths, from which it is printed as a space.
    public static let spaceGap = 0.65
    /// Mean confidence under which a column or a line across is dropped (junk read in pictures).
    public static let unsureColumn = 0.5

    /// The lines of a card read both ways: the columns of `vertical` (read as one vertical
    /// block) above the lines across the foot that `horizontal` read, then the lines across that
    /// cross no column. Both readings are of the same image, not turned.
    public static func page(vertical: OCRPage, horizontal: OCRPage) -> OCRPage {
        let wide = horizontal.lines.filter { Double($0.box.width) >= elongation * Double($0.box.height) }
        let across = wide.filter { $0.confidence >= unsureColumn }
        // The foot: the first line across in the lower half long enough not to be junk read
        // across the columns, however surely read.
        let footTop = wide.filter { 2 * $0.box.top >= horizontal.height && $0.text.filter { $0.isLetter || $0.isNumber }.count >= 6 }
            .map(\.box.top).min() ?? Int.max
        var columns: [OCRLine] = []
        for line in vertical.lines where Double(line.box.height) >= elongation * Double(line.box.width) {
            let words = line.words.filter { ($0.box.top + $0.box.bottom) / 2 < footTop }
            guard !words.isEmpty, words.map(\.confidence).reduce(0, +) / Double(words.count) >= unsureColumn else { continue }
            columns.append(column(words, pageWidth: vertical.width))
        }
        columns.sort { $0.box.top < $1.box.top }
        let columnWords = columns.flatMap(\.words).map { unturned($0.box, pageWidth: vertical.width) }
        let kept = across.filter { line in !columnWords.contains { line.box.intersects($0) } }
        let shift = vertical.width
        let lines = columns + kept.map { moved($0) { shifted($0, by: shift) } }
        return OCRPage(lines: lines, width: vertical.height, height: vertical.width + horizontal.height)
    }

    /// The columns `vertical` missed (its layout analysis leaves out a column now and then, most
    /// often the name set large): lines `horizontal` read as tall as a column, which no column of
    /// `vertical` crosses, each widened by half its width, within the page. To be read alone.
    public static func missedColumns(vertical: OCRPage, horizontal: OCRPage) -> [Box] {
        let read = vertical.lines.filter { Double($0.box.height) >= elongation * Double($0.box.width) }.flatMap(\.words).map(\.box)
        return horizontal.lines.map(\.box).filter { box in
            Double(box.height) >= elongation * Double(box.width) && box.width > 0 && !read.contains { $0.intersects(box) }
        }.map { widened($0, by: $0.width / 2, within: vertical) }
    }

    /// The columns `vertical` read unsurely (under `unsureColumn`, which `page` drops), each
    /// widened by half its width within the page, with its index among `vertical`'s lines: read
    /// alone, a column set large (a name with a space in it) is often read surely.
    public static func unsureColumns(_ vertical: OCRPage) -> [(index: Int, box: Box)] {
        vertical.lines.indices.compactMap { i in
            let box = vertical.lines[i].box
            guard Double(box.height) >= elongation * Double(box.width), box.width > 0,
                  vertical.lines[i].confidence < unsureColumn else { return nil }
            return (i, widened(box, by: box.width / 2, within: vertical))
        }
    }

    /// Columns of print on `normalized` (the image `vertical` was read from, normalised: dark
    /// print on light paper) that no column of `vertical` and no line across that `horizontal`
    /// read surely covers, found as `UnreadInk` finds unread lines, on the image turned a quarter
    /// turn: the vertical data's layout analysis leaves out a column now and then, and the
    /// horizontal reading may read it as junk across instead of a tall line (`missedColumns`).
    /// To be read alone.
    public static func unreadColumns(in normalized: PixelImage, vertical: OCRPage, horizontal: OCRPage) -> [Box] {
        let width = normalized.width
        let across = horizontal.lines.filter { Double($0.box.width) >= elongation * Double($0.box.height) && $0.confidence >= unsureColumn }
        let columns = vertical.lines.filter { Double($0.box.height) >= elongation * Double($0.box.width) }
        let covered = (columns + across).map { OCRLine(words: [], box: turned($0.box, pageWidth: width)) }
        return UnreadInk.boxes(in: normalized.rotated(clockwise: .threeQuarters), read: OCRPage(lines: covered, width: normalized.height, height: width))
            .map { unturned($0, pageWidth: width) }
    }

    /// `box` grown by `margin` on every side, within `page`.
    static func widened(_ box: Box, by margin: Int, within page: OCRPage) -> Box {
        Box(left: max(0, box.left - margin), top: max(0, box.top - margin),
            right: min(page.width, box.right + margin), bottom: min(page.height, box.bottom + margin))
    }

    /// `vertical` with the lines of a reading of the part of its image at `origin`.
    public static func adding(_ part: OCRPage, at origin: Box, to vertical: OCRPage) -> OCRPage {
        let lines = part.lines.map { line in
            moved(line) { Box(left: $0.left + origin.left, top: $0.top + origin.top, right: $0.right + origin.left, bottom: $0.bottom + origin.top) }
        }
        return OCRPage(lines: vertical.lines + lines, width: vertical.width, height: vertical.height)
    }

    /// `line` with its box and its words' boxes put where `place` puts them.
    static func moved(_ line: OCRLine, _ place: (Box) -> Box) -> OCRLine {
        OCRLine(words: line.words.map { OCRWord(text: $0.text, confidence: $0.confidence, box: place($0.box)) },
                box: place(line.box), printed: line.printed)
    }

    /// `vertical` with its line `index` replaced by the lines of a reading of the part of its
    /// image at `origin`.
    public static func replacing(line index: Int, of vertical: OCRPage, with part: OCRPage, at origin: Box) -> OCRPage {
        var lines = vertical.lines
        lines.remove(at: index)
        return adding(part, at: origin, to: OCRPage(lines: lines, width: vertical.width, height: vertical.height))
    }

    /// A column as a line: its words in reading order (top down), each box turned a quarter turn
    /// anticlockwise, so the rightmost column is the first line; a space where the column leaves
    /// a gap of `spaceGap` of its width.
    static func column(_ words: [OCRWord], pageWidth: Int) -> OCRLine {
        let ordered = words.sorted { $0.box.top < $1.box.top }
        let widths = ordered.map(\.box.width).sorted()
        let size = Double(widths[widths.count / 2])
        var text = ""
        for (i, word) in ordered.enumerated() {
            if i > 0, Double(word.box.top - ordered[i - 1].box.bottom) >= spaceGap * size { text += " " }
            text += word.text
        }
        let laid = ordered.map { OCRWord(text: withDashes($0.text), confidence: $0.confidence, box: turned($0.box, pageWidth: pageWidth)) }
        let box = laid.dropFirst().reduce(laid[0].box) { $0.union($1.box) }
        return OCRLine(words: laid, box: box, printed: withDashes(text))
    }

    /// A column's text with its dashes between digits: a column sets a dash upright, as a
    /// vertical stroke (a postcode's "980-2839" as 980｜2839), which the vertical data reads as a
    /// bar, often with a "1" before it for the stroke's top ("9801|2839").
    static func withDashes(_ text: String) -> String {
        text.replacing(/(\d)1?[|｜︱丨](?=\d)/) { "\($0.output.1)-" }
    }

    /// A reading of an image turned a quarter turn (`turn`, clockwise) whose lines Tesseract's
    /// layout analysis took for columns and read turned back, as a reading of the image as it lay:
    /// each box turned back, the page's sides swapped. Lines across a card turned sideways run
    /// down the turned image, and data for an East Asian script reads them so as well as the card
    /// as it lies, in boxes taller than wide. nil for another turn, or when a line of a few
    /// characters or more is not a column (the turned image was read across).
    public static func asLaid(_ page: OCRPage, turnedBy turn: QuarterTurn) -> OCRPage? {
        guard turn == .quarter || turn == .threeQuarters else { return nil }
        let long = page.lines.filter { $0.text.filter { $0.isLetter || $0.isNumber }.count >= 3 }
        guard !long.isEmpty, long.allSatisfy({ Double($0.box.height) >= elongation * Double($0.box.width) }) else { return nil }
        // Turned clockwise, the image's left side is its top: a point (x, y) of the turned page
        // lay at (y, width - x); turned anticlockwise, at (height - y, x).
        func back(_ b: Box) -> Box {
            turn == .quarter ? turned(b, pageWidth: page.width) : unturned(b, pageWidth: page.height)
        }
        return OCRPage(lines: page.lines.map { moved($0, back) }, width: page.height, height: page.width)
    }

    /// A box of the upright page turned a quarter turn anticlockwise (x along the column, y from
    /// the right edge), and back.
    static func turned(_ b: Box, pageWidth: Int) -> Box {
        Box(left: b.top, top: pageWidth - b.right, right: b.bottom, bottom: pageWidth - b.left)
    }

    static func unturned(_ b: Box, pageWidth: Int) -> Box {
        Box(left: pageWidth - b.bottom, top: b.left, right: pageWidth - b.top, bottom: b.right)
    }

    static func shifted(_ b: Box, by dy: Int) -> Box {
        Box(left: b.left, top: b.top + dy, right: b.right, bottom: b.bottom + dy)
    }
}
