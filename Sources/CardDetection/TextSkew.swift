import Foundation
import ImageIngest

/// The slant of the rows of print on a card as it was cut out: an outline that took the page or
/// the desk beside the card, or a card found only as the whole frame, leaves its text turned by
/// some degrees, and Tesseract's layout analysis reads text turned by more than a few degrees
/// as fragments.
///
/// The slant is found by projection: the card's fine detail (print, at a reduced size) is summed
/// along lines at each whole degree; at the slant of the rows of print the sums rise and fall
/// sharply from row to gap (the squared differences of neighbouring sums, as Leptonica's skew
/// search scores them). A cut can hold print at two slants (the card, and the page under it), so
/// each part of it (a tile) gives its own; slants are degrees counter-clockwise as seen (rows
/// rising to the right are positive).
public enum TextSkew {
    /// The largest slant looked for, in degrees either way.
    public static let maxDegrees = 22

    /// The least slant worth a second reading, in degrees: Tesseract reads the rest.
    public static let leastDegrees = 3.0

    /// Long side of the reduced image the slant is measured on.
    static let measureLongSide = 384

    /// The slants of print some part of the card holds (`tileSlants`, each tile's best slant of at
    /// least `leastDegrees` that stands out of its scores), weighed by the tiles' detail and
    /// prominence, the heaviest first; a slant within two degrees of a heavier one is left out; at
    /// most `limit`.
    public static func partSlants(of image: PixelImage, limit: Int = 2, prominence: Double = 2) -> [Double] {
        var weights: [Int: Double] = [:]
        for tile in tileSlants(of: image) where abs(tile.degrees) >= leastDegrees && tile.prominence >= prominence {
            weights[Int(tile.degrees), default: 0] += Double(tile.points) * tile.prominence
        }
        var chosen: [Double] = []
        for (degrees, _) in weights.sorted(by: { $0.value > $1.value }) where !chosen.contains(where: { abs($0 - Double(degrees)) <= 2 }) {
            chosen.append(Double(degrees))
            if chosen.count == limit { break }
        }
        return chosen
    }

    /// Per tile of the card (a 3 x 3 grid of half-size tiles, overlapping), its best slant and how
    /// much that slant's score stands above the tile's median score.
    public static func tileSlants(of image: PixelImage) -> [(degrees: Double, prominence: Double, points: Int)] {
        let gray = image.channels == 1 ? image : image.grayscale()
        let small = gray.longSide > measureLongSide ? gray.resized(longSide: measureLongSide) : gray
        let all = detail(small)
        let w = small.width, h = small.height
        var out: [(Double, Double, Int)] = []
        for ty in 0..<3 {
            for tx in 0..<3 {
                let x0 = tx * w / 4, y0 = ty * h / 4, x1 = x0 + w / 2, y1 = y0 + h / 2
                let points = all.filter { Int($0.x) >= x0 && Int($0.x) < x1 && Int($0.y) >= y0 && Int($0.y) < y1 }
                guard points.count >= 40 else { continue }
                let scores = self.scores(of: points, width: w, height: h)
                let sorted = scores.sorted()
                let median = max(1e-9, sorted[sorted.count / 2])
                // A best at either end of the range is no peak: the print's slant lies beyond it, or nowhere.
                guard let best = scores.indices.max(by: { scores[$0] < scores[$1] }), best > 0, best < scores.count - 1 else { continue }
                out.append((Double(best - maxDegrees), scores[best] / median, points.count))
            }
        }
        return out
    }

    /// The projection score of `points` (detail in an image `width` x `height`) at each whole
    /// degree from -`maxDegrees` to `maxDegrees`: rows of print slanted by `a` (rising to the
    /// right; image y grows downwards) lie along lines of constant y cos a + x sin a.
    static func scores(of points: [(x: Int32, y: Int32)], width: Int, height: Int) -> [Double] {
        let w = Double(width), h = Double(height)
        let span = Int((w * w + h * h).squareRoot()) + 2
        var bins = [Int32](repeating: 0, count: span)
        var scores: [Double] = []
        for k in -maxDegrees...maxDegrees {
            let a = Double(k) * .pi / 180
            let s = sin(a), c = cos(a)
            // r runs from min(0, w sin a) to h cos a + max(0, w sin a): shift the negative part in.
            let offset = w * max(0, -s) + 1
            for i in bins.indices { bins[i] = 0 }
            for p in points {
                let r = Int(Double(p.y) * c + Double(p.x) * s + offset)
                if r >= 0 && r < span { bins[r] += 1 }
            }
            var sum = 0.0
            for i in 1..<span {
                let d = Double(bins[i] - bins[i - 1])
                sum += d * d
            }
            scores.append(sum / Double(max(1, points.count)))
        }
        return scores
    }

    /// The pixels that differ clearly from their neighbourhood's mean (the strokes of print, dark
    /// on light or light on dark), by an integral image.
    static func detail(_ image: PixelImage) -> [(x: Int32, y: Int32)] {
        let w = image.width, h = image.height
        guard w > 8, h > 8 else { return [] }
        var integral = [Int](repeating: 0, count: (w + 1) * (h + 1))
        for y in 0..<h {
            var row = 0
            for x in 0..<w {
                row += Int(image.pixels[y * w + x])
                integral[(y + 1) * (w + 1) + x + 1] = integral[y * (w + 1) + x + 1] + row
            }
        }
        let r = max(4, min(w, h) / 24)
        var points: [(x: Int32, y: Int32)] = []
        for y in 0..<h {
            let y0 = max(0, y - r), y1 = min(h, y + r + 1)
            for x in 0..<w {
                let x0 = max(0, x - r), x1 = min(w, x + r + 1)
                let total = integral[y1 * (w + 1) + x1] - integral[y0 * (w + 1) + x1] - integral[y1 * (w + 1) + x0] + integral[y0 * (w + 1) + x0]
                let mean = total / ((x1 - x0) * (y1 - y0))
                if abs(Int(image.pixels[y * w + x]) - mean) > 28 { points.append((Int32(x), Int32(y))) }
            }
        }
        return points
    }

    /// `image` turned so that rows of print slanted by `degrees` (as `partSlants` gives them) lie
    /// level; the canvas grows to hold the whole image, the corners filled with the image's
    /// border colour.
    public static func levelled(_ image: PixelImage, degrees: Double) -> PixelImage {
        let a = degrees * .pi / 180
        let s = sin(a), c = cos(a)
        let w = Double(image.width), h = Double(image.height)
        let outW = Int((w * abs(c) + h * abs(s)).rounded(.up)), outH = Int((w * abs(s) + h * abs(c)).rounded(.up))
        let channels = image.channels
        let fill = borderColour(image)
        var out = [UInt8](repeating: 0, count: outW * outH * channels)
        let cx = w / 2, cy = h / 2, ox = Double(outW) / 2, oy = Double(outH) / 2
        for y in 0..<outH {
            let dy = Double(y) + 0.5 - oy
            for x in 0..<outW {
                let dx = Double(x) + 0.5 - ox
                // The output turns the image clockwise by `a` as seen (level rows); the source
                // point is the output point turned back.
                let sx = dx * c + dy * s + cx - 0.5, sy = -dx * s + dy * c + cy - 0.5
                let base = (y * outW + x) * channels
                guard sx >= 0, sy >= 0, sx <= w - 1, sy <= h - 1 else {
                    for k in 0..<channels { out[base + k] = fill[k] }
                    continue
                }
                let x0 = Int(sx), y0 = Int(sy), x1 = min(x0 + 1, image.width - 1), y1 = min(y0 + 1, image.height - 1)
                let fx = sx - Double(x0), fy = sy - Double(y0)
                for k in 0..<channels {
                    let p00 = Double(image.pixels[(y0 * image.width + x0) * channels + k])
                    let p10 = Double(image.pixels[(y0 * image.width + x1) * channels + k])
                    let p01 = Double(image.pixels[(y1 * image.width + x0) * channels + k])
                    let p11 = Double(image.pixels[(y1 * image.width + x1) * channels + k])
                    let v = (p00 * (1 - fx) + p10 * fx) * (1 - fy) + (p01 * (1 - fx) + p11 * fx) * fy
                    out[base + k] = UInt8(max(0, min(255, v.rounded())))
                }
            }
        }
        return PixelImage(width: outW, height: outH, channels: channels, pixels: out)
    }

    /// The median of the image's outermost pixels, per channel.
    static func borderColour(_ image: PixelImage) -> [UInt8] {
        let w = image.width, h = image.height, c = image.channels
        guard w > 0, h > 0 else { return [UInt8](repeating: 255, count: c) }
        var indices: [Int] = []
        for x in 0..<w { indices.append(x); indices.append((h - 1) * w + x) }
        for y in 0..<h { indices.append(y * w); indices.append(y * w + w - 1) }
        return (0..<c).map { k in
            let values = indices.map { image.pixels[$0 * c + k] }.sorted()
            return values[values.count / 2]
        }
    }
}
