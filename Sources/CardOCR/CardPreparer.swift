import Foundation
import ImageIngest

/// Where the card was found in the photo, as the record reports it.
public struct CardPlacement: Sendable, Equatable {
    public let method: CardDetector.Method
    /// The card's corners in the upright photo's pixels, clockwise from its top-left; nil for the
    /// whole frame.
    public let corners: [Point]?
    public let confidence: Double
}

/// The card cut out of a photo, straightened, upright, gray, and sized for OCR.
public struct PreparedCard: Sendable {
    public let image: PixelImage
    public let placement: CardPlacement
    /// True when a card outline was found.
    public var cardDetected: Bool { placement.method == .outline }
    /// Milliseconds spent decoding, and detecting plus straightening.
    public let decodeMs: Double
    public let detectMs: Double
    /// Decoder warnings (truncated data and the like).
    public let warnings: [String]
    /// What detection weighed, drawn on the upright preview (only when asked for; see `DetectionOverlay`).
    public var overlay: PixelImage?
}

/// Finds the card, decodes just enough of the photo for it, and straightens it.
///
/// One colour decode at about `1.5 x longSide` (JPEG's DCT scaling makes that several times
/// cheaper than a full decode), card detection on a small copy of it, and one perspective warp
/// that also applies the EXIF orientation, so the stored pixels are never rotated as a whole.
/// A card (or text region) too small in the frame for that size is decoded a second time at the
/// scale it needs, so its text reaches OCR at the card's full size.
public enum CardPreparer {
    /// The long side the photo is first decoded at, as a multiple of the OCR long side.
    public static let workingFactor = 1.5

    /// Prepares `encoded` for OCR at `longSide` pixels on the card's long side.
    /// - Throws: `IngestError` when the image data cannot be decoded.
    /// With `detectCard` false the whole frame is used (for scans already cropped to the card).
    /// With `overlay`, the result carries a picture of the hypotheses and the winner.
    public static func prepare(_ encoded: EncodedImage, longSide: Int = 1024, detectCard: Bool = true,
                               overlay: Bool = false) throws(IngestError) -> PreparedCard {
        let clock = ContinuousClock()
        var decodeTime = Duration.zero
        var detectTime = Duration.zero
        var start = clock.now
        let firstTarget = Int(Double(longSide) * workingFactor)
        // Colour for detection: a coloured card can have the same gray as the desk around it.
        let colour = try encoded.decode(minimumLongSide: firstTarget, grayscale: false, applyOrientation: false)
        decodeTime += clock.now - start

        start = clock.now
        let preview = colour.image.longSide > CardDetector.previewLongSide * 3 / 2
            ? colour.image.resized(longSide: CardDetector.previewLongSide) : colour.image
        let location = detectCard ? CardDetector.locate(in: preview)
            : CardDetector.Location(method: .wholeFrame, quad: nil, confidence: 0)
        var working = DecodedImage(image: colour.image.grayscale(), warnings: colour.warnings)
        detectTime += clock.now - start

        let o = encoded.orientation
        let uw = Double(encoded.uprightWidth), uh = Double(encoded.uprightHeight)
        guard let quad = location.quad else {
            start = clock.now
            let card = working.image.resized(longSide: longSide).applyingOrientation(o)
            detectTime += clock.now - start
            return PreparedCard(image: card, placement: CardPlacement(method: .wholeFrame, corners: nil, confidence: 0),
                                decodeMs: decodeTime.milliseconds, detectMs: detectTime.milliseconds, warnings: working.warnings,
                                overlay: overlay ? drawOverlay(preview, location, chosen: nil, orientation: o) : nil)
        }

        // Corners in upright coordinates, ordered clockwise from the upright top-left; then back
        // to stored coordinates for sampling.
        let upright = quad.corners.map { c -> Point in
            let p = PixelImage.uprightPoint(fromStored: (c.x, c.y), orientation: o)
            return Point(p.x * uw, p.y * uh)
        }
        let ordered = QuadGeometry.orderClockwiseFromTopLeft(upright)
        var stored = Quadrilateral(corners: ordered.map { p in
            let s = PixelImage.storedPoint(fromUpright: (p.x / uw, p.y / uh), orientation: o)
            return Point(s.x, s.y)
        })
        if location.method == .outline {
            // Snap the preview's outline to the card's edges at the working size, then keep a hair
            // inside them so that no desk is read as text.
            start = clock.now
            let ww = Double(working.image.width), wh = Double(working.image.height)
            let pixels = stored.corners.map { Point($0.x * ww, $0.y * wh) }
            let refined = QuadRefiner.inset(QuadRefiner.refine(pixels, in: working.image), by: 0.008)
            stored = Quadrilateral(corners: refined.map { Point($0.x / ww, $0.y / wh) })
            detectTime += clock.now - start
        }

        // A card small in the frame: decode again at the scale that gives it `longSide` pixels.
        let cardLong = Rectifier.longSide(of: stored, in: working.image)
        if cardLong < 0.8 * Double(longSide), encoded.supportsScaledDecode || working.image.longSide < max(encoded.storedWidth, encoded.storedHeight) {
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
        let corners = stored.corners.map { c -> Point in
            let p = PixelImage.uprightPoint(fromStored: (c.x, c.y), orientation: o)
            return Point((p.x * uw).rounded(), (p.y * uh).rounded())
        }
        let placement = CardPlacement(method: location.method, corners: corners, confidence: location.confidence)
        return PreparedCard(image: card, placement: placement, decodeMs: decodeTime.milliseconds,
                            detectMs: detectTime.milliseconds, warnings: working.warnings,
                            overlay: overlay ? drawOverlay(preview, location, chosen: stored, orientation: o) : nil)
    }

    static func drawOverlay(_ preview: PixelImage, _ location: CardDetector.Location, chosen: Quadrilateral?,
                            orientation: ImageOrientation) -> PixelImage {
        DetectionOverlay.draw(on: preview, alternatives: location.alternatives, chosen: chosen, method: location.method)
            .applyingOrientation(orientation)
    }
}

extension Duration {
    /// The duration in milliseconds as a Double.
    public var milliseconds: Double {
        let (s, atto) = components
        return Double(s) * 1000 + Double(atto) / 1e15
    }
}
