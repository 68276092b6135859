import Foundation
import ImageIngest
import Testing
import TestSupport
@testable import CardOCR

@Suite struct CardDetectionTests {
    static func prepared(_ file: String) throws -> PreparedCard {
        let bytes = try TestPaths.bytes(TestPaths.cards.appendingPathComponent(file))
        return try CardPreparer.prepare(try EncodedImage(bytes: bytes, source: file))
    }

    @Test(arguments: ["card-us-plain.jpg", "card-de-band.jpg", "card-ca-split.jpg", "card-au-small.jpg"])
    func findsTheCardAndGivesIt1024Pixels(file: String) throws {
        let card = try Self.prepared(file)
        #expect(card.cardDetected)
        #expect(card.image.width == 1024)
        // A 3.5 x 2 in card: the straightened image has about the card's aspect ratio.
        let ratio = Double(card.image.width) / Double(card.image.height)
        #expect(ratio > 1.6 && ratio < 1.9, "ratio \(ratio)")
    }

    @Test func aCardFillingTheFrameFallsBackToTheWholeFrame() throws {
        let card = try Self.prepared("card-us-full.jpg")
        #expect(!card.cardDetected)
        #expect(card.image.longSide == 1024)
    }

    @Test func homographyMapsTheCorners() throws {
        let quad = [Point(10, 20), Point(110, 25), Point(105, 80), Point(12, 75)]
        let h = try #require(Homography(rectangleWidth: 200, height: 100, to: quad))
        let mapped = [(0.0, 0.0), (200.0, 0.0), (200.0, 100.0), (0.0, 100.0)].map { h.apply($0.0, $0.1) }
        for (m, q) in zip(mapped, quad) {
            #expect(abs(m.0 - q.x) < 1e-6 && abs(m.1 - q.y) < 1e-6)
        }
    }
}

@Suite(.serialized) struct OCREngineTests {
    @Test func readsTheEmailOfAFixtureCard() throws {
        let card = try CardDetectionTests.prepared("card-us-plain.jpg")
        let engine = try OCREngine()
        let page = try engine.recognize(card.image)
        #expect(page.text.contains("laura.kimball@northwindlabs.com"))
        // Geometry comes with the text: the name is set larger than the contact lines.
        let name = try #require(page.lines.first { $0.text.contains("Kimball") && !$0.text.contains("@") })
        let email = try #require(page.lines.first { $0.text.contains("@") })
        #expect(name.textHeight > email.textHeight)
        #expect(name.confidence > 0.5)
    }

    @Test func anEngineIsReusedForManyImages() throws {
        let before = OCREngine.createdCount
        let engine = try OCREngine()
        let card = try CardDetectionTests.prepared("card-ca-split.jpg")
        for _ in 0..<3 { _ = try engine.recognize(card.image) }
        #expect(OCREngine.createdCount == before + 1)
    }

    @Test func aMissingLanguageNamesTheFileAndThePackage() {
        do {
            _ = try OCREngine(languages: "xyz")
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .missingLanguage)
            #expect(error.message.contains("xyz.traineddata"))
            #expect(error.message.contains("tesseract-ocr-xyz"))
        }
    }
}
