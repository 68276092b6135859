import CDetectionKernels
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
    /// Called a few thousand times per photo, so it works on the pixels directly, without arrays.
    static func boundaryStrength(_ gray: PixelImage, centre: Point, dir: Point, normal: Point, halfLength: Double,
                                 vectorized: Bool = true) -> Double {
        let samples = 40
        if vectorized, let strength = boundaryStrength8(gray, centre: centre, dir: dir, normal: normal, halfLength: halfLength) {
            return strength
        }
        var sum0 = 0.0, sum1 = 0.0, grain0 = 0.0, grain1 = 0.0
        var previous: (Double, Double)?
        var n = 0
        gray.pixels.withUnsafeBufferPointer { pixels in
            let g = Bands(pixels: pixels, width: gray.width, height: gray.height)
            for k in 0..<samples {
                let s = -halfLength + 2 * halfLength * Double(k) / Double(samples - 1)
                let px = centre.x + s * dir.x, py = centre.y + s * dir.y
                // The mean of three samples at increasing depth on each side of the line.
                guard let v0 = g.mean(px, py, -1.0, normal), let v1 = g.mean(px, py, 1.0, normal) else { previous = nil; continue }
                sum0 += v0
                sum1 += v1
                if let p = previous {
                    grain0 += abs(v0 - p.0)
                    grain1 += abs(v1 - p.1)
                }
                previous = (v0, v1)
                n += 1
            }
        }
        guard n >= samples / 2 else { return -1 }
        let d = Double(n)
        return abs(sum0 - sum1) / d + 2 * abs(grain0 - grain1) / d
    }

    /// `boundaryStrength` eight samples along the line at a time, each lane's arithmetic the
    /// one-sample loop's (the same value), when every sample lies a pixel or more inside the image
    /// (nil otherwise: the one-sample loop handles samples that fall outside).
    /// `kernel` true lets `CDetectionKernels` make the band means with AVX2 where the processor has it (the
    /// same doubles; false keeps to Swift's lanes, for the tests).
    static func boundaryStrength8(_ gray: PixelImage, centre: Point, dir: Point, normal: Point, halfLength: Double,
                                  kernel: Bool = true) -> Double? {
        let samples = 40
        let w = gray.width, h = gray.height
        // The samples lie within the rectangle of the line's ends moved 4 px either way.
        let ex = abs(halfLength * dir.x) + abs(4 * normal.x), ey = abs(halfLength * dir.y) + abs(4 * normal.y)
        guard centre.x - ex >= 1, centre.y - ey >= 1, centre.x + ex < Double(w - 2), centre.y + ey < Double(h - 2) else { return nil }
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * samples) { buffer -> Double? in
            guard let near = buffer.baseAddress else { return nil }
            let far = near + samples
            gray.pixels.withUnsafeBufferPointer { pixels in
                guard let p = pixels.baseAddress else { return }
                let line = (centre.x, centre.y, dir.x, dir.y, normal.x, normal.y, halfLength)
                if kernel && w * h < Int(Int32.max) && withUnsafeBytes(of: line, { l in
                    cs_band_means(p, Int32(w), l.baseAddress?.assumingMemoryBound(to: Double.self), Int32(samples), near, far) == 1
                }) { return }
                for block in stride(from: 0, to: samples, by: 8) {
                    let k = SIMD8<Double>(0, 1, 2, 3, 4, 5, 6, 7) + Double(block)
                    let s = -halfLength + 2 * halfLength * k / Double(samples - 1)
                    let px = centre.x + s * dir.x, py = centre.y + s * dir.y
                    @inline(__always) func mean(_ sign: Double) -> SIMD8<Double> {
                        @inline(__always) func at(_ depth: Double) -> SIMD8<Double> {
                            sample8(p, width: w, x: px + sign * depth * normal.x, y: py + sign * depth * normal.y)
                        }
                        return (at(1.0) + at(2.5) + at(4.0)) / 3
                    }
                    UnsafeMutableRawPointer(near + block).storeBytes(of: mean(-1.0), as: SIMD8<Double>.self)
                    UnsafeMutableRawPointer(far + block).storeBytes(of: mean(1.0), as: SIMD8<Double>.self)
                }
            }
            var sum0 = 0.0, sum1 = 0.0, grain0 = 0.0, grain1 = 0.0
            for k in 0..<samples {
                sum0 += near[k]
                sum1 += far[k]
                if k > 0 {
                    grain0 += abs(near[k] - near[k - 1])
                    grain1 += abs(far[k] - far[k - 1])
                }
            }
            let d = Double(samples)
            return abs(sum0 - sum1) / d + 2 * abs(grain0 - grain1) / d
        }
    }

    /// `Bands.sample` at eight points known to be inside: their coordinates are at least 0, so
    /// each lane's integer part is its truncation (one instruction per lane).
    @inline(__always)
    static func sample8(_ p: UnsafePointer<UInt8>, width: Int, x: SIMD8<Double>, y: SIMD8<Double>) -> SIMD8<Double> {
        var x0 = SIMD8<Double>(), y0 = SIMD8<Double>()
        let (p00, p10, p01, p11) = Lanes.gather { l -> (Double, Double, Double, Double) in
            let xi = Int(x[l]), yi = Int(y[l])
            x0[l] = Double(xi)
            y0[l] = Double(yi)
            let i = yi * width + xi
            return (Double(p[i]), Double(p[i + 1]), Double(p[i + width]), Double(p[i + width + 1]))
        }
        let ax = x - x0, ay = y - y0
        let top = p00 * (1 - ax) + p10 * ax
        let bottom = p01 * (1 - ax) + p11 * ax
        return top * (1 - ay) + bottom * ay
    }

    /// Bilinear samples of a gray plane, for `boundaryStrength`.
    struct Bands {
        let pixels: UnsafeBufferPointer<UInt8>
        let width: Int, height: Int

        /// The mean of the samples 1, 2.5 and 4 pixels from (x, y) along `sign` times `normal`;
        /// nil when one falls outside.
        @inline(__always) func mean(_ x: Double, _ y: Double, _ sign: Double, _ normal: Point) -> Double? {
            @inline(__always) func at(_ depth: Double) -> Double? { sample(x + sign * depth * normal.x, y + sign * depth * normal.y) }
            guard let a = at(1.0), let b = at(2.5), let c = at(4.0) else { return nil }
            return (a + b + c) / 3
        }

        @inline(__always) func sample(_ x: Double, _ y: Double) -> Double? {
            guard x >= 0, y >= 0, x < Double(width - 1), y < Double(height - 1) else { return nil }
            let x0 = Int(x), y0 = Int(y)
            let ax = x - Double(x0), ay = y - Double(y0)
            let i = y0 * width + x0
            let top = Double(pixels[i]) * (1 - ax) + Double(pixels[i + 1]) * ax
            let bottom = Double(pixels[i + width]) * (1 - ax) + Double(pixels[i + width + 1]) * ax
            return top * (1 - ay) + bottom * ay
        }
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
