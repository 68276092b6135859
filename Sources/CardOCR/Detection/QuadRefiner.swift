import ImageIngest

/// Snaps a card outline found on a small preview to the card's edges in a larger image: each side
/// is moved and turned a little to where the card and what lies beyond it differ most, in
/// brightness or in texture (a dark card on a dark carpet differs only in grain), and the
/// corners are where the snapped sides meet. A preview pixel is several photo pixels, and a
/// region's outline is loose by its own blur, so without this the cut-out card would carry a
/// strip of desk along its sides.
enum QuadRefiner {
    /// Refines `corners` (pixels of `gray`, clockwise); returns them unchanged when the edges
    /// found would move a corner implausibly far.
    static func refine(_ corners: [Point], in gray: PixelImage) -> [Point] {
        guard corners.count == 4, gray.channels == 1 else { return corners }
        let diagonal = (Double(gray.width * gray.width + gray.height * gray.height)).squareRoot()
        let cardSize = min(distance(corners[0], corners[1]), distance(corners[1], corners[2]))
        let reach = max(4.0, min(0.04 * cardSize, 0.02 * diagonal))
        var lines: [(Point, Point)] = []   // a point on the line and its unit direction
        for i in 0..<4 {
            let a = corners[i], b = corners[(i + 1) % 4]
            let len = distance(a, b)
            guard len > 8 else { return corners }
            let mid = Point((a.x + b.x) / 2, (a.y + b.y) / 2)
            var best = (score: -1.0, point: mid, dir: Point((b.x - a.x) / len, (b.y - a.y) / len))
            for turn in stride(from: -1.5, through: 1.5, by: 0.5) {
                let t = turn * Double.pi / 180
                let dx0 = (b.x - a.x) / len, dy0 = (b.y - a.y) / len
                let dx = dx0 * cos(t) - dy0 * sin(t), dy = dx0 * sin(t) + dy0 * cos(t)
                let nx = -dy, ny = dx
                for step in stride(from: -reach, through: reach, by: 1) {
                    let p = Point(mid.x + step * nx, mid.y + step * ny)
                    let s = boundaryStrength(gray, centre: p, dir: Point(dx, dy), normal: Point(nx, ny), halfLength: 0.4 * len)
                    if s > best.score { best = (s, p, Point(dx, dy)) }
                }
            }
            lines.append((best.point, best.dir))
        }
        var refined: [Point] = []
        for i in 0..<4 {
            // Corner i lies between side i-1 and side i.
            let (p1, d1) = lines[(i + 3) % 4], (p2, d2) = lines[i]
            let det = d1.x * d2.y - d1.y * d2.x
            guard abs(det) > 1e-6 else { return corners }
            let t = ((p2.x - p1.x) * d2.y - (p2.y - p1.y) * d2.x) / det
            let c = Point(p1.x + t * d1.x, p1.y + t * d1.y)
            guard distance(c, corners[i]) < 3 * reach else { return corners }
            refined.append(c)
        }
        return refined
    }

    /// How different the two bands beside the line (centre, dir) are: the step in mean brightness
    /// plus twice the step in grain (mean brightness change between neighbouring samples).
    static func boundaryStrength(_ gray: PixelImage, centre: Point, dir: Point, normal: Point, halfLength: Double) -> Double {
        let samples = 40
        var sums = [0.0, 0.0], grain = [0.0, 0.0]
        var previous: [Double?] = [nil, nil]
        var n = 0
        for k in 0..<samples {
            let s = -halfLength + 2 * halfLength * Double(k) / Double(samples - 1)
            let px = centre.x + s * dir.x, py = centre.y + s * dir.y
            var values = [0.0, 0.0]
            var ok = true
            for (side, sign) in [(0, -1.0), (1, 1.0)] {
                var v = 0.0
                for depth in [1.0, 2.5, 4.0] {
                    guard let g = sample(gray, px + sign * depth * normal.x, py + sign * depth * normal.y) else { ok = false; break }
                    v += g
                }
                values[side] = v / 3
            }
            guard ok else { previous = [nil, nil]; continue }
            for side in 0..<2 {
                sums[side] += values[side]
                if let p = previous[side] { grain[side] += abs(values[side] - p) }
            }
            previous = values.map { Optional($0) }
            n += 1
        }
        guard n >= samples / 2 else { return -1 }
        let d = Double(n)
        return abs(sums[0] - sums[1]) / d + 2 * abs(grain[0] - grain[1]) / d
    }

    @inline(__always) static func sample(_ g: PixelImage, _ x: Double, _ y: Double) -> Double? {
        guard x >= 0, y >= 0, x < Double(g.width - 1), y < Double(g.height - 1) else { return nil }
        let x0 = Int(x), y0 = Int(y)
        let ax = x - Double(x0), ay = y - Double(y0)
        let i = y0 * g.width + x0
        let p = g.pixels
        let top = Double(p[i]) * (1 - ax) + Double(p[i + 1]) * ax
        let bottom = Double(p[i + g.width]) * (1 - ax) + Double(p[i + g.width + 1]) * ax
        return top * (1 - ay) + bottom * ay
    }

    /// Moves each corner toward the centre by `fraction` of its distance, so no desk is read.
    static func inset(_ corners: [Point], by fraction: Double) -> [Point] {
        let cx = corners.map(\.x).reduce(0, +) / 4, cy = corners.map(\.y).reduce(0, +) / 4
        return corners.map { Point($0.x + (cx - $0.x) * fraction, $0.y + (cy - $0.y) * fraction) }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
