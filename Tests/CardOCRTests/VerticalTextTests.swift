import ImageIngest
import Testing
@testable import CardOCR

/// Made-up readings of a card 600 wide and 1000 tall: columns read with vertical data, lines
/// across its foot read with horizontal data.
@Suite struct VerticalTextTests {
    static func word(_ text: String, _ left: Int, _ top: Int, _ width: Int, _ height: Int, _ confidence: Double = 0.95) -> OCRWord {
        OCRWord(text: text, confidence: confidence, box: Box(left: left, top: top, right: left + width, bottom: top + height))
    }

    static func line(_ words: [OCRWord]) -> OCRLine {
        let box = words.dropFirst().reduce(words[0].box) { $0.union($1.box) }
        return OCRLine(words: words, box: box, printed: words.map(\.text).joined(separator: " "))
    }

    /// A column of one-character words from `top` down, `size` pixels each, `gap` between them.
    static func column(_ text: String, x: Int, top: Int, size: Int, gap: Int = 4, confidence: Double = 0.95) -> OCRLine {
        var y = top
        var words: [OCRWord] = []
        for ch in text {
            if ch == " " { y += size; continue }
            words.append(word(String(ch), x, y, size, size, confidence))
            y += size + gap
        }
        return line(words)
    }

    static let vertical = OCRPage(lines: [
        column("山海商事株式会社", x: 500, top: 50, size: 40),
        column("営業部長", x: 440, top: 50, size: 30),
        column("田中 一郎", x: 350, top: 80, size: 60),
        line([word("m", 200, 880, 20, 60, 0.8)]),  // junk read in the numbers across the foot
    ], width: 600, height: 1000)

    static let horizontal = OCRPage(lines: [
        line([word("電", 360, 100, 50, 20, 0.3), word("x", 420, 100, 100, 20, 0.6)]),  // the columns read across
        line([word("TEL", 40, 880, 60, 22), word("03-1234-5678", 110, 880, 200, 22)]),
        line([word("info@example.co.jp", 40, 920, 300, 22)]),
    ], width: 600, height: 1000)

    @Test func columnsBecomeLinesFromRightToLeftThenTheLinesAcross() {
        let page = VerticalText.page(vertical: Self.vertical, horizontal: Self.horizontal)
        #expect(page.lines.map(\.text) == ["山海商事株式会社", "営業部長", "田中 一郎", "TEL 03-1234-5678", "info@example.co.jp"])
    }

    @Test func aColumnsTypeSizeIsItsWidthAndItsWordsLieAlongTheLine() {
        let page = VerticalText.page(vertical: Self.vertical, horizontal: Self.horizontal)
        let name = page.lines[2]
        #expect(name.textHeight == 60)
        #expect(name.words.map(\.box.left) == [80, 144, 268, 332])
        #expect(page.lines[0].box.top < page.lines[1].box.top && page.lines[1].box.top < page.lines[2].box.top)
        #expect(page.lines[2].box.bottom <= page.lines[3].box.top)
    }

    @Test func aGapOfLessThanTheSpaceIsNoSpace() {
        let tight = Self.column("東京都港区", x: 100, top: 40, size: 20, gap: 12)
        #expect(VerticalText.column(tight.words, pageWidth: 600).printed == "東京都港区")
    }

    @Test func aColumnTheVerticalReadingMissedIsFoundInTheReadingAcross() {
        let vertical = OCRPage(lines: Array(Self.vertical.lines.prefix(2)), width: 600, height: 1000)
        let horizontal = OCRPage(lines: [Self.line([Self.word("ヨヒ", 350, 80, 60, 200, 0.3)])], width: 600, height: 1000)
        #expect(VerticalText.missedColumns(vertical: vertical, horizontal: horizontal) == [Box(left: 320, top: 50, right: 440, bottom: 310)])
        #expect(VerticalText.missedColumns(vertical: Self.vertical, horizontal: horizontal).isEmpty)
    }

    @Test func aColumnReadUnsurelyIsToBeReadAgainAlone() {
        let unsure = Self.column("田中 一郎", x: 350, top: 80, size: 60, confidence: 0.3)
        let vertical = OCRPage(lines: Array(Self.vertical.lines.prefix(2)) + [unsure, Self.vertical.lines[3]], width: 600, height: 1000)
        let found = VerticalText.unsureColumns(vertical)
        // The name's column, widened by half its width; not the sure columns, nor the junk
        // across the foot, which is no column.
        #expect(found.map(\.index) == [2])
        #expect(found.map(\.box) == [Box(left: 320, top: 50, right: 440, bottom: 422)])
        let part = OCRPage(lines: [Self.column("田中 一郎", x: 30, top: 30, size: 60)], width: 120, height: 342)
        let read = VerticalText.replacing(line: 2, of: vertical, with: part, at: found[0].box)
        #expect(read.lines.map(\.box) == Array(Self.vertical.lines.prefix(2)).map(\.box) + [Self.vertical.lines[3].box, unsure.box])
        #expect(VerticalText.page(vertical: read, horizontal: Self.horizontal).lines.map(\.text)
                == ["山海商事株式会社", "営業部長", "田中 一郎", "TEL 03-1234-5678", "info@example.co.jp"])
    }

    /// A white card with dark squares where `vertical` prints its columns (and the foot's lines).
    static func printed(_ columns: [OCRLine]) -> PixelImage {
        var pixels = [UInt8](repeating: 240, count: 600 * 1000)
        for box in columns.flatMap(\.words).map(\.box) + Self.horizontal.lines.dropFirst().map(\.box) {
            for y in box.top + 4..<box.bottom - 4 { for x in box.left + 4..<box.right - 4 { pixels[y * 600 + x] = 20 } }
        }
        return PixelImage(width: 600, height: 1000, channels: 1, pixels: pixels)
    }

    @Test func aColumnOfPrintNeitherReadingCoversIsUnread() {
        let card = Self.printed(Array(Self.vertical.lines.prefix(3)))
        let vertical = OCRPage(lines: Array(Self.vertical.lines.prefix(2)), width: 600, height: 1000)
        // The name's column, its space and all, widened by a quarter of its width; nothing for the
        // columns read, nor for the lines across the foot that the horizontal reading read surely.
        #expect(VerticalText.unreadColumns(in: card, vertical: vertical, horizontal: Self.horizontal)
                == [Box(left: 338, top: 70, right: 422, bottom: 402)])
        #expect(VerticalText.unreadColumns(in: card, vertical: Self.vertical, horizontal: Self.horizontal).isEmpty)
    }

    @Test func aStrokeBetweenDigitsInAColumnIsADash() {
        #expect(VerticalText.withDashes("〒1501|2345 東京都") == "〒150-2345 東京都")
        #expect(VerticalText.withDashes("〒150｜2345") == "〒150-2345")
        #expect(VerticalText.withDashes("3|2|1") == "3-2-1")
        // Not beside a digit: a bar read in a picture, a long vowel mark between kana.
        #expect(VerticalText.withDashes("AB|C") == "AB|C")
        #expect(VerticalText.withDashes("ス丨パ") == "ス丨パ")
        let column = VerticalText.column([Self.word("〒1501|2345", 100, 40, 20, 200)], pageWidth: 600)
        #expect(column.printed == "〒150-2345")
        #expect(column.words.map(\.text) == ["〒150-2345"])
    }

    /// A card 1000 wide and 600 tall, its lines across read in an image of it turned a quarter:
    /// Tesseract read them as columns of the turned image (boxes taller than wide).
    @Test func linesReadAsColumnsOfTheCardTurnedAreLaidBackAcrossIt() throws {
        // The line across (60, 100)-(460, 140), two words, turned clockwise: x from 460 to 500, y from 60 down.
        let clockwise = OCRPage(lines: [Self.line([Self.word("유한회사", 460, 60, 40, 180), Self.word("인포미디어", 460, 260, 40, 200)])],
                                width: 600, height: 1000)
        let laid = try #require(VerticalText.asLaid(clockwise, turnedBy: .quarter))
        #expect(laid.width == 1000 && laid.height == 600)
        #expect(laid.lines[0].box == Box(left: 60, top: 100, right: 460, bottom: 140))
        #expect(laid.lines[0].words.map(\.box.left) == [60, 260])
        #expect(laid.lines[0].text == "유한회사 인포미디어")
        // Turned anticlockwise, the same line runs up from the foot: x from 100 to 140, y from 940 up.
        let anticlockwise = OCRPage(lines: [Self.line([Self.word("유한회사 인포미디어", 100, 540, 40, 400)])], width: 600, height: 1000)
        #expect(VerticalText.asLaid(anticlockwise, turnedBy: .threeQuarters)?.lines[0].box == Box(left: 60, top: 100, right: 460, bottom: 140))
    }

    @Test func aTurnedReadingReadAcrossOrUpsideDownStaysAsItIs() {
        let across = OCRPage(lines: [Self.line([Self.word("유한회사", 60, 100, 180, 40), Self.word("인포미디어", 260, 100, 200, 40)])],
                             width: 600, height: 1000)
        #expect(VerticalText.asLaid(across, turnedBy: .quarter) == nil)
        let columns = OCRPage(lines: [Self.line([Self.word("유한회사", 460, 60, 40, 180)])], width: 600, height: 1000)
        #expect(VerticalText.asLaid(columns, turnedBy: .half) == nil)
        #expect(VerticalText.asLaid(columns, turnedBy: .none) == nil)
    }
}

