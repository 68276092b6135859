import Foundation
import ImageIngest

/// The card cut out of a photo, straightened, upright, gray, and sized for OCR.
public struct PreparedCard: Sendable {
    public let image: PixelImage
    /// True when a card outline was found; false when the whole frame was used.
    public let cardDetected: Bool
    /// The card's outline in the upright photo (normalised, clockwise from the top-left), when detected.
    public let quad: Quadrilateral?
    /// Milliseconds spent decoding, and detecting plus straightening.
    public let decodeMs: Double
    public let detectMs: Double
    /// Decoder warnings (truncated data and the like).
    public let warnings: [String]
}

/// Finds the card, decodes just enough of the photo for it, and straightens it.
///
/// One grayscale decode at about `2 x longSide` (JPEG's DCT scaling makes that several times
/// cheaper than a full decode), card detection on a small copy of it, and one perspective warp
/// that also applies the EXIF orientation, so the stored pixels are never rotated as a whole.
/// A card too small in the frame for that size is decoded a second time at the scale it needs.
public enum CardPreparer {
    /// The long side the photo is first decoded at, as a multiple of the OCR long side: a card
    /// covering two thirds of the frame's long side still gets its full OCR size, and JPEG's 1/2
    /// scale (the fastest after 1/4 and 1/8) serves 12 MP photos.
    public static let workingFactor = 1.5

    /// Prepares `encoded` for OCR at `longSide` pixels on the card's long side.
    /// - Throws: `IngestError` when the image data cannot be decoded.
    /// With `detectCard` false the whole frame is used (for scans already cropped to the card).
    public static func prepare(_ encoded: EncodedImage, longSide: Int = 1024, detectCard: Bool = true) throws(IngestError) -> PreparedCard {
        let clock = ContinuousClock()
        var decodeTime = Duration.zero
        var detectTime = Duration.zero
        var start = clock.now
        let firstTarget = Int(Double(longSide) * workingFactor)
        // Colour for detection: a coloured band can have the same gray as the desk around it.
        let colour = try encoded.decode(minimumLongSide: firstTarget, grayscale: false, applyOrientation: false)
        decodeTime += clock.now - start

        start = clock.now
        let factor = colour.image.longSide / CardDetector.previewLongSide
        let preview = factor >= 2 ? colour.image.downsampled(by: factor) : colour.image
        let detection = detectCard ? CardDetector.detect(in: preview) : nil
        var working = DecodedImage(image: colour.image.grayscale(), warnings: colour.warnings)
        detectTime += clock.now - start

        guard let detection else {
            start = clock.now
            let card = working.image.resized(longSide: longSide).applyingOrientation(encoded.orientation)
            detectTime += clock.now - start
            return PreparedCard(image: card, cardDetected: false, quad: nil, decodeMs: decodeTime.milliseconds,
                                detectMs: detectTime.milliseconds, warnings: working.warnings)
        }

        // Corners in upright coordinates, ordered clockwise from the upright top-left; then back
        // to stored coordinates for sampling.
        let o = encoded.orientation
        let uw = Double(encoded.uprightWidth), uh = Double(encoded.uprightHeight)
        let upright = detection.quad.corners.map { c -> Point in
            let p = PixelImage.uprightPoint(fromStored: (c.x, c.y), orientation: o)
            return Point(p.x * uw, p.y * uh)
        }
        let ordered = CardDetector.orderClockwiseFromTopLeft(upright).map { Point($0.x / uw, $0.y / uh) }
        let stored = Quadrilateral(corners: ordered.map { p in
            let s = PixelImage.storedPoint(fromUpright: (p.x, p.y), orientation: o)
            return Point(s.x, s.y)
        })

        // A card small in the frame: decode again at the scale that gives it `longSide` pixels.
        let cardLong = Rectifier.longSide(of: stored, in: working.image)
        if cardLong < 0.8 * Double(longSide), encoded.supportsScaledDecode {
            let needed = Int((Double(working.image.longSide) * Double(longSide) / max(cardLong, 1)).rounded(.up))
            if needed > working.image.longSide {
                start = clock.now
                working = try encoded.decode(minimumLongSide: needed, grayscale: true, applyOrientation: false)
                decodeTime += clock.now - start
            }
        }

        start = clock.now
        let card = Rectifier.warp(working.image, quad: stored, longSide: longSide)
            ?? working.image.resized(longSide: longSide).applyingOrientation(o)
        detectTime += clock.now - start
        return PreparedCard(image: card, cardDetected: true, quad: Quadrilateral(corners: ordered),
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
