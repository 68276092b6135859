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

    @Test(arguments: ["card-us-plain.jpg", "card-de-band.jpg", "card-ca-split.jpg", "card-au-small.jpg",
                      "card-gb-dark.jpg", "card-us-upside.jpg", "card-ca-sideways.jpg"])
    func findsTheCardAndGivesIt1024Pixels(file: String) throws {
        let card = try Self.prepared(file)
        #expect(card.cardDetected)
        #expect(card.image.longSide == 1024)
        // A 3.5 x 2 in card: the straightened image has about the card's aspect ratio.
        let ratio = Double(card.image.longSide) / Double(min(card.image.width, card.image.height))
        #expect(ratio > 1.6 && ratio < 1.9, "ratio \(ratio)")
    }

    @Test func aCardFillingTheFrameIsReadWhole() throws {
        let card = try Self.prepared("card-us-full.jpg")
        #expect(card.placement.method != .wholeFrame)
        #expect(card.image.longSide == 1024)
        let page = try OCREngine(pageSegmentation: .singleBlock).recognizeUpright(card.image).page
        #expect(page.text.contains("sokafor@bluebelloutfitters.com"))
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

    @Test(arguments: [("card-us-upside.jpg", 180, "grace@harborline.com"),
                      ("card-ca-sideways.jpg", 90, "nferreira@northshorefreight.ca"),
                      ("card-gb-dark.jpg", 0, "oliver@brambleandfinch.co.uk")])
    func turnedAndDarkCardsAreReadUpright(file: String, rotation: Int, email: String) throws {
        let card = try CardDetectionTests.prepared(file)
        let engine = try OCREngine(pageSegmentation: .singleBlock)
        let (page, applied) = try engine.recognizeUpright(card.image)
        #expect(applied.degrees == rotation)
        // OCR may set a space before the "@"; the parser joins it.
        #expect(page.text.replacingOccurrences(of: " @", with: "@").contains(email), "\(file)")
    }

    @Test func normalisationTurnsLightTextOnDarkIntoDarkOnLight() {
        // A dark band with a light bar in it, on light paper with a dark bar.
        var pixels = [UInt8](repeating: 230, count: 200 * 100)
        for y in 0..<50 { for x in 0..<200 { pixels[y * 200 + x] = 40 } }
        for y in 20..<26 { for x in 50..<150 { pixels[y * 200 + x] = 220 } }   // light text on the band
        for y in 70..<76 { for x in 50..<150 { pixels[y * 200 + x] = 30 } }    // dark text on paper
        let out = CardNormalizer.normalize(PixelImage(width: 200, height: 100, channels: 1, pixels: pixels))
        #expect(out.pixels[23 * 200 + 100] < 60)    // band text now dark
        #expect(out.pixels[10 * 200 + 100] > 200)   // band background now light
        #expect(out.pixels[73 * 200 + 100] < 60)    // paper text stays dark
        #expect(out.pixels[90 * 200 + 100] > 200)   // paper stays light
    }

    @Test func anEngineIsReusedForManyImages() throws {
        let engine = try OCREngine()
        let card = try CardDetectionTests.prepared("card-ca-split.jpg")
        let pages = try (0..<3).map { _ in try engine.recognize(card.image) }
        // One engine, three readings: the same text each time, none from a fresh engine.
        #expect(engine.readings == 3)
        #expect(Set(pages.map(\.text)).count == 1)
    }

    @Test func germanLanguageDataReadsTheSharpS() throws {
        guard (try? OCREngine.locateTessdata(languages: "deu", explicit: nil)) != nil else {
            try Test.cancel("tesseract-ocr-deu is not installed")
        }
        let card = try CardDetectionTests.prepared("card-de-band.jpg")
        let page = try OCREngine(languages: "eng+deu").recognizeUpright(card.image).page
        #expect(page.text.contains("Friedrichstraße"))
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
