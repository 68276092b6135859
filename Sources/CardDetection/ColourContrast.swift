import Foundation
import ImageIngest

/// A gray picture of a colour card in which ink is whatever differs in colour from the card's
/// own ground, for a second reading of cards that gray conversion reads badly: red text on a
/// blue band, yellow on green, a wordmark in a colour of the same brightness as its ground all
/// turn into nearly one gray, yet differ plainly in colour.
///
/// How: every pixel in CIE L*a*b* (which spaces colours about as the eye tells them apart); the
/// ground is the card's dominant colour (the median of each of L*, a* and b* over a sample of the
/// pixels); each pixel's gray is white less its distance from the ground, so the ground is
/// white and any colour unlike it dark, whichever is lighter. `CardNormalizer` then treats the
/// picture as any gray card.
public enum ColourContrast {
    /// Gray levels per unit of L*a*b* distance from the ground (a distance of 100, black on
    /// white, is full ink; 40, a saturated colour against a pale one of the same lightness, is
    /// well above the normaliser's smallest span).
    static let gain: Float = 2.5

    /// The contrast picture of an RGB image (gray: returned as it is).
    public static func image(_ rgb: PixelImage) -> PixelImage {
        guard rgb.channels == 3, rgb.width > 0, rgb.height > 0 else { return rgb.grayscale() }
        let lab = labPixels(rgb)
        return contrast(lab, ground: dominant(lab), width: rgb.width, height: rgb.height)
    }

    /// The contrast picture of an RGB image when at least `minimumShare` of its pixels differ
    /// from the ground in colour (`colourShare`); nil otherwise (a card in black, white and grays).
    public static func image(_ rgb: PixelImage, minimumShare: Double) -> PixelImage? {
        guard rgb.channels == 3, rgb.width > 0, rgb.height > 0 else { return nil }
        let lab = labPixels(rgb)
        let ground = dominant(lab)
        guard colourShare(lab, ground: ground) >= minimumShare else { return nil }
        return contrast(lab, ground: ground, width: rgb.width, height: rgb.height)
    }

    /// Each pixel white less `gain` times its L*a*b* distance from `ground`.
    static func contrast(_ lab: [Float], ground: (Float, Float, Float), width: Int, height: Int) -> PixelImage {
        let count = width * height
        let out = [UInt8](unsafeUninitializedCapacity: count) { dst, initialized in
            lab.withUnsafeBufferPointer { lab in
                for i in 0..<count {
                    let dl = lab[3 * i] - ground.0, da = lab[3 * i + 1] - ground.1, db = lab[3 * i + 2] - ground.2
                    let d = (dl * dl + da * da + db * db).squareRoot()
                    dst[i] = UInt8(max(0, min(255, 255 - gain * d)))
                }
            }
            initialized = count
        }
        return PixelImage(width: width, height: height, channels: 1, pixels: out)
    }

    /// The share of pixels (every fourth) whose colour, lightness left out, lies at least
    /// `chroma` from the ground's: how much of the card gray conversion may lose.
    static func colourShare(_ lab: [Float], ground: (Float, Float, Float), chroma: Float = 20) -> Double {
        var n = 0, coloured = 0
        for i in stride(from: 0, to: lab.count / 3, by: 4) {
            let da = lab[3 * i + 1] - ground.1, db = lab[3 * i + 2] - ground.2
            coloured += da * da + db * db >= chroma * chroma ? 1 : 0
            n += 1
        }
        return Double(coloured) / Double(max(1, n))
    }

    /// sRGB's transfer function undone, per 8-bit value.
    private static let linear: [Float] = (0..<256).map { v in
        let c = Float(v) / 255
        return c > 0.04045 ? Float(pow(Double((c + 0.055) / 1.055), 2.4)) : c / 12.92
    }

    /// L*, a*, b* of every pixel, interleaved (D65 white).
    static func labPixels(_ rgb: PixelImage) -> [Float] {
        let count = rgb.width * rgb.height
        return [Float](unsafeUninitializedCapacity: 3 * count) { dst, initialized in
            rgb.pixels.withUnsafeBufferPointer { src in linear.withUnsafeBufferPointer { lin in
                for i in 0..<count {
                    let r = lin[Int(src[3 * i])], g = lin[Int(src[3 * i + 1])], b = lin[Int(src[3 * i + 2])]
                    let x = f((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.9505)
                    let y = f(0.2126 * r + 0.7152 * g + 0.0722 * b)
                    let z = f((0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.089)
                    dst[3 * i] = 116 * y - 16
                    dst[3 * i + 1] = 500 * (x - y)
                    dst[3 * i + 2] = 200 * (y - z)
                }
            } }
            initialized = 3 * count
        }
    }

    @inline(__always)
    private static func f(_ t: Float) -> Float { t > 0.008856 ? cbrtf(t) : 7.787 * t + 16.0 / 116 }

    /// The median of each of L*, a* and b* over every fourth pixel (by histograms of whole units).
    static func dominant(_ lab: [Float]) -> (Float, Float, Float) {
        var histograms = [[Int]](repeating: [Int](repeating: 0, count: 512), count: 3)
        var n = 0
        for i in stride(from: 0, to: lab.count / 3, by: 4) {
            for c in 0..<3 { histograms[c][Int(max(0, min(511, lab[3 * i + c].rounded() + 256)))] += 1 }
            n += 1
        }
        func median(_ h: [Int]) -> Float {
            var below = 0
            for (v, k) in h.enumerated() {
                below += k
                if 2 * below >= n { return Float(v - 256) }
            }
            return 0
        }
        return (median(histograms[0]), median(histograms[1]), median(histograms[2]))
    }
}
