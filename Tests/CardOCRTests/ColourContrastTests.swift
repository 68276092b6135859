import Foundation
import ImageIngest
import Testing
import TestSupport
import CardDetection
@testable import CardOCR

@Suite struct ColourContrastTests {
    /// A red card holding a green bar of the same gray (77 R + 150 G + 29 B) and a white one.
    static func redCard() -> PixelImage {
        let w = 200, h = 100
        var pixels = [UInt8](repeating: 0, count: 3 * w * h)
        func paint(_ ys: Range<Int>, _ xs: Range<Int>, _ c: (UInt8, UInt8, UInt8)) {
            for y in ys { for x in xs { pixels[3 * (y * w + x)] = c.0; pixels[3 * (y * w + x) + 1] = c.1; pixels[3 * (y * w + x) + 2] = c.2 } }
        }
        paint(0..<h, 0..<w, (214, 40, 52))
        paint(20..<26, 40..<160, (0, 146, 50))
        paint(70..<76, 40..<160, (250, 250, 246))
        return PixelImage(width: w, height: h, channels: 3, pixels: pixels)
    }

    @Test func colouredTextOnAColouredGroundOfTheSameGrayBecomesInk() {
        let card = Self.redCard()
        let gray = card.grayscale(), contrast = ColourContrast.image(card)
        let at = { (image: PixelImage, x: Int, y: Int) in Int(image.pixels[y * image.width + x]) }
        // In gray the green bar and the red ground are nearly one level ...
        #expect(abs(at(gray, 100, 23) - at(gray, 100, 10)) < 6)
        // ... in colour contrast the ground (the card's dominant colour) is white and both bars,
        // green and white, are dark on it.
        #expect(at(contrast, 100, 10) > 240)
        #expect(at(contrast, 100, 23) < 40)
        #expect(at(contrast, 100, 73) < 60)
    }

    @Test func aGrayImageIsKept() {
        let gray = PixelImage(width: 8, height: 8, channels: 1, fill: 90)
        #expect(ColourContrast.image(gray) == gray)
    }

    /// Fixtures/Colour/colour-band.png (scripts/make_colour_fixture.py): a made-up card whose
    /// wordmark is green on a red band of the same gray, above black contact lines.
    static func fixture() throws -> PixelImage {
        let url = TestPaths.packageRoot.appendingPathComponent("Fixtures/Colour/colour-band.png")
        let encoded = try EncodedImage(bytes: try TestPaths.bytes(url), source: "colour-band.png")
        return try encoded.decode(grayscale: false).image
    }

    @Test func theColourReadingReadsTheWordmarkTheGrayReadingMisses() throws {
        let card = try Self.fixture()
        let engine = try OCREngine(pageSegmentation: .singleBlock)
        let gray = try engine.recognize(card)
        let colour = try engine.recognize(ColourContrast.image(card))
        #expect(!gray.text.uppercased().contains("LANTERN"))
        #expect(gray.text.contains("Okonedo"))
        #expect(colour.text.contains("QUILLON LANTERN"))
        // Merged: the wordmark from the colour reading, the contact lines from the gray one, in order.
        let merged = gray.merging(colour)
        #expect(merged.lines.first?.text.contains("QUILLON LANTERN") == true)
        #expect(merged.text.contains("Okonedo") && merged.text.contains("555 0142"))
    }
}

@Suite struct ReadingMergeTests {
    static func line(_ text: String, _ confidence: Double, top: Int, left: Int = 10, right: Int = 300) -> OCRLine {
        let box = Box(left: left, top: top, right: right, bottom: top + 30)
        return OCRLine(words: text.split(separator: " ").map { OCRWord(text: String($0), confidence: confidence, box: box) }, box: box)
    }

    static func page(_ lines: [OCRLine]) -> OCRPage { OCRPage(lines: lines, width: 400, height: 300) }

    @Test func aLineWhereTheFirstReadingHasNoneIsAdded() {
        let first = Self.page([Self.line("Jane Doe", 0.9, top: 100)])
        let merged = first.merging(Self.page([Self.line("Brightwell Tiles", 0.7, top: 20)]))
        #expect(merged.lines.map(\.text) == ["Brightwell Tiles", "Jane Doe"])
    }

    @Test func aSurerLineReplacesJunkAndAnUnsureOneDoesNot() {
        let first = Self.page([Self.line("Bri9ht ve11 7iles", 0.4, top: 20), Self.line("Jane Doe", 0.9, top: 100)])
        #expect(first.merging(Self.page([Self.line("Brightwell Tiles", 0.85, top: 22)])).lines.map(\.text)
                == ["Brightwell Tiles", "Jane Doe"])
        // Not surer than the line it would replace by the margin: the first reading stays.
        #expect(first.merging(Self.page([Self.line("Jane Dee", 0.92, top: 98)])) == first)
        // Too little read surely to be taken at all.
        #expect(first.merging(Self.page([Self.line("a b", 0.95, top: 200)])) == first)
        // Another size: not the same pixels.
        #expect(first.merging(OCRPage(lines: [Self.line("Brightwell Tiles", 0.85, top: 250)], width: 200, height: 300)) == first)
    }
}

@Suite struct ColourShareTests {
    @Test func aCardInBlackWhiteAndGraysHasNoColourReading() {
        var pixels = [UInt8](repeating: 245, count: 3 * 100 * 60)
        for i in stride(from: 0, to: pixels.count, by: 3) where (i / 3) % 100 < 30 { pixels[i] = 60; pixels[i + 1] = 60; pixels[i + 2] = 64 }
        let gray = PixelImage(width: 100, height: 60, channels: 3, pixels: pixels)
        #expect(ColourContrast.image(gray, minimumShare: 0.04) == nil)
        #expect(ColourContrast.image(ColourContrastTests.redCard(), minimumShare: 0.04) != nil)
    }
}
