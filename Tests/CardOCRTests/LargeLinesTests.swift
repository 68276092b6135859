import Foundation
import ImageIngest
import Testing
import TestSupport
@testable import CardOCR

/// A made-up reading of a card 1000 x 600 in its script: the name set large and misread, the
/// rest in small type; the name read again alone.
@Suite struct LargeLinesTests {
    static func line(_ text: String, left: Int, top: Int, height: Int, confidence: Double) -> OCRLine {
        let words = text.split(separator: " ").enumerated().map { i, word in
            OCRWord(text: String(word), confidence: confidence,
                    box: Box(left: left + i * 120, top: top, right: left + i * 120 + 100, bottom: top + height))
        }
        return OCRLine(words: words, box: Box(left: left, top: top, right: words.last!.box.right, bottom: top + height), printed: text)
    }

    static let page = OCRPage(lines: [
        line("例野商事株式会社", left: 100, top: 60, height: 28, confidence: 0.9),
        line("山田 床弘", left: 100, top: 140, height: 52, confidence: 0.55),
        line("TEL 03-1234-5678", left: 100, top: 400, height: 20, confidence: 0.9),
    ], width: 1000, height: 600)

    @Test func onlyLinesOfLargeFullWidthLettersAreReadAgain() {
        let candidates = LargeLines.candidates(in: Self.page)
        #expect(candidates.map(\.index) == [1])
        #expect(candidates.first?.box == Box(left: 87, top: 127, right: 333, bottom: 205))
    }

    @Test func aLineReadAloneClearlySurerTakesTheLinesPlace() {
        let origin = Box(left: 87, top: 127, right: 333, bottom: 205)
        func alone(_ text: String, _ confidence: Double) -> OCRPage {
            OCRPage(lines: [Self.line(text, left: 13, top: 13, height: 52, confidence: confidence)], width: 246, height: 78)
        }
        let replaced = LargeLines.replacing(line: 1, with: alone("山田 康弘", 0.87), at: origin, in: Self.page)
        #expect(replaced.lines.map(\.text) == ["例野商事株式会社", "山田 康弘", "TEL 03-1234-5678"])
        #expect(replaced.lines[1].box == Self.page.lines[1].box)
        #expect(replaced.lines[1].words.first?.box.left == 100)
        // Barely surer, fewer characters, or more than one line: the card's reading stays.
        #expect(LargeLines.replacing(line: 1, with: alone("山田 康弘", 0.6), at: origin, in: Self.page) == Self.page)
        #expect(LargeLines.replacing(line: 1, with: alone("山田 康", 0.95), at: origin, in: Self.page) == Self.page)
        let two = OCRPage(lines: alone("山田 康弘", 0.9).lines + alone("例野", 0.9).lines, width: 246, height: 78)
        #expect(LargeLines.replacing(line: 1, with: two, at: origin, in: Self.page) == Self.page)
    }
}

/// Fixtures/CJK/large-name.png: a name of two characters set large, cut from a generated card
/// (scripts/make_cjk_photos.py) as the script's reading reads print it left out (`UnreadInk`).
@Suite struct RawLineTests {
    @Test func twoLargeCharactersReadAsARawLineThoughNotAsALine() throws {
        let url = TestPaths.packageRoot.appendingPathComponent("Fixtures/CJK/large-name.png")
        let image = try EncodedImage(bytes: try TestPaths.bytes(url), source: "large-name.png").decode(grayscale: true).image
        let engine = try OCREngine(languages: "chi_sim")
        // Tesseract's line finder finds no line in the two characters: nothing is read.
        let line = try engine.recognize(image, normalize: false, segmentation: .singleLine)
        #expect(line.confidentCharacters == 0)
        let raw = try engine.recognize(image, normalize: false, segmentation: .rawLine)
        #expect(raw.text.replacingOccurrences(of: " ", with: "") == "康雷")
        #expect(raw.meanWordConfidence >= 0.6)
    }
}
