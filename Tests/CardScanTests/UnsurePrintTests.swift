@testable import CardOCR
import ImageIngest
import Testing
@testable import CardScan

/// The block of print a reading met unsurely, where a card whose outline took the page it lies on
/// is read again closer (`CardScanner.closerReading`).
@Suite struct UnsurePrintTests {
    /// A page of 1000 x 700 with 16 lines of running text, each 20 px high, read surely; the words
    /// of `unsure` (line index, left, right) read at 0.2 instead.
    static func page(unsure: [(line: Int, left: Int, right: Int)]) -> OCRPage {
        let lines = (0..<16).map { i -> OCRLine in
            let top = 40 * i + 20
            var words = stride(from: 40, to: 960, by: 120).map {
                OCRWord(text: "budget", confidence: 0.95, box: Box(left: $0, top: top, right: $0 + 90, bottom: top + 20))
            }
            words.removeAll { word in unsure.contains { $0.line == i && $0.left < word.box.right && word.box.left < $0.right } }
            words += unsure.filter { $0.line == i }.map {
                OCRWord(text: "Tlx", confidence: 0.2, box: Box(left: $0.left, top: top, right: $0.right, bottom: top + 20))
            }
            return OCRLine(words: words.sorted { $0.box.left < $1.box.left }, box: Box(left: 40, top: top, right: 960, bottom: top + 20))
        }
        return OCRPage(lines: lines, width: 1000, height: 700)
    }

    @Test func theCardsFragmentsAmongAPagesLinesMakeTheBlock() throws {
        // A card over lines 6-9 between x 400 and 600: its print read as fragments.
        let fragments = (6...9).flatMap { [(line: $0, left: 410, right: 480), (line: $0, left: 500, right: 590)] }
        let block = try #require(UnsurePrint.block(of: Self.page(unsure: fragments)))
        // Around the fragments (x 410-590, y 260-400), widened by a third of their size each way.
        #expect(block.left < 0.41 && block.right > 0.59 && block.top < 260.0 / 700 && block.bottom > 400.0 / 700)
        #expect(block.left > 0.3 && block.right < 0.7 && block.top > 0.25 && block.bottom < 0.7)
    }

    @Test func aBiggerBlockWinsOverAFewStrayWords() throws {
        let card = (9...13).flatMap { [(line: $0, left: 100, right: 200), (line: $0, left: 220, right: 300)] }
        let stray = [(line: 2, left: 700, right: 760), (line: 3, left: 700, right: 760), (line: 2, left: 780, right: 840),
                     (line: 3, left: 780, right: 840)]
        let block = try #require(UnsurePrint.block(of: Self.page(unsure: card + stray)))
        #expect(block.right < 0.5 && block.top > 0.4)
    }

    @Test func nothingCountsThatIsNoCloserLook() {
        // Fewer than four unsure words.
        #expect(UnsurePrint.block(of: Self.page(unsure: [(2, 100, 200), (3, 100, 200), (4, 100, 200)])) == nil)
        // One line of them: a blurred line, not a card.
        #expect(UnsurePrint.block(of: Self.page(unsure: (0..<6).map { (5, 100 + 120 * $0, 180 + 120 * $0) })) == nil)
        // A page's line cut by the outline's side runs across the page.
        #expect(UnsurePrint.block(of: Self.page(unsure: [(0, 40, 300), (0, 320, 600), (1, 620, 900), (1, 40, 960)])) == nil)
        // The whole page read unsurely (a blurred page): reading part of it closer is no help.
        let everything = (0..<16).flatMap { line in (0..<4).map { (line, 60 + 220 * $0, 240 + 220 * $0) } }
        #expect(UnsurePrint.block(of: Self.page(unsure: everything)) == nil)
    }

    @Test func theStretchAPagesLinesSkipIsTheHole() throws {
        // A card over lines 6-9 between x 400 and 600: the page's lines stop at its sides.
        let fragments = (6...9).flatMap { [(line: $0, left: 410, right: 480), (line: $0, left: 500, right: 590)] }
        let hole = try #require(UnsurePrint.hole(in: Self.page(unsure: fragments)))
        // From the last word before the card to the first after it (x 370-640), from the line
        // above to the line below (y 240-420), a cell (20 px) wider each way.
        #expect(abs(hole.left - 0.36) < 0.021 && abs(hole.right - 0.66) < 0.021, "\(hole)")
        #expect(abs(hole.top - 220.0 / 700) < 0.03 && abs(hole.bottom - 440.0 / 700) < 0.03, "\(hole)")
    }

    @Test func aPageWithoutAGapOrWithOneAtItsEdgeHasNoHole() {
        // Unbroken lines: the gaps between words are narrower than a card.
        #expect(UnsurePrint.hole(in: Self.page(unsure: [])) == nil)
        // Lines that stop short of the page's edge: its margin, not a card.
        let margin = (6...9).flatMap { [(line: $0, left: 770, right: 850), (line: $0, left: 880, right: 960)] }
        #expect(UnsurePrint.hole(in: Self.page(unsure: margin)) == nil)
        // Too few lines of running text to tell a page's lines.
        let card = OCRPage(lines: Array(Self.page(unsure: []).lines.prefix(3)), width: 1000, height: 700)
        #expect(UnsurePrint.hole(in: card) == nil)
    }

    /// A block of a page read turned is the same print on the card as cut: a dark square drawn on
    /// the card is found where the block of the turned card says.
    @Test func aBlockOfATurnedReadingLiesOnTheCardAsCut() {
        for turn in ImageIngest.QuarterTurn.allCases { Self.checkBlockOnCard(turnedBy: turn) }
    }

    static func checkBlockOnCard(turnedBy turn: ImageIngest.QuarterTurn) {
        var card = PixelImage(width: 100, height: 60, channels: 1, fill: 255)
        for y in 10..<20 { for x in 60..<80 { card.pixels[y * 100 + x] = 0 } }
        let turned = card.rotated(clockwise: turn)
        var dark: [(Int, Int)] = []
        for y in 0..<turned.height { for x in 0..<turned.width where turned.pixels[y * turned.width + x] == 0 { dark.append((x, y)) } }
        let w = Double(turned.width), h = Double(turned.height)
        let block = (left: Double(dark.map(\.0).min()!) / w, top: Double(dark.map(\.1).min()!) / h,
                     right: Double(dark.map(\.0).max()! + 1) / w, bottom: Double(dark.map(\.1).max()! + 1) / h)
        let onCard = UnsurePrint.onCard(block, readTurned: turn)
        #expect(abs(onCard.left - 0.6) < 1e-9 && abs(onCard.right - 0.8) < 1e-9, "\(turn)")
        #expect(abs(onCard.top - 10.0 / 60) < 1e-9 && abs(onCard.bottom - 20.0 / 60) < 1e-9, "\(turn)")
    }
}
