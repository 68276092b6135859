import ImageIngest
import Testing
@testable import CardOCR

/// Light print on a dark band that a reading left out, or read only as junk, is found to be read
/// alone; print read surely or beside a line read on its row, and a band without print, give
/// nothing.
@Suite struct LightPrintTests {
    /// A card 1000 x 600: light paper with dark print on the left, and a dark band on its right
    /// quarter with a line of light print (strokes with gaps, as letters) across it.
    static func banded(print: Bool = true) -> PixelImage {
        var pixels = [UInt8](repeating: 225, count: 1000 * 600)
        for y in 0..<600 { for x in 750..<1000 { pixels[y * 1000 + x] = 60 } }
        for y in 100..<124 { for x in 80..<400 where x % 12 < 7 { pixels[y * 1000 + x] = 30 } }  // the name, dark
        if print {
            for y in 290..<306 { for x in 780..<960 where x % 10 < 6 { pixels[y * 1000 + x] = 215 } }  // the company, light
        }
        return PixelImage(width: 1000, height: 600, channels: 1, pixels: pixels)
    }

    static let name = MissedLineTests.line([MissedLineTests.word("Karin Holm", 80, 100, 320, 24, 0.9)])

    @Test func lightPrintOnADarkBandNoLineCoversIsFound() throws {
        let boxes = LightPrint.boxes(in: Self.banded(), read: OCRPage(lines: [Self.name], width: 1000, height: 600))
        let box = try #require(boxes.first)
        #expect(boxes.count == 1)
        // Around the light line (780...960 x 290...306), widened by its height, inside the band.
        #expect(box.left <= 780 && box.right >= 956 && box.top <= 290 && box.bottom >= 304)
        #expect(box.left >= 700 && box.height <= 80)
    }

    @Test func lightPrintReadAsJunkIsStillUnread() {
        let junk = MissedLineTests.line([MissedLineTests.word("pe Rcad", 780, 290, 180, 16, 0.2)])
        #expect(LightPrint.boxes(in: Self.banded(), read: OCRPage(lines: [Self.name, junk], width: 1000, height: 600)).count == 1)
    }

    /// Read surely alone, the print takes the place of the junk the whole card's reading made of
    /// it; read unsurely, it adds nothing and the reading stays as it was.
    @Test func printReadSurelyAloneReplacesItsJunk() {
        let junk = MissedLineTests.line([MissedLineTests.word("pe Rcad", 780, 290, 180, 16, 0.2)])
        let page = OCRPage(lines: [Self.name, junk], width: 1000, height: 600)
        let box = Box(left: 740, top: 270, right: 1000, bottom: 326)
        let sure = OCRPage(lines: [MissedLineTests.line([MissedLineTests.word("Holm", 40, 20, 80, 16, 0.9), MissedLineTests.word("AB", 130, 20, 40, 16, 0.9)])],
                           width: 260, height: 56)
        #expect(LightPrint.adding(sure, at: box, to: page).lines.map(\.text) == ["Karin Holm", "Holm AB"])
        let unsure = OCRPage(lines: [MissedLineTests.line([MissedLineTests.word("Hcim", 40, 20, 80, 16, 0.3)])], width: 260, height: 56)
        #expect(LightPrint.adding(unsure, at: box, to: page).lines.map(\.text) == ["Karin Holm", "pe Rcad"])
    }

    @Test func printTheReadingCoversOrAPlainBandGivesNothing() {
        let company = MissedLineTests.line([MissedLineTests.word("Holm AB", 780, 290, 180, 16, 0.9)])
        #expect(LightPrint.boxes(in: Self.banded(), read: OCRPage(lines: [Self.name, company], width: 1000, height: 600)).isEmpty)
        #expect(LightPrint.boxes(in: Self.banded(print: false), read: OCRPage(lines: [Self.name], width: 1000, height: 600)).isEmpty)
        // A number read on the same row right beside it: the print is that line's, read already.
        let number = MissedLineTests.line([MissedLineTests.word("030 2345 6789", 600, 290, 150, 16, 0.4)])
        #expect(LightPrint.boxes(in: Self.banded(), read: OCRPage(lines: [Self.name, number], width: 1000, height: 600)).isEmpty)
    }
}
