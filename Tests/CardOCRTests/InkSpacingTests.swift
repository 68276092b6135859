import ImageIngest
import Testing
@testable import CardOCR

/// Made-up lines of full-width characters drawn as blocks of ink (each block one character's
/// ink), read with the spaces Tesseract's data guesses, spelled again by their ink.
@Suite struct InkSpacingTests {
    /// A white image 800 x 200 with a block of ink 46 wide and `height` tall per width given, set
    /// from x = 50 after the gaps given (`gaps[i]` before block i + 1).
    static func image(height: Int = 48, widths: [Int], gaps: [Int]) -> (PixelImage, Box) {
        var image = PixelImage(width: 800, height: 200, channels: 1, fill: 255)
        var x = 50
        for (i, width) in widths.enumerated() {
            for y in 60..<(60 + height) {
                for dx in 0..<width { image.pixels[y * 800 + x + dx] = 20 }
            }
            x += width + (i < gaps.count ? gaps[i] : 0)
        }
        return (image, Box(left: 44, top: 56, right: x + 6, bottom: 64 + height))
    }

    /// A line as the script's data reads it: its words (the first box spanning the whole line,
    /// as Tesseract's single characters' boxes often do) and its spelling.
    static func line(_ words: [String], box: Box) -> OCRLine {
        OCRLine(words: words.map { OCRWord(text: $0, confidence: 0.9, box: box) }, box: box, printed: words.joined(separator: " "))
    }

    @Test func aNamePrintedWithASpaceIsSpelledWithItWhereverTheReadingPutIt() {
        // A space (20 px, 0.42 of the type's height) after the first character.
        let (image, box) = Self.image(widths: [46, 46, 46], gaps: [20, 6])
        for read in [["王秀芳"], ["王秀", "芳"]] {
            let page = InkSpacing.spaced(OCRPage(lines: [Self.line(read, box: box)], width: 800, height: 200), image: image)
            #expect(page.lines[0].text == "王 秀芳")
            #expect(page.lines[0].words.map(\.text) == ["王", "秀芳"])
            #expect(page.lines[0].words.map(\.box.left) == [50, 116])
        }
    }

    @Test func aNameSetCloseIsSpelledWithoutASpace() {
        let (image, box) = Self.image(widths: [46, 44, 46], gaps: [7, 6])
        let page = InkSpacing.spaced(OCRPage(lines: [Self.line(["吴红", "梅"], box: box)], width: 800, height: 200), image: image)
        #expect(page.lines[0].text == "吴红梅")
        #expect(page.lines[0].words.count == 1)
    }

    @Test func aNameWithItsFamilyNameOfTwoCharactersTakesTheSpaceAfterThem() {
        let (image, box) = Self.image(widths: [46, 46, 46, 46], gaps: [6, 22, 6])
        let page = InkSpacing.spaced(OCRPage(lines: [Self.line(["山田太", "郎"], box: box)], width: 800, height: 200), image: image)
        #expect(page.lines[0].text == "山田 太郎")
    }

    @Test func linesTheInkCannotTellAreKeptAsRead() {
        // Small type: a space is a few pixels.
        let (small, smallBox) = Self.image(height: 20, widths: [20, 20, 20], gaps: [3, 8])
        let smallLine = Self.line(["人事部主任"], box: smallBox)
        #expect(InkSpacing.spaced(OCRPage(lines: [smallLine], width: 800, height: 200), image: small).lines == [smallLine])
        // Latin letters or digits beside the characters.
        let (image, box) = Self.image(widths: [46, 46, 46], gaps: [20, 6])
        let mixed = Self.line(["TEL", "秀芳"], box: box)
        #expect(InkSpacing.spaced(OCRPage(lines: [mixed], width: 800, height: 200), image: image).lines == [mixed])
        // Two columns far apart, whose type may differ in size.
        let (columns, columnsBox) = Self.image(widths: [46, 46, 46, 46], gaps: [6, 200, 6])
        let twoColumns = Self.line(["唐凤", "海口"], box: columnsBox)
        #expect(InkSpacing.spaced(OCRPage(lines: [twoColumns], width: 800, height: 200), image: columns).lines == [twoColumns])
        // Pieces of ink that are not whole characters (a picture beside the name: no one pitch fits).
        let (picture, pictureBox) = Self.image(widths: [46, 46, 120], gaps: [6, 24])
        let name = Self.line(["王秀芳"], box: pictureBox)
        #expect(InkSpacing.spaced(OCRPage(lines: [name], width: 800, height: 200), image: picture).lines == [name])
    }
}
