import ImageIngest

/// Which way the text on a straightened card runs, from the ink alone (no OCR).
///
/// - Sideways or not: rows of horizontal text alternate between ink and gaps, so the row-sum
///   profile of the ink is rougher than the column-sum profile, and within the inked area more
///   rows than columns are empty (the gaps between lines); for vertical text it is the other way
///   round. Both measures are summed: each fails on some layouts (two columns, a tall logo).
/// - Upright or upside down: Latin letters reach up (b, d, f, h, k, l, t, capitals) far more often
///   than they reach down (g, j, p, q, y), so within each line there is more ink above the
///   x-height band than below it.
public enum TextDirection {
    /// The clockwise turn that should make the text upright, and how clear
    /// each of the two decisions was (log ratio of roughness; ascender minus descender share).
    public struct Estimate: Sendable, Equatable {
        public var rotation: QuarterTurn
        public var sidewaysEvidence: Double
        public var uprightEvidence: Double
        /// True when either decision was close: the OCR reading decides then.
        public var isUncertain: Bool { abs(sidewaysEvidence) < 0.3 || abs(uprightEvidence) < 0.05 }
    }

    /// Estimates the direction of dark text on a light, normalised card image.
    public static func estimate(_ image: PixelImage) -> Estimate {
        let gray = image.grayscale()
        let w = gray.width, h = gray.height
        var rows = [Double](repeating: 0, count: h), cols = [Double](repeating: 0, count: w)
        gray.pixels.withUnsafeBufferPointer { px in
            for y in 0..<h {
                for x in 0..<w where px[y * w + x] < 128 {
                    rows[y] += 1
                    cols[x] += 1
                }
            }
        }
        let horizontal = log(max(1e-6, roughness(rows)) / max(1e-6, roughness(cols))) + emptyBalance(rows: rows, cols: cols)
        // Turn the text horizontal (if it runs vertically, a quarter turn clockwise), then test
        // for upside down.
        let turned = horizontal >= 0 ? gray : gray.rotated(clockwise: .quarter)
        let up = ascenderBalance(turned)
        let sideways: QuarterTurn = horizontal >= 0 ? .none : .quarter
        return Estimate(rotation: up < 0 ? sideways.then(.half) : sideways, sidewaysEvidence: horizontal, uprightEvidence: up)
    }

    /// log(share of empty rows / share of empty columns) within the inked area's bounding box.
    static func emptyBalance(rows: [Double], cols: [Double]) -> Double {
        guard let top = rows.firstIndex(where: { $0 > 0 }), let bottom = rows.lastIndex(where: { $0 > 0 }),
              let left = cols.firstIndex(where: { $0 > 0 }), let right = cols.lastIndex(where: { $0 > 0 }) else { return 0 }
        let width = Double(right - left + 1), height = Double(bottom - top + 1)
        let emptyRows = Double(rows[top...bottom].filter { $0 <= 0.01 * width }.count) / height
        let emptyCols = Double(cols[left...right].filter { $0 <= 0.01 * height }.count) / width
        return log((emptyRows + 0.02) / (emptyCols + 0.02))
    }

    /// Mean absolute step between neighbouring values of a lightly smoothed profile, over its mean.
    static func roughness(_ p: [Double]) -> Double {
        guard p.count > 4 else { return 0 }
        var s = p
        for i in 1..<(p.count - 1) { s[i] = (p[i - 1] + p[i] + p[i + 1]) / 3 }
        var steps = 0.0
        for i in 1..<s.count { steps += abs(s[i] - s[i - 1]) }
        let mean = s.reduce(0, +) / Double(s.count)
        return mean > 0 ? steps / Double(s.count - 1) / mean : 0
    }

    /// (ink above the x-height band - ink below it) / (both), over the lines of four column strips.
    static func ascenderBalance(_ gray: PixelImage) -> Double {
        let w = gray.width, h = gray.height
        let strips = 4
        var difference = 0.0, total = 0.0
        gray.pixels.withUnsafeBufferPointer { px in
            for s in 0..<strips {
                let x0 = s * w / strips, x1 = (s + 1) * w / strips
                var profile = [Double](repeating: 0, count: h)
                for y in 0..<h {
                    var n = 0
                    for x in x0..<x1 where px[y * w + x] < 128 { n += 1 }
                    profile[y] = Double(n)
                }
                let on = profile.map { $0 > 0.02 * Double(x1 - x0) }
                var y = 0
                while y < h {
                    guard on[y] else { y += 1; continue }
                    let top = y
                    while y < h && on[y] { y += 1 }
                    let bottom = y
                    guard bottom - top >= 6 else { continue }
                    let band = profile[top..<bottom]
                    let peak = band.max() ?? 0
                    guard let coreTop = band.firstIndex(where: { $0 >= 0.5 * peak }),
                          let coreBottom = band.lastIndex(where: { $0 >= 0.5 * peak }) else { continue }
                    let above = profile[top..<coreTop].reduce(0, +)
                    let below = profile[(coreBottom + 1)..<bottom].reduce(0, +)
                    difference += above - below
                    total += above + below
                }
            }
        }
        return total > 0 ? difference / total : 0
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
