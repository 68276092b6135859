import Foundation
import ImageIngest

/// The card cut out of a photo, straightened, gray, and sized for OCR.
public struct PreparedCard: Sendable {
    public let image: PixelImage
    /// True when a card outline was found; false when the whole frame was used.
    public let cardDetected: Bool
    /// The card's outline in the upright photo (normalised), when detected.
    public let quad: Quadrilateral?
    /// Milliseconds spent decoding (preview and working size together) and detecting.
    public let decodeMs: Double
    public let detectMs: Double
    /// Decoder warnings (truncated data and the like).
    public let warnings: [String]
}

/// Finds the card, decodes just enough of the photo for it, and straightens it.
public enum CardPreparer {
    /// Prepares `encoded` for OCR at `longSide` pixels on the card's long side.
    /// - Throws: `IngestError` when the image data cannot be decoded.
    public static func prepare(_ encoded: EncodedImage, longSide: Int = 1024) throws(IngestError) -> PreparedCard {
        let clock = ContinuousClock()
        var decodeTime = Duration.zero
        var detectTime = Duration.zero
        var start = clock.now
        let preview = try encoded.decode(minimumLongSide: CardDetector.previewLongSide, grayscale: false)
        decodeTime += clock.now - start

        start = clock.now
        var previewImage = preview.image
        if previewImage.longSide > CardDetector.previewLongSide * 3 / 2 {
            previewImage = previewImage.resized(longSide: CardDetector.previewLongSide)
        }
        let detection = CardDetector.detect(in: previewImage)
        detectTime += clock.now - start

        // How large must the upright photo be for the card's long side to reach `longSide`?
        let uprightLong = Double(max(encoded.uprightWidth, encoded.uprightHeight))
        var fraction = 1.0
        if let detection {
            let pw = Double(encoded.uprightWidth), ph = Double(encoded.uprightHeight)
            let c = detection.quad.scaled(width: pw, height: ph)
            let w = (distance(c[0], c[1]) + distance(c[3], c[2])) / 2
            let h = (distance(c[0], c[3]) + distance(c[1], c[2])) / 2
            fraction = max(w, h) / uprightLong
        }
        let needed = Int((Double(longSide) / max(fraction, 0.05)).rounded(.up))
        start = clock.now
        let working: DecodedImage
        if needed <= preview.image.longSide {
            working = DecodedImage(image: preview.image.grayscale(), warnings: preview.warnings)
        } else {
            working = try encoded.decode(minimumLongSide: needed, grayscale: true)
        }
        decodeTime += clock.now - start

        start = clock.now
        var card: PixelImage
        if let detection, let warped = Rectifier.warp(working.image, quad: detection.quad, longSide: longSide) {
            card = warped
        } else {
            card = working.image.resized(longSide: longSide)
        }
        detectTime += clock.now - start
        return PreparedCard(image: card, cardDetected: detection != nil, quad: detection?.quad,
                            decodeMs: decodeTime.milliseconds, detectMs: detectTime.milliseconds,
                            warnings: working.warnings)
    }
}

extension Duration {
    /// The duration in milliseconds as a Double.
    public var milliseconds: Double {
        let (s, atto) = components
        return Double(s) * 1000 + Double(atto) / 1e15
    }
}
