import ImageIngest
import Testing
@testable import CardOCR

/// Made-up readings of a horizontal card 1000 wide and 600 tall: the English reading finds every
/// line (those in another script unread), the script's reading leaves one out.
@Suite struct MissedLineTests {
    static func word(_ text: String, _ left: Int, _ top: Int, _ width: Int, _ height: Int, _ confidence: Double) -> OCRWord {
        OCRWord(text: text, confidence: confidence, box: Box(left: left, top: top, right: left + width, bottom: top + height))
    }

    static func line(_ words: [OCRWord]) -> OCRLine {
        let box = words.dropFirst().reduce(words[0].box) { $0.union($1.box) }
        return OCRLine(words: words, box: box, printed: words.map(\.text).joined(separator: " "))
    }

    static let english = OCRPage(lines: [
        line([word("BRE", 100, 60, 300, 36, 0.3)]),                          // the company, unread
        line([word("Bi", 100, 140, 80, 80, 0.2), word("ay", 220, 140, 80, 80, 0.3)]),  // the name set large, unread
        line([word("TEL", 100, 300, 60, 20, 0.9), word("03-1234-5678", 170, 300, 200, 20, 0.9)]),
        line([word("ii", 100, 400, 8, 8, 0.1)]),                             // a speck
    ], width: 1000, height: 600)

    static let script = OCRPage(lines: [
        line([word("海山商事株式会社", 104, 62, 296, 34, 0.9)]),
        line([word("TEL", 100, 300, 60, 20, 0.9), word("03-1234-5678", 170, 300, 200, 20, 0.9)]),
    ], width: 1000, height: 600)

    @Test func anUnreadLineNoWordOfTheScriptsReadingCrossesIsMissed() {
        // The name line, widened by a quarter of its height; not the company (read), the numbers
        // (read surely by English) or the speck (too small to be a line).
        #expect(ForeignScriptEvidence.missedLines(script: Self.script, english: Self.english)
                == [Box(left: 80, top: 120, right: 320, bottom: 240)])
    }

    /// Two unread lines are evidence of another script when they are a third of the lines of
    /// words: a card's numbers, e-mail and web addresses, in Latin letters on any card, do not
    /// count. Two among as many lines of Latin words are not.
    @Test func twoUnreadLinesAmongLinesOfContactDataAreEvidence() {
        let contact = [
            Self.line([Self.word("03-1234-5678", 100, 300, 200, 20, 0.9)]),
            Self.line([Self.word("(", 100, 330, 10, 20, 0.4), Self.word("150-0001)", 120, 330, 150, 20, 0.9)]),
            Self.line([Self.word("k.ito@umiyama.example", 100, 360, 300, 20, 0.9)]),
            Self.line([Self.word("www.umiyama.example", 100, 390, 300, 20, 0.9)]),
            Self.line([Self.word("+81", 100, 420, 50, 20, 0.9), Self.word("90-1234-5678", 160, 420, 200, 20, 0.9)]),
        ]
        let card = OCRPage(lines: Array(Self.english.lines.prefix(2)) + contact, width: 1000, height: 600)
        #expect(ForeignScriptEvidence.unreadLines(in: card).count == 2)
        let words = (0..<5).map { i in Self.line([Self.word("Sales", 100, 300 + 30 * i, 100, 20, 0.9), Self.word("Office", 210, 300 + 30 * i, 100, 20, 0.9)]) }
        let latin = OCRPage(lines: Array(Self.english.lines.prefix(2)) + words, width: 1000, height: 600)
        #expect(ForeignScriptEvidence.unreadLines(in: latin).isEmpty)
    }

    @Test func aMissedLineReadAloneTakesItsPlaceAmongTheLines() {
        let part = OCRPage(lines: [Self.line([Self.word("田中", 20, 20, 80, 80, 0.9), Self.word("一郎", 140, 20, 80, 80, 0.9)]),
                                   Self.line([Self.word("~", 230, 90, 10, 10, 0.1)])], width: 240, height: 120)
        let page = ForeignScriptEvidence.adding(part, at: Box(left: 80, top: 120, right: 320, bottom: 240), to: Self.script)
        #expect(page.lines.map(\.text) == ["海山商事株式会社", "田中 一郎", "TEL 03-1234-5678"])
        #expect(page.lines[1].box == Box(left: 100, top: 140, right: 300, bottom: 220))
    }

    /// The card of `script` as print: dark blocks on white where its lines and the name are, a
    /// speck, and a shadow along the left edge.
    static func printed() -> PixelImage {
        var pixels = [UInt8](repeating: 235, count: 1000 * 600)
        func block(_ left: Int, _ top: Int, _ width: Int, _ height: Int) {
            for y in top..<(top + height) { for x in left..<(left + width) where (x + y) % 3 != 0 { pixels[y * 1000 + x] = 30 } }
        }
        block(104, 62, 296, 34)                       // the company, read
        block(100, 140, 80, 80); block(220, 140, 80, 80)  // the name: two characters set large, unread
        block(100, 300, 60, 20); block(170, 300, 200, 20)  // the numbers, read
        block(100, 400, 8, 8)                         // a speck
        block(0, 0, 10, 600)                          // the shadow along the edge
        return PixelImage(width: 1000, height: 600, channels: 1, pixels: pixels)
    }

    @Test func printNoLineOfTheReadingCoversIsUnreadInk() {
        // One box for the name's two characters, widened by a quarter of its height; nothing for
        // the lines read, the speck or the edge.
        #expect(UnreadInk.boxes(in: Self.printed(), read: Self.script) == [Box(left: 80, top: 120, right: 320, bottom: 240)])
    }

    @Test func printTheReadingCoversLeavesNoUnreadInk() {
        let read = OCRPage(lines: Self.script.lines + [Self.line([Self.word("田中", 100, 140, 80, 80, 0.9), Self.word("一郎", 220, 140, 80, 80, 0.9)])],
                           width: 1000, height: 600)
        #expect(UnreadInk.boxes(in: Self.printed(), read: read).isEmpty)
    }

    /// A name set large read unsurely in pieces ("泪" and "7口" for parts of its characters)
    /// covers none of its ink: the name is still unread ink, and once it is read surely the pieces
    /// inside its box go. A sure line, an e-mail address or a number read unsurely still cover theirs.
    @Test func unsurePiecesOfALargeNameLeaveItsInkUnread() {
        let pieces = [Self.line([Self.word("泪", 230, 140, 60, 38, 0.1)]), Self.line([Self.word("7口", 230, 182, 60, 36, 0.55)])]
        let read = OCRPage(lines: Self.script.lines + pieces, width: 1000, height: 600)
        #expect(UnreadInk.boxes(in: Self.printed(), read: UnreadInk.sureLines(of: read)) == [Box(left: 80, top: 120, right: 320, bottom: 240)])
        #expect(UnreadInk.boxes(in: Self.printed(), read: read) != [Box(left: 80, top: 120, right: 320, bottom: 240)])
        let kept = UnreadInk.withoutFragments(inside: Box(left: 80, top: 120, right: 320, bottom: 240), of: read)
        #expect(kept.lines.map(\.text) == ["海山商事株式会社", "TEL 03-1234-5678"])
        #expect(!UnreadInk.isUnsureFragment(Self.line([Self.word("a@b.jp", 0, 0, 60, 20, 0.3)])))
        #expect(!UnreadInk.isUnsureFragment(Self.line([Self.word("0312345", 0, 0, 60, 20, 0.3)])))
        #expect(!UnreadInk.isUnsureFragment(Self.line([Self.word("田中", 0, 0, 60, 20, 0.8)])))
    }

    @Test func aPictureTallerThanAQuarterOfTheCardIsNotALine() {
        var picture = Self.printed()
        for y in 300..<480 { for x in 600..<900 { picture.pixels[y * 1000 + x] = 20 } }
        #expect(UnreadInk.boxes(in: picture, read: Self.script) == [Box(left: 80, top: 120, right: 320, bottom: 240)])
    }
}
