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
    public var image: PixelImage
    public let placement: CardPlacement
    /// True when a card outline was found.
    public var cardDetected: Bool { placement.method == .outline }
    /// Milliseconds spent decoding, and detecting plus straightening.
    public let decodeMs: Double
    public let detectMs: Double
    /// Milliseconds per phase, in order ("decode", "preview", "locate", "gray", "snap",
    /// "second-decode", "warp"; "resize" for the whole frame), for the benchmark.
    public let phases: [(name: String, milliseconds: Double)]
    /// Decoder warnings (truncated data and the like).
    public let warnings: [String]
    /// What detection weighed, drawn on the upright preview (only when asked for; see `DetectionOverlay`).
    public var overlay: PixelImage?
    /// The whole photo, gray, at the working size (in stored orientation), when no card outline
    /// was found: what the card crop may have cut off (a QR code beside the text) is still in it.
    public var frame: PixelImage?
    /// The outline the card was cut along (normalised, stored coordinates, corners clockwise from
    /// the card's upright top-left); nil for the whole frame. `colourCard` cuts along it again.
    public var storedQuad: Quadrilateral? = nil
    /// A rival outline (`CardDetector.Location.rival`, stored coordinates) and the photo it is cut
    /// from (`CardPreparer.rivalCard`).
    var rival: (quad: Quadrilateral, working: DecodedImage)? = nil
    /// The photo at the working size an outline was cut from, for `CardPreparer.closerCard`; nil
    /// for the whole frame and once the card is read.
    public private(set) var working: DecodedImage? = nil

    /// Lets go of the photo at the working size (`working`) once the card is read.
    public mutating func releaseWorking() { working = nil }
    /// True when detection found a rival outline (`CardPreparer.rivalCard`).
    public var hasRival: Bool { rival != nil }
    /// True when the rival outline is the likeliest elsewhere in the photo, not one nearly as
    /// likely as the card's (`CardDetector.Location.rivalIsElsewhere`).
    public internal(set) var rivalIsElsewhere = false
    /// The card as it was cut, before it was levelled (`TextSkew`), and the slant it was levelled
    /// by; nil when it was not. Codes are read on it: a levelled copy blurs their modules.
    public private(set) var unlevelled: (image: PixelImage, degrees: Double)? = nil

    /// This card levelled by `degrees` (`TextSkew.levelled`); a card levelled already is turned
    /// from the card as cut, by both slants at once.
    public func levelled(by degrees: Double) -> PreparedCard {
        var card = self
        let cut = unlevelled?.image ?? image, total = (unlevelled?.degrees ?? 0) + degrees
        card.unlevelled = (cut, total)
        card.image = TextSkew.levelled(cut, degrees: total)
        return card
    }
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
        var time = PhaseTimes()
        let (working, preview) = try workingImages(encoded, longSide: longSide, time: &time)
        let location = time.detecting("locate") {
            detectCard ? CardDetector.locate(in: preview) : CardDetector.Location(method: .wholeFrame, quad: nil, confidence: 0)
        }
        let o = encoded.orientation
        let rival = location.rival.map { (quad: storedQuad($0, of: encoded), working: working) }
        guard let quad = location.quad else {
            let card = time.detecting("resize") { working.image.resized(longSide: longSide).applyingOrientation(o) }
            return PreparedCard(image: card, placement: CardPlacement(method: .wholeFrame, corners: nil, confidence: 0),
                                decodeMs: time.decode.milliseconds, detectMs: time.detect.milliseconds, phases: time.phases,
                                warnings: working.warnings, overlay: overlay ? drawOverlay(preview, location, chosen: nil, orientation: o) : nil,
                                frame: detectCard ? working.image : nil, rival: rival, rivalIsElsewhere: location.rivalIsElsewhere)
        }
        let frame = location.method == .outline ? nil : working.image
        let cut = try card(along: storedQuad(quad, of: encoded), snap: location.method == .outline, in: working, of: encoded,
                           longSide: longSide, time: &time)
        let placement = CardPlacement(method: location.method, corners: uprightCorners(cut.stored, of: encoded),
                                      confidence: location.confidence)
        return PreparedCard(image: cut.image, placement: placement, decodeMs: time.decode.milliseconds,
                            detectMs: time.detect.milliseconds, phases: time.phases, warnings: cut.decoded.warnings,
                            overlay: overlay ? drawOverlay(preview, location, chosen: cut.stored, orientation: o) : nil, frame: frame,
                            storedQuad: cut.stored, rival: rival, working: working, rivalIsElsewhere: location.rivalIsElsewhere)
    }

    /// The part of `first`'s card within `block` (normalised to the card as cut: left, top, right,
    /// bottom) cut from the photo at `longSide` pixels, the photo decoded again at the size it
    /// needs: a closer look at print the card's reading found too small to read. Nil when
    /// `first` was not cut along an outline, or its photo at the working size was let go
    /// (`PreparedCard.releaseWorking`).
    public static func closerCard(of first: PreparedCard, block: (left: Double, top: Double, right: Double, bottom: Double),
                                  from encoded: EncodedImage, longSide: Int = 1024) throws(IngestError) -> PreparedCard? {
        guard let quad = first.storedQuad, let working = first.working,
              let toPhoto = Homography(rectangleWidth: 1, height: 1, to: quad.corners) else { return nil }
        let corners = [(block.left, block.top), (block.right, block.top), (block.right, block.bottom), (block.left, block.bottom)]
            .map { let p = toPhoto.apply($0.0, $0.1); return Point(p.0, p.1) }
        var time = PhaseTimes()
        return try secondCard(along: Quadrilateral(corners: corners), snap: false, method: .textRegion, of: first, in: working,
                              from: encoded, longSide: longSide, time: &time)
    }

    /// The card inside `first`'s outline, for an outline that took the page a card lies on and
    /// cut the card too small to read: the outline `CardDetector.inner` finds in the card as cut
    /// (`first.image`, normalised), cut from the photo as `prepare` cuts one. Nil when it finds
    /// none, when `first` was not cut along an outline or was levelled, or when its photo at the
    /// working size was let go (`PreparedCard.releaseWorking`).
    public static func innerCard(of first: PreparedCard, from encoded: EncodedImage, longSide: Int = 1024) throws(IngestError) -> PreparedCard? {
        guard first.cardDetected, first.unlevelled == nil, let quad = first.storedQuad, let working = first.working,
              let toPhoto = Homography(rectangleWidth: 1, height: 1, to: quad.corners) else { return nil }
        var time = PhaseTimes()
        guard let inner = time.detecting("inner", { CardDetector.inner(in: CardNormalizer.normalize(first.image)) }) else { return nil }
        let corners = inner.corners.map { let p = toPhoto.apply($0.x, $0.y); return Point(p.0, p.1) }
        return try secondCard(along: storedQuad(Quadrilateral(corners: corners), of: encoded), snap: true, method: .outline, of: first,
                              in: working, from: encoded, longSide: longSide, time: &time)
    }

    /// The card cut along the rival outline of `first` (`CardDetector.Location.rival`), prepared as
    /// `prepare` prepares the chosen one (`card(along:)`). Nil when detection found no rival.
    public static func rivalCard(of first: PreparedCard, from encoded: EncodedImage, longSide: Int = 1024) throws(IngestError) -> PreparedCard? {
        guard let (quad, working) = first.rival else { return nil }
        var time = PhaseTimes()
        return try secondCard(along: quad, snap: true, method: .outline, of: first, in: working, from: encoded, longSide: longSide, time: &time)
    }

    /// The photo of `first` cut along `quad` (`card(along:)`) for a second reading: found by
    /// `method`, with `first`'s confidence, warnings and overlay, and the time `time` holds.
    static func secondCard(along quad: Quadrilateral, snap: Bool, method: CardDetector.Method, of first: PreparedCard,
                           in working: DecodedImage, from encoded: EncodedImage, longSide: Int,
                           time: inout PhaseTimes) throws(IngestError) -> PreparedCard {
        let cut = try card(along: quad, snap: snap, in: working, of: encoded, longSide: longSide, time: &time)
        let placement = CardPlacement(method: method, corners: uprightCorners(cut.stored, of: encoded), confidence: first.placement.confidence)
        return PreparedCard(image: cut.image, placement: placement, decodeMs: time.decode.milliseconds, detectMs: time.detect.milliseconds,
                            phases: time.phases, warnings: first.warnings, overlay: first.overlay, frame: nil, storedQuad: cut.stored)
    }

    /// The card cut out of the photo along `quad` (normalised, stored coordinates): with `snap` (an
    /// outline), moved onto the card's edges at the working size and a hair inside them so that no
    /// desk is read as text; the photo decoded again when the card is small in `working`; then
    /// straightened. Returns the card, the outline it was cut along, and the decode it came from.
    static func card(along quad: Quadrilateral, snap: Bool, in working: DecodedImage, of encoded: EncodedImage, longSide: Int,
                     time: inout PhaseTimes) throws(IngestError) -> (image: PixelImage, stored: Quadrilateral, decoded: DecodedImage) {
        let stored = snap ? time.detecting("snap") { snapped(quad, to: working.image) } : quad
        let decoded = try time.decoding("second-decode") { () throws(IngestError) in
            try decodedForCard(stored, in: working, of: encoded, longSide: longSide)
        }
        let image = time.detecting("warp") {
            Rectifier.warp(decoded.image, quad: stored, longSide: longSide)
                ?? decoded.image.resized(longSide: longSide).applyingOrientation(encoded.orientation)
        }
        return (image, stored, decoded)
    }

    /// The card of `prepared` again, in colour: the photo decoded a second time in colour at the
    /// size the card needs and cut along the same outline (or the whole frame resized), so that
    /// its pixels match `prepared.image`'s one for one. For a second reading of cards whose gray
    /// loses the contrast between coloured text and a coloured ground (`ColourContrast`).
    public static func colourCard(of prepared: PreparedCard, from encoded: EncodedImage,
                                  longSide: Int = 1024) throws(IngestError) -> PixelImage {
        guard let (image, degrees) = prepared.unlevelled else { return try colourCard(cut: prepared, from: encoded, longSide: longSide) }
        var unlevelled = prepared
        unlevelled.image = image
        return TextSkew.levelled(try colourCard(cut: unlevelled, from: encoded, longSide: longSide), degrees: degrees)
    }

    /// `colourCard` of a card as it was cut (not levelled).
    static func colourCard(cut prepared: PreparedCard, from encoded: EncodedImage, longSide: Int) throws(IngestError) -> PixelImage {
        let target = max(prepared.image.width, prepared.image.height)
        guard let quad = prepared.storedQuad else {
            let colour = try encoded.decode(minimumLongSide: target, grayscale: false, applyOrientation: false).image
            return colour.resized(longSide: target).applyingOrientation(encoded.orientation)
        }
        // The card's long side in the full-size stored photo, and the decode that gives it `target`.
        let storedLong = max(encoded.storedWidth, encoded.storedHeight)
        let c = quad.corners.map { Point($0.x * Double(encoded.storedWidth), $0.y * Double(encoded.storedHeight)) }
        func length(_ a: Point, _ b: Point) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }
        let cardLong = max(1, (length(c[0], c[1]) + length(c[3], c[2])) / 2, (length(c[0], c[3]) + length(c[1], c[2])) / 2)
        let needed = min(storedLong, Int((Double(storedLong) * Double(target) / cardLong).rounded(.up)))
        let colour = try encoded.decode(minimumLongSide: needed, grayscale: false, applyOrientation: false).image
        let card = Rectifier.warp(colour, quad: quad, longSide: longSide)
            ?? colour.resized(longSide: target).applyingOrientation(encoded.orientation)
        guard card.width != prepared.image.width || card.height != prepared.image.height else { return card }
        return card.resized(width: prepared.image.width, height: prepared.image.height)
    }

    /// The whole frame of a photo whose card was found only as a text region, for a second
    /// reading: when no outline convinced, the text region may be a corner of a card that fills
    /// the frame (the rest of its text behind a busy picture or pattern). Made from the frame
    /// `first` kept, without decoding again; nil for a card found by its outline or read whole.
    public static func wholeFrame(of first: PreparedCard, orientation: ImageOrientation, longSide: Int = 1024) -> PreparedCard? {
        guard first.placement.method == .textRegion, let frame = first.frame else { return nil }
        let clock = ContinuousClock()
        let start = clock.now
        let image = frame.resized(longSide: longSide).applyingOrientation(orientation)
        let ms = (clock.now - start).milliseconds
        return PreparedCard(image: image, placement: CardPlacement(method: .wholeFrame, corners: nil, confidence: 0),
                            decodeMs: 0, detectMs: ms, phases: [("resize", ms)], warnings: [], overlay: first.overlay,
                            frame: frame)
    }

    /// The photo decoded once at the working size: gray, and a colour preview for detection (a
    /// coloured card can have the same gray as the desk around it). A JPEG is made into both row
    /// by row as it decodes, so its colour image is never whole in memory; the time spent making
    /// them counts as detection ("preview", "gray"), the rest as decoding.
    static func workingImages(_ encoded: EncodedImage, longSide: Int, time: inout PhaseTimes)
        throws(IngestError) -> (DecodedImage, PixelImage)
    {
        let minimum = Int(Double(longSide) * workingFactor)
        let start = time.clock.now
        if let both = try encoded.decodeGrayAndSmall(minimumLongSide: minimum, smallLongSide: CardDetector.previewLongSide) {
            let made = both.grayMilliseconds + both.smallMilliseconds
            time.record("decode", milliseconds: (time.clock.now - start).milliseconds - made, into: \.decode)
            time.record("preview", milliseconds: both.smallMilliseconds, into: \.detect)
            time.record("gray", milliseconds: both.grayMilliseconds, into: \.detect)
            return (both.gray, both.small)
        }
        let colour = try time.decoding("decode") { () throws(IngestError) in
            try encoded.decode(minimumLongSide: minimum, grayscale: false, applyOrientation: false)
        }
        let preview = time.detecting("preview") {
            colour.image.longSide > CardDetector.previewLongSide * 3 / 2
                ? colour.image.resized(longSide: CardDetector.previewLongSide) : colour.image
        }
        let gray = DecodedImage(image: time.detecting("gray") { colour.image.grayscale() }, warnings: colour.warnings)
        return (gray, preview)
    }

    /// Time spent decoding and detecting, added up over the phases of one preparation.
    /// Each phase is also kept under its name.
    struct PhaseTimes {
        let clock = ContinuousClock()
        var decode = Duration.zero
        var detect = Duration.zero
        var phases: [(name: String, milliseconds: Double)] = []

        mutating func decoding<T, E: Error>(_ name: String, _ body: () throws(E) -> T) throws(E) -> T {
            let start = clock.now
            let result = try body()
            record(name, since: start, into: \.decode)
            return result
        }

        mutating func detecting<T>(_ name: String, _ body: () -> T) -> T {
            let start = clock.now
            let result = body()
            record(name, since: start, into: \.detect)
            return result
        }

        private mutating func record(_ name: String, since start: ContinuousClock.Instant, into total: WritableKeyPath<PhaseTimes, Duration>) {
            let elapsed = clock.now - start
            self[keyPath: total] += elapsed
            phases.append((name, elapsed.milliseconds))
        }

        /// A phase timed elsewhere.
        mutating func record(_ name: String, milliseconds: Double, into total: WritableKeyPath<PhaseTimes, Duration>) {
            self[keyPath: total] += .nanoseconds(Int64((milliseconds * 1e6).rounded()))
            phases.append((name, milliseconds))
        }
    }

    /// The quad (normalised, in stored coordinates) with its corners ordered clockwise from the
    /// card's upright top-left, so that the warp also applies the EXIF orientation.
    static func storedQuad(_ quad: Quadrilateral, of encoded: EncodedImage) -> Quadrilateral {
        let o = encoded.orientation
        let uw = Double(encoded.uprightWidth), uh = Double(encoded.uprightHeight)
        let upright = quad.corners.map { c -> Point in
            let p = PixelImage.uprightPoint(fromStored: (c.x, c.y), orientation: o)
            return Point(p.x * uw, p.y * uh)
        }
        return Quadrilateral(corners: QuadGeometry.orderClockwiseFromTopLeft(upright).map { p in
            let s = PixelImage.storedPoint(fromUpright: (p.x / uw, p.y / uh), orientation: o)
            return Point(s.x, s.y)
        })
    }

    /// The outline moved onto the card's edges in `image`, and a hair inside them.
    static func snapped(_ quad: Quadrilateral, to image: PixelImage) -> Quadrilateral {
        let w = Double(image.width), h = Double(image.height)
        let pixels = quad.corners.map { Point($0.x * w, $0.y * h) }
        let refined = QuadRefiner.inset(QuadRefiner.refine(pixels, in: image), by: 0.008)
        return Quadrilateral(corners: refined.map { Point($0.x / w, $0.y / h) })
    }

    /// A card small in the frame: the photo decoded again at the scale that gives it `longSide`
    /// pixels (gray); `working` itself when it is large enough or no finer decode exists.
    static func decodedForCard(_ quad: Quadrilateral, in working: DecodedImage, of encoded: EncodedImage,
                               longSide: Int) throws(IngestError) -> DecodedImage {
        let cardLong = Rectifier.longSide(of: quad, in: working.image)
        guard cardLong < 0.8 * Double(longSide),
              encoded.supportsScaledDecode || working.image.longSide < max(encoded.storedWidth, encoded.storedHeight)
        else { return working }
        let needed = Int((Double(working.image.longSide) * Double(longSide) / max(cardLong, 1)).rounded(.up))
        guard needed > working.image.longSide else { return working }
        return try encoded.decode(minimumLongSide: needed, grayscale: true, applyOrientation: false)
    }

    /// The quad's corners in the upright photo's pixels, as the record reports them.
    static func uprightCorners(_ quad: Quadrilateral, of encoded: EncodedImage) -> [Point] {
        let uw = Double(encoded.uprightWidth), uh = Double(encoded.uprightHeight)
        return quad.corners.map { c -> Point in
            let p = PixelImage.uprightPoint(fromStored: (c.x, c.y), orientation: encoded.orientation)
            return Point((p.x * uw).rounded(), (p.y * uh).rounded())
        }
    }

    static func drawOverlay(_ preview: PixelImage, _ location: CardDetector.Location, chosen: Quadrilateral?,
                            orientation: ImageOrientation) -> PixelImage {
        DetectionOverlay.draw(on: preview, alternatives: location.alternatives, chosen: chosen, method: location.method)
            .applyingOrientation(orientation)
    }
}
