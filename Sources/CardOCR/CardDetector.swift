import ImageIngest

/// Finds a business card in a photo: the largest region that stands out in colour from the
/// background seen at the photo's border, reduced to a quadrilateral and checked for shape.
public enum CardDetector {
    /// What detection saw, for the record and for tests.
    public struct Detection: Sendable {
        public let quad: Quadrilateral
        /// Share of the photo's area the card covers (0...1).
        public let areaFraction: Double
    }

    /// Long side of the preview detection works on; the caller decodes at about this size.
    public static let previewLongSide = 480

    /// Detects the card in an upright RGB (or gray) preview. Nil when no card-shaped region is found
    /// (the card fills the frame, or the background is as busy as the card).
    public static func detect(in preview: PixelImage) -> Detection? {
        var note = ""
        return detect(in: preview, note: &note)
    }

    /// Detection, with a note of why no card was found (for diagnostics and benchmarks).
    public static func detect(in preview: PixelImage, note: inout String) -> Detection? {
        let w = preview.width, h = preview.height
        guard w >= 32, h >= 32 else { note = "image too small"; return nil }
        let c = preview.channels
        let blurred = boxBlur(preview, radius: 2)
        // Background colour: the median of the outer border.
        let margin = max(2, min(w, h) / 40)
        var samples: [[Int]] = Array(repeating: [], count: c)
        for y in 0..<h {
            for x in 0..<w where x < margin || x >= w - margin || y < margin || y >= h - margin {
                let i = (y * w + x) * c
                for k in 0..<c { samples[k].append(Int(blurred[i + k])) }
            }
        }
        let background = samples.map { s -> Int in
            let sorted = s.sorted()
            return sorted[sorted.count / 2]
        }
        // Texture: the local mean of |pixel - its blur|. A card is smooth, a desk often is not,
        // even where both have the same colour (a dark card on a dark carpet).
        let gray = preview.grayscale()
        let grayBlur = boxBlur(gray, radius: 2)
        var detail = [UInt8](repeating: 0, count: w * h)
        for i in 0..<(w * h) { detail[i] = UInt8(min(255, 4 * abs(Int(gray.pixels[i]) - Int(grayBlur[i])))) }
        let texture = boxBlur(PixelImage(width: w, height: h, channels: 1, pixels: detail), radius: 3)
        var borderTexture: [Int] = []
        for y in 0..<h {
            for x in 0..<w where x < margin || x >= w - margin || y < margin || y >= h - margin {
                borderTexture.append(Int(texture[y * w + x]))
            }
        }
        borderTexture.sort()
        let backgroundTexture = borderTexture[borderTexture.count / 2]
        // Distance of every pixel from the background: in colour, or in texture where the desk is
        // busier than a card's paper.
        var dist = [UInt8](repeating: 0, count: w * h)
        var histogram = [Int](repeating: 0, count: 256)
        var borderDistances: [Int] = []
        for y in 0..<h {
            for x in 0..<w {
                let i = (y * w + x) * c
                var d: Int
                if c == 3 {
                    // Luma and chroma apart: a desk's texture varies mostly in brightness, a card
                    // (or its coloured band) differs from it in hue as often as in brightness.
                    let r = Int(blurred[i]) - background[0], g = Int(blurred[i + 1]) - background[1]
                    let b = Int(blurred[i + 2]) - background[2]
                    let dy = (77 * r + 150 * g + 29 * b) >> 8
                    d = abs(dy) / 2 + 3 * (abs(b - dy) + abs(r - dy)) / 4
                } else {
                    d = abs(Int(blurred[i]) - background[0])
                }
                let smoother = 2 * (backgroundTexture - Int(texture[y * w + x]))
                d = min(255, max(d, smoother))
                dist[y * w + x] = UInt8(d)
                histogram[d] += 1
                if x < margin || x >= w - margin || y < margin || y >= h - margin { borderDistances.append(d) }
            }
        }
        borderDistances.sort()
        let borderP95 = borderDistances[min(borderDistances.count - 1, borderDistances.count * 95 / 100)]
        let threshold = max(18, borderP95 + 12)
        var mask = dist.map { $0 > threshold ? UInt8(1) : 0 }
        mask = close(mask, w: w, h: h, radius: 2)
        mask = fillHoles(mask, w: w, h: h)
        note = "threshold \(threshold) (otsu \(otsu(histogram)), border p95 \(borderP95))"
        guard let (component, area) = largestComponent(mask, w: w, h: h) else { note += ": nothing stands out"; return nil }
        let areaFraction = Double(area) / Double(w * h)
        guard areaFraction > 0.04, areaFraction < 0.97 else { note += ": region covers \(Int(areaFraction * 100))%"; return nil }
        // Convex hull of the component, reduced to four corners.
        var points: [Point] = []
        for y in 0..<h {
            var first = -1, last = -1
            for x in 0..<w where component[y * w + x] != 0 {
                if first < 0 { first = x }
                last = x
            }
            if first >= 0 {
                points.append(Point(Double(first), Double(y)))
                points.append(Point(Double(last) + 1, Double(y)))
                points.append(Point(Double(first), Double(y) + 1))
                points.append(Point(Double(last) + 1, Double(y) + 1))
            }
        }
        let hull = convexHull(points)
        guard hull.count >= 4, var quad = reduceToQuadrilateral(hull) else { note += ": no quadrilateral"; return nil }
        let quadArea = polygonArea(quad)
        guard quadArea > 0, Double(area) / quadArea > 0.85 else {
            note += ": region fills \(Int(Double(area) / max(quadArea, 1) * 100))% of its quadrilateral"
            return nil
        }
        // Shape checks: a card is a convex quadrilateral with near-right angles and a card-like ratio.
        let sides = (0..<4).map { distance(quad[$0], quad[($0 + 1) % 4]) }
        let long = max((sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2)
        let short = min((sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2)
        guard short > 8, long / short < 3.0 else { note += ": aspect \(long / max(short, 1))"; return nil }
        for k in 0..<4 {
            let a = quad[(k + 3) % 4], b = quad[k], cc = quad[(k + 1) % 4]
            let v1 = Point(a.x - b.x, a.y - b.y), v2 = Point(cc.x - b.x, cc.y - b.y)
            let cos = (v1.x * v2.x + v1.y * v2.y) / (distance(a, b) * distance(cc, b))
            guard abs(cos) < 0.5 else { note += ": corner angle off"; return nil }  // angle within 60...120 degrees
        }
        // Order clockwise from the top-left corner, inset slightly so no background is read.
        quad = orderClockwiseFromTopLeft(quad)
        let centre = Point(quad.map(\.x).reduce(0, +) / 4, quad.map(\.y).reduce(0, +) / 4)
        let inset = 0.006
        let normalised = quad.map { p in
            Point((p.x + (centre.x - p.x) * inset) / Double(w), (p.y + (centre.y - p.y) * inset) / Double(h))
        }
        return Detection(quad: Quadrilateral(corners: normalised), areaFraction: areaFraction)
    }

    // MARK: - Image operations on small buffers

    /// Separable box blur with running sums (clamped at the edges), per channel.
    static func boxBlur(_ image: PixelImage, radius r: Int) -> [UInt8] {
        let w = image.width, h = image.height, c = image.channels
        var tmp = [Int32](repeating: 0, count: w * h * c)
        var out = [UInt8](repeating: 0, count: w * h * c)
        image.pixels.withUnsafeBufferPointer { srcBuffer in
            tmp.withUnsafeMutableBufferPointer { tmpBuffer in
                out.withUnsafeMutableBufferPointer { outBuffer in
                    guard let src = srcBuffer.baseAddress, let t = tmpBuffer.baseAddress, let o = outBuffer.baseAddress else { return }
                    let n = Int32(2 * r + 1)
                    for y in 0..<h {
                        for k in 0..<c {
                            let row = y * w * c + k
                            var sum: Int32 = 0
                            for dx in -r...r { sum += Int32(src[row + min(w - 1, max(0, dx)) * c]) }
                            for x in 0..<w {
                                t[row + x * c] = sum
                                sum += Int32(src[row + min(w - 1, x + r + 1) * c]) - Int32(src[row + max(0, x - r) * c])
                            }
                        }
                    }
                    for x in 0..<w {
                        for k in 0..<c {
                            let col = x * c + k
                            var sum: Int32 = 0
                            for dy in -r...r { sum += t[min(h - 1, max(0, dy)) * w * c + col] }
                            for y in 0..<h {
                                o[y * w * c + col] = UInt8(sum / (n * n))
                                sum += t[min(h - 1, y + r + 1) * w * c + col] - t[max(0, y - r) * w * c + col]
                            }
                        }
                    }
                }
            }
        }
        return out
    }

    static func otsu(_ histogram: [Int]) -> Int {
        let total = histogram.reduce(0, +)
        guard total > 0 else { return 128 }
        var sum = 0.0
        for (i, v) in histogram.enumerated() { sum += Double(i * v) }
        var sumB = 0.0, weightB = 0.0, best = 0.0, threshold = 0
        for t in 0..<256 {
            weightB += Double(histogram[t])
            if weightB == 0 { continue }
            let weightF = Double(total) - weightB
            if weightF == 0 { break }
            sumB += Double(t * histogram[t])
            let mB = sumB / weightB, mF = (sum - sumB) / weightF
            let between = weightB * weightF * (mB - mF) * (mB - mF)
            if between > best { best = between; threshold = t }
        }
        return threshold
    }

    /// Dilation or erosion with a square of side 2r+1, separable, by counting set pixels in a window.
    static func morph(_ mask: [UInt8], w: Int, h: Int, radius r: Int, dilate: Bool) -> [UInt8] {
        let full = 2 * r + 1
        var tmp = [UInt8](repeating: 0, count: w * h)
        var out = [UInt8](repeating: 0, count: w * h)
        mask.withUnsafeBufferPointer { mb in
            tmp.withUnsafeMutableBufferPointer { tb in
                out.withUnsafeMutableBufferPointer { ob in
                    guard let m = mb.baseAddress, let t = tb.baseAddress, let o = ob.baseAddress else { return }
                    func decide(_ count: Int) -> UInt8 { dilate ? (count > 0 ? 1 : 0) : (count == full ? 1 : 0) }
                    for y in 0..<h {
                        let row = y * w
                        var count = 0
                        for dx in -r...r { count += Int(m[row + min(w - 1, max(0, dx))]) }
                        for x in 0..<w {
                            t[row + x] = decide(count)
                            count += Int(m[row + min(w - 1, x + r + 1)]) - Int(m[row + max(0, x - r)])
                        }
                    }
                    for x in 0..<w {
                        var count = 0
                        for dy in -r...r { count += Int(t[min(h - 1, max(0, dy)) * w + x]) }
                        for y in 0..<h {
                            o[y * w + x] = decide(count)
                            count += Int(t[min(h - 1, y + r + 1) * w + x]) - Int(t[max(0, y - r) * w + x])
                        }
                    }
                }
            }
        }
        return out
    }

    static func close(_ mask: [UInt8], w: Int, h: Int, radius: Int) -> [UInt8] {
        morph(morph(mask, w: w, h: h, radius: radius, dilate: true), w: w, h: h, radius: radius, dilate: false)
    }

    /// Marks as foreground every background pixel not connected to the image border.
    static func fillHoles(_ mask: [UInt8], w: Int, h: Int) -> [UInt8] {
        var outside = [UInt8](repeating: 0, count: w * h)
        var stack: [Int] = []
        func push(_ i: Int) {
            if mask[i] == 0 && outside[i] == 0 { outside[i] = 1; stack.append(i) }
        }
        for x in 0..<w { push(x); push((h - 1) * w + x) }
        for y in 0..<h { push(y * w); push(y * w + w - 1) }
        while let i = stack.popLast() {
            let x = i % w, y = i / w
            if x > 0 { push(i - 1) }
            if x < w - 1 { push(i + 1) }
            if y > 0 { push(i - w) }
            if y < h - 1 { push(i + w) }
        }
        return outside.map { $0 == 0 ? 1 : 0 }
    }

    static func largestComponent(_ mask: [UInt8], w: Int, h: Int) -> ([UInt8], Int)? {
        var label = [Int32](repeating: 0, count: w * h)
        var bestLabel: Int32 = 0, bestArea = 0
        var next: Int32 = 1
        var stack: [Int] = []
        stack.reserveCapacity(w * h / 4)
        mask.withUnsafeBufferPointer { mb in
            label.withUnsafeMutableBufferPointer { lb in
                guard let m = mb.baseAddress, let l = lb.baseAddress else { return }
                for start in 0..<(w * h) where m[start] != 0 && l[start] == 0 {
                    var area = 0
                    l[start] = next
                    stack.append(start)
                    while let i = stack.popLast() {
                        area += 1
                        let x = i % w
                        if x > 0, m[i - 1] != 0, l[i - 1] == 0 { l[i - 1] = next; stack.append(i - 1) }
                        if x < w - 1, m[i + 1] != 0, l[i + 1] == 0 { l[i + 1] = next; stack.append(i + 1) }
                        if i >= w, m[i - w] != 0, l[i - w] == 0 { l[i - w] = next; stack.append(i - w) }
                        if i + w < w * h, m[i + w] != 0, l[i + w] == 0 { l[i + w] = next; stack.append(i + w) }
                    }
                    if area > bestArea { bestArea = area; bestLabel = next }
                    next += 1
                }
            }
        }
        guard bestArea > 0 else { return nil }
        return (label.map { $0 == bestLabel ? 1 : 0 }, bestArea)
    }

    // MARK: - Geometry

    static func convexHull(_ input: [Point]) -> [Point] {
        let pts = input.sorted { $0.x == $1.x ? $0.y < $1.y : $0.x < $1.x }
        guard pts.count > 2 else { return pts }
        func cross(_ o: Point, _ a: Point, _ b: Point) -> Double {
            (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
        }
        var lower: [Point] = []
        for p in pts {
            while lower.count >= 2 && cross(lower[lower.count - 2], lower[lower.count - 1], p) <= 0 { lower.removeLast() }
            lower.append(p)
        }
        var upper: [Point] = []
        for p in pts.reversed() {
            while upper.count >= 2 && cross(upper[upper.count - 2], upper[upper.count - 1], p) <= 0 { upper.removeLast() }
            upper.append(p)
        }
        return Array(lower.dropLast() + upper.dropLast())
    }

    /// Removes hull vertices one at a time, always the one whose removal adds the least area,
    /// until four remain; each removal replaces the two neighbouring edges by their extensions'
    /// intersection when that keeps the polygon enclosing the hull.
    static func reduceToQuadrilateral(_ hull: [Point]) -> [Point]? {
        var poly = hull
        while poly.count > 4 {
            var bestIndex = -1
            var bestCost = Double.infinity
            var bestPoint = Point(0, 0)
            let n = poly.count
            for i in 0..<n {
                // Merge edge (i, i+1) into one vertex: the intersection of edges (i-1, i) and (i+1, i+2).
                let a = poly[(i - 1 + n) % n], b = poly[i], c = poly[(i + 1) % n], d = poly[(i + 2) % n]
                guard let p = intersect(a, b, c, d) else { continue }
                // Added area: triangle (b, p, c).
                let cost = abs((p.x - b.x) * (c.y - b.y) - (p.y - b.y) * (c.x - b.x)) / 2
                if cost < bestCost { bestCost = cost; bestIndex = i; bestPoint = p }
            }
            guard bestIndex >= 0 else { return nil }
            let n1 = (bestIndex + 1) % n
            poly[bestIndex] = bestPoint
            poly.remove(at: n1)
        }
        return poly
    }

    /// Intersection of the lines through (a, b) and (c, d), when they meet ahead of b and behind c.
    static func intersect(_ a: Point, _ b: Point, _ c: Point, _ d: Point) -> Point? {
        let r = Point(b.x - a.x, b.y - a.y), s = Point(d.x - c.x, d.y - c.y)
        let denom = r.x * s.y - r.y * s.x
        guard abs(denom) > 1e-9 else { return nil }
        let t = ((c.x - a.x) * s.y - (c.y - a.y) * s.x) / denom
        let u = ((c.x - a.x) * r.y - (c.y - a.y) * r.x) / denom
        guard t >= 1, u <= 0 else { return nil }
        return Point(a.x + t * r.x, a.y + t * r.y)
    }

    static func polygonArea(_ p: [Point]) -> Double {
        var s = 0.0
        for i in 0..<p.count {
            let a = p[i], b = p[(i + 1) % p.count]
            s += a.x * b.y - b.x * a.y
        }
        return abs(s) / 2
    }

    static func orderClockwiseFromTopLeft(_ quad: [Point]) -> [Point] {
        let cx = quad.map(\.x).reduce(0, +) / 4, cy = quad.map(\.y).reduce(0, +) / 4
        // Clockwise in image coordinates (y down) is increasing angle.
        let sorted = quad.sorted { atan2($0.y - cy, $0.x - cx) < atan2($1.y - cy, $1.x - cx) }
        // Start at the corner nearest the top-left (smallest x + y).
        let start = sorted.indices.min { sorted[$0].x + sorted[$0].y < sorted[$1].x + sorted[$1].y } ?? 0
        return (0..<4).map { sorted[(start + $0) % 4] }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
