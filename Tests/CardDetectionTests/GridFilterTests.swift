import TestSupport
import Testing
@testable import CardDetection

/// The normaliser's grid filters (constant-time extremes, a median followed as the window slides,
/// box means eight at a time) give exactly what their definitions give, computed the slow way, on
/// random grids.
@Suite struct GridFilterTests {
    typealias Generator = SeededGenerator

    static func grid(_ w: Int, _ h: Int, seed: UInt64) -> [Float] { SeededGenerator.grid(w, h, seed: seed) }

    static func slowExtreme(_ a: [Float], w: Int, h: Int, r: Int, max: Bool) -> [Float] {
        var out = a
        for y in 0..<h {
            for x in 0..<w {
                var v = a[y * w + x]
                for yy in Swift.max(0, y - r)...Swift.min(h - 1, y + r) {
                    for xx in Swift.max(0, x - r)...Swift.min(w - 1, x + r) {
                        v = max ? Swift.max(v, a[yy * w + xx]) : Swift.min(v, a[yy * w + xx])
                    }
                }
                out[y * w + x] = v
            }
        }
        return out
    }

    static func slowMedian(_ a: [Float], w: Int, h: Int, r: Int) -> [Float] {
        var out = a
        for y in 0..<h {
            for x in 0..<w {
                var values: [Int] = []
                for yy in Swift.max(0, y - r)...Swift.min(h - 1, y + r) {
                    for xx in Swift.max(0, x - r)...Swift.min(w - 1, x + r) { values.append(Swift.min(255, Swift.max(0, Int(a[yy * w + xx].rounded())))) }
                }
                values.sort()
                out[y * w + x] = Float(values[(values.count + 1) / 2 - 1])
            }
        }
        return out
    }

    /// Rows, then columns: each value the mean of its window cut at the ends, added in order.
    static func slowBoxBlur(_ a: [Float], w: Int, h: Int, r: Int) -> [Float] {
        func pass(_ a: [Float], lines: Int, length: Int, index: (Int, Int) -> Int) -> [Float] {
            var out = a
            for line in 0..<lines {
                for i in 0..<length {
                    var s: Float = 0, n: Float = 0
                    for j in Swift.max(0, i - r)...Swift.min(length - 1, i + r) { s += a[index(line, j)]; n += 1 }
                    out[index(line, i)] = s / n
                }
            }
            return out
        }
        let rows = pass(a, lines: h, length: w) { $0 * w + $1 }
        return pass(rows, lines: w, length: h) { $1 * w + $0 }
    }

    @Test(arguments: [(1, 1, 1), (7, 5, 1), (40, 23, 6), (23, 40, 6), (17, 9, 8), (64, 37, 3), (256, 150, 6), (33, 29, 2)])
    func fastFiltersEqualTheirDefinitions(w: Int, h: Int, r: Int) {
        let a = Self.grid(w, h, seed: UInt64(w * 1000 + h * 10 + r))
        #expect(GridFilter.dilate(a, w: w, h: h, r: r) == Self.slowExtreme(a, w: w, h: h, r: r, max: true))
        #expect(GridFilter.erode(a, w: w, h: h, r: r) == Self.slowExtreme(a, w: w, h: h, r: r, max: false))
        #expect(GridFilter.median(a, w: w, h: h, r: r) == Self.slowMedian(a, w: w, h: h, r: r))
        // Bit for bit, not within a tolerance: the same additions in the same order (on values
        // whose sums round, so that another order would show).
        var g = Generator(state: UInt64(w * 7 + h * 131 + r))
        let noisy = (0..<(w * h)).map { _ in Float.random(in: 0..<256, using: &g) }
        #expect(GridFilter.boxBlur(noisy, w: w, h: h, r: r).map(\.bitPattern) == Self.slowBoxBlur(noisy, w: w, h: h, r: r).map(\.bitPattern))
    }

    /// The stretch eight pixels at a time gives the one-pixel stretch's bytes: on a card-like
    /// picture (a dark band with light text, dark text on paper, a shadow, noise) of widths that
    /// leave a scalar tail.
    @Test(arguments: [(200, 100), (203, 97), (64, 64), (1000, 37)])
    func vectorStretchEqualsTheDefinition(w: Int, h: Int) {
        var g = Generator(state: UInt64(w * 31 + h))
        var pixels = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let band = y < h / 3 ? 40 : 225 - x * 60 / w   // a dark band, then paper under a shadow
                let text = (x / 3 + y / 5) % 4 == 0 && y % 9 < 5 ? (y < h / 3 ? 170 : -170) : 0
                pixels[y * w + x] = UInt8(max(0, min(255, band + text + Int.random(in: -12...12, using: &g))))
            }
        }
        let levels = CardNormalizer.Levels(pixels, width: w, height: h)
        let vector = CardNormalizer.stretch(pixels, width: w, height: h, levels: levels)
        #expect(vector == CardNormalizer.stretch(pixels, width: w, height: h, levels: levels, vectorized: false))
        #expect(Set(vector).count > 100, "the stretch spans light and dark")
    }
}
