import Foundation
import ImageIngest
import Testing
import TestSupport
@testable import CardDetection

/// The card found in the fixture photos, straightened and sized for OCR.
@Suite struct CardPreparerTests {
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

    /// A closer look at part of a card (`closerCard`) is that part of the card as first cut, at
    /// OCR's size: on photos stored turned (EXIF) and upright, the block's pixels match the first
    /// cut's, and another block's do not.
    @Test(arguments: ["card-us-plain.jpg", "card-ca-sideways.jpg", "card-us-upside.jpg"])
    func aCloserCardIsThePartOfTheCardItNames(file: String) throws {
        let bytes = try TestPaths.bytes(TestPaths.cards.appendingPathComponent(file))
        let encoded = try EncodedImage(bytes: bytes, source: file)
        let card = try CardPreparer.prepare(encoded)
        let block = (left: 0.05, top: 0.1, right: 0.55, bottom: 0.6)
        let closer = try #require(try CardPreparer.closerCard(of: card, block: block, from: encoded))
        #expect(closer.placement.method == .textRegion)
        #expect(closer.image.longSide == 1024)
        // The block cut from the first card's pixels, made 40 x 40 as the closer card is.
        let gray = card.image.grayscale()
        func part(_ b: (left: Double, top: Double, right: Double, bottom: Double)) -> PixelImage {
            let x0 = Int(b.left * Double(gray.width)), x1 = Int(b.right * Double(gray.width))
            let y0 = Int(b.top * Double(gray.height)), y1 = Int(b.bottom * Double(gray.height))
            let pixels = (y0..<y1).flatMap { y in gray.pixels[(y * gray.width + x0)..<(y * gray.width + x1)] }
            return PixelImage(width: x1 - x0, height: y1 - y0, channels: 1, pixels: Array(pixels)).resized(width: 40, height: 40)
        }
        func difference(_ a: PixelImage, _ b: PixelImage) -> Double {
            Double(zip(a.pixels, b.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.pixels.count)
        }
        let seen = closer.image.grayscale().resized(width: 40, height: 40)
        let same = difference(seen, part(block)), other = difference(seen, part((0.45, 0.4, 0.95, 0.9)))
        #expect(same < 6 && same < 0.5 * other, "\(file): \(same) against \(other)")
        // Without the photo at the working size (a card read already) there is no closer look.
        var read = card
        read.releaseWorking()
        #expect(try CardPreparer.closerCard(of: read, block: block, from: encoded) == nil)
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

@Suite struct WholeFrameReadingTests {
    static func card(_ method: CardDetector.Method, frame: PixelImage?) -> PreparedCard {
        PreparedCard(image: PixelImage(width: 64, height: 40, channels: 1, fill: 255),
                     placement: CardPlacement(method: method, corners: nil, confidence: 0.3), decodeMs: 0, detectMs: 0,
                     phases: [], warnings: [], overlay: nil, frame: frame)
    }

    @Test func aTextRegionIsReadAgainAsTheWholeFrame() throws {
        // A frame in stored orientation, 400 x 300, whose top-left quarter is dark.
        var pixels = [UInt8](repeating: 200, count: 400 * 300)
        for y in 0..<150 { for x in 0..<200 { pixels[y * 400 + x] = 20 } }
        let frame = PixelImage(width: 400, height: 300, channels: 1, pixels: pixels)
        let whole = try #require(CardPreparer.wholeFrame(of: Self.card(.textRegion, frame: frame), orientation: .right,
                                                         longSide: 200))
        #expect(whole.placement.method == .wholeFrame)
        #expect(!whole.cardDetected)
        // Sized for OCR and turned upright (EXIF "right": a quarter turn clockwise).
        #expect(whole.image.width == 150 && whole.image.height == 200)
        #expect(whole.image.pixels[5 * 150 + 140] < 60)   // the dark quarter is now top-right
        #expect(whole.image.pixels[195 * 150 + 5] > 150)
        #expect(whole.frame == frame)
    }

    @Test func anOutlineOrTheWholeFrameIsNotReadAgain() {
        let frame = PixelImage(width: 40, height: 30, channels: 1, fill: 128)
        #expect(CardPreparer.wholeFrame(of: Self.card(.outline, frame: frame), orientation: .up) == nil)
        #expect(CardPreparer.wholeFrame(of: Self.card(.wholeFrame, frame: frame), orientation: .up) == nil)
        #expect(CardPreparer.wholeFrame(of: Self.card(.textRegion, frame: nil), orientation: .up) == nil)
    }
}

@Suite struct ColourCardTests {
    @Test(arguments: ["card-de-band.jpg", "card-gb-dark.jpg"])
    func theColourCardHasTheGrayCardsPixelsInColour(file: String) throws {
        let encoded = try EncodedImage(bytes: try TestPaths.bytes(TestPaths.cards.appendingPathComponent(file)), source: file)
        let prepared = try CardPreparer.prepare(encoded)
        let colour = try CardPreparer.colourCard(of: prepared, from: encoded)
        #expect(colour.channels == 3)
        #expect(colour.width == prepared.image.width && colour.height == prepared.image.height)
        // The same place on the card, pixel for pixel: its gray is the prepared card's, but for
        // the decode's rounding.
        let gray = colour.grayscale()
        let difference = zip(gray.pixels, prepared.image.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        #expect(Double(difference) / Double(gray.pixels.count) < 6, "\(file)")
    }
}
