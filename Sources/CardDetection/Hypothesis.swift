import CDetectionKernels
import Foundation

/// One candidate card outline and the evidence for it.
struct Hypothesis {
    /// `lines`: four lines (or lines and the frame); `completed`: three lines closed by a card's
    /// proportions (`LineQuads.completed`); `region`: a region that stands out.
    enum Source: String { case lines, completed, region }

    /// Corners in preview pixels, clockwise from the top-left.
    var corners: [Point]
    var source: Source
    var features: [Double] = []
    var score: Double = 0
}

/// What one side of a hypothesis looks like in the photo.
struct SideEvidence {
    /// Share of the side along which a strong edge runs parallel to it.
    var support: Double
    /// Colour step across the side (1 = clear).
    var contrast: Double
    /// How even the band just inside the side is (1 = plain card margin).
    var smoothness: Double
    /// Share of the side inside the photo.
    var visible: Double
}

/// Judges hypotheses on the same terms, whatever produced them: edges along all visible sides,
/// a colour step across them, a plain margin just inside, a card's aspect ratio and corners,
/// its size, and text inside rather than around it.
struct HypothesisJudge {
    let edges: EdgeMap
    /// 1 where the photo has fine detail (text strokes, texture), dilated a little.
    let detail: [UInt8]

    /// Sides already judged: hypotheses made of the same lines share whole sides (half of the
    /// sides judged on a photo are repeats), and a side's evidence depends only on its ends and
    /// which way is out.
    let judged = SideMemo()

    init(edges: EdgeMap) {
        self.edges = edges
        let w = edges.width, h = edges.height
        let luma = edges.channels[0]
        let blurred = EdgeMap.smooth(luma, w: w, h: h, passes: 3)
        let d = [UInt8](unsafeUninitializedCapacity: w * h) { d, initialized in
            luma.withUnsafeBufferPointer { luma in blurred.withUnsafeBufferPointer { blurred in
                for i in 0..<(w * h) { d[i] = abs(luma[i] - blurred[i]) > 5 ? 1 : 0 }
            } }
            initialized = w * h
        }
        detail = Morphology.dilate(d, w: w, h: h, radius: 1)
    }

    /// How densely the photo is printed around each pixel (`PrintDensity`).
    func printDensity() -> PrintDensity { PrintDensity(detail: detail, width: edges.width, height: edges.height) }

    /// How well a card's aspect ratio (about 1.55-1.85, with some perspective) fits.
    static func aspectFit(_ aspect: Double) -> Double {
        if aspect >= 1.45 && aspect <= 1.95 { return 1 }
        let off = aspect < 1.45 ? 1.45 - aspect : aspect - 1.95
        return max(0, 1 - off / 0.4)
    }

    /// The evidence along the side from `a` to `b` of a hypothesis centred on `centre`.
    func side(_ a: Point, _ b: Point, centre: Point) -> SideEvidence {
        let len = distance(a, b)
        guard len > 2 else { return SideEvidence(support: 0, contrast: 0, smoothness: 0, visible: 0) }
        let dx = (b.x - a.x) / len, dy = (b.y - a.y) / len
        let flipped = Self.flipped(a, b, dx: dx, dy: dy, centre: centre)
        let key = SideMemo.Key(a: a, b: b, flipped: flipped)
        if let known = judged.sides[key] { return known }
        let evidence = side(a, b, length: len, outward: flipped ? (dy, -dx) : (-dy, dx))
        judged.sides[key] = evidence
        return evidence
    }

    /// True when the side from `a` to `b` (unit direction `dx`, `dy`) of an outline centred on
    /// `centre` has its outside towards (dy, -dx) rather than (-dy, dx).
    static func flipped(_ a: Point, _ b: Point, dx: Double, dy: Double, centre: Point) -> Bool {
        let mid = Point((a.x + b.x) / 2, (a.y + b.y) / 2)
        return (mid.x - centre.x) * -dy + (mid.y - centre.y) * dx < 0
    }

    /// `side` worked out: `outward` is the unit normal pointing away from the hypothesis.
    private func side(_ a: Point, _ b: Point, length len: Double, outward: (Double, Double)) -> SideEvidence {
        let (nx, ny) = outward
        let steps = min(40, max(8, Int(len / 2)))
        let strong = Float(edges.strongEdge) * 0.5
        var supported = 0, visible = 0
        // The colours just inside and just outside, channel by channel (brightness, red-green,
        // yellow-blue): two samples of each per step, in one scratch buffer of six lanes.
        let lane = 2 * steps
        return withUnsafeTemporaryAllocation(of: Float.self, capacity: 7 * lane) { scratch -> SideEvidence in
            guard let base = scratch.baseAddress else { return SideEvidence(support: 0, contrast: 0, smoothness: 0, visible: 0) }
            var nInside = 0, nOutside = 0
            let fnx = Float(nx), fny = Float(ny)
            for s in 0..<steps {
                let t = 0.06 + 0.88 * Double(s) / Double(steps - 1)
                let px = Float(a.x + (b.x - a.x) * t), py = Float(a.y + (b.y - a.y) * t)
                guard px >= 2, py >= 2, px < Float(edges.width - 2), py < Float(edges.height - 2) else { continue }
                visible += 1
                var best: Float = 0
                for k in -2...2 { best = max(best, edges.projected(px + Float(k) * fnx, py + Float(k) * fny, fnx, fny)) }
                if best >= strong { supported += 1 }
                for k: Float in [3, 5] {
                    if let c = edges.colour(px - k * fnx, py - k * fny) {
                        base[nInside] = c.0; base[lane + nInside] = c.1; base[2 * lane + nInside] = c.2
                        nInside += 1
                    }
                    if let c = edges.colour(px + k * fnx, py + k * fny) {
                        base[3 * lane + nOutside] = c.0; base[4 * lane + nOutside] = c.1; base[5 * lane + nOutside] = c.2
                        nOutside += 1
                    }
                }
            }
            let vis = Double(visible) / Double(steps)
            guard visible > 0, nInside > 0, nOutside > 0 else { return SideEvidence(support: 0, contrast: 0, smoothness: 0, visible: vis) }
            let (step, mad) = Self.colourStep(base, lane: lane, inside: nInside, outside: nOutside)
            return SideEvidence(support: Double(supported) / Double(visible), contrast: min(1, Double(step) / 12),
                                smoothness: 1 - min(1, Double(mad) / 10), visible: vis)
        }
    }

    /// The colour step between the median colours inside and outside a side, and the spread of
    /// the brightness inside around its median, from `side`'s scratch lanes (left reordered).
    static func colourStep(_ base: UnsafeMutablePointer<Float>, lane: Int, inside: Int, outside: Int) -> (step: Float, mad: Float) {
        // The brightness inside is kept in order for the spread around its median (last lane).
        let spread = base + 6 * lane
        spread.update(from: base, count: inside)
        func median(_ channel: Int, _ count: Int) -> Float {
            kthSmallest(UnsafeMutableBufferPointer(start: base + channel * lane, count: count), count / 2)
        }
        let iL = median(0, inside), oL = median(3, outside)
        let i1 = median(1, inside), o1 = median(4, outside)
        let i2 = median(2, inside), o2 = median(5, outside)
        let step = ((iL - oL) * (iL - oL) + 2 * (i1 - o1) * (i1 - o1) + 2 * (i2 - o2) * (i2 - o2)).squareRoot()
        for j in 0..<inside { spread[j] = abs(spread[j] - iL) }
        return (step, kthSmallest(UnsafeMutableBufferPointer(start: spread, count: inside), inside / 2))
    }

    /// The value `sorted()[k]` would give, found by selection instead of a whole sort.
    static func kthSmallest(_ values: [Float], _ k: Int, vector: Bool = true) -> Float {
        var v = values
        return v.withUnsafeMutableBufferPointer { kthSmallest($0, k, vector: vector) }
    }

    /// Up to this many values, `kthSmallest` counts (`cs_kth_smallest`) instead of partitioning.
    static let countingLimit = 128

    /// `kthSmallest` in place: `b` may be left reordered. A side's few dozen samples are counted,
    /// without the partition's unpredictable branches; more are partitioned.
    static func kthSmallest(_ b: UnsafeMutableBufferPointer<Float>, _ k: Int, vector: Bool = true) -> Float {
        if b.count <= countingLimit, let base = b.baseAddress {
            var result: Float = 0
            _ = cs_kth_smallest(base, Int32(b.count), Int32(k), &result, vector ? 1 : 0)
            return result
        }
        var lo = 0, hi = b.count - 1
        while lo < hi {
            let pivot = b[(lo + hi) / 2]
            var i = lo, j = hi
            while i <= j {
                while b[i] < pivot { i += 1 }
                while b[j] > pivot { j -= 1 }
                if i <= j { b.swapAt(i, j); i += 1; j -= 1 }
            }
            if k <= j { hi = j } else if k >= i { lo = i } else { break }
        }
        return b[k]
    }

    /// Share of `points` that fall on detail.
    func detailShare(_ points: [Point]) -> Double {
        var on = 0, n = 0
        for p in points {
            let x = Int(p.x), y = Int(p.y)
            guard x >= 0, y >= 0, x < edges.width, y < edges.height else { continue }
            n += 1
            if detail[y * edges.width + x] != 0 { on += 1 }
        }
        return n == 0 ? 0 : Double(on) / Double(n)
    }

    /// Points of a grid inside the quadrilateral (bilinear in its corners).
    static func grid(_ q: [Point], cols: Int, rows: Int, inset: Double) -> [Point] {
        var out: [Point] = []
        for r in 0..<rows {
            let v = inset + (1 - 2 * inset) * (Double(r) + 0.5) / Double(rows)
            for c in 0..<cols {
                let u = inset + (1 - 2 * inset) * (Double(c) + 0.5) / Double(cols)
                let top = Point(q[0].x + (q[1].x - q[0].x) * u, q[0].y + (q[1].y - q[0].y) * u)
                let bottom = Point(q[3].x + (q[2].x - q[3].x) * u, q[3].y + (q[2].y - q[3].y) * u)
                out.append(Point(top.x + (bottom.x - top.x) * v, top.y + (bottom.y - top.y) * v))
            }
        }
        return out
    }

    /// The evidence as features; nil when the shape cannot be a card at all.
    func features(of corners: [Point], source: Hypothesis.Source) -> [Double]? {
        guard corners.count == 4, QuadGeometry.isConvex(corners) else { return nil }
        let skew = QuadGeometry.cornerSkew(corners)
        guard skew < 0.5 else { return nil }  // corners within 60-120 degrees
        let aspect = QuadGeometry.aspect(corners)
        let fit = Self.aspectFit(aspect)
        guard fit > 0 else { return nil }
        let shortSide = min(distance(corners[0], corners[1]), distance(corners[1], corners[2]))
        guard shortSide >= 12 else { return nil }
        let imageArea = Double(edges.width * edges.height)
        let areaShare = QuadGeometry.area(corners) / imageArea
        let centre = Point(corners.map(\.x).reduce(0, +) / 4, corners.map(\.y).reduce(0, +) / 4)
        let sides = (0..<4).map { side(corners[$0], corners[($0 + 1) % 4], centre: centre) }
        let known = sides.filter { $0.visible >= 0.5 }
        guard known.count >= 3 || (known.count == 2 && areaShare > 0.3) else { return nil }
        let supports = known.map(\.support), contrasts = known.map(\.contrast), smooth = known.map(\.smoothness)
        func mean(_ v: [Double]) -> Double { v.reduce(0, +) / Double(v.count) }
        let inside = detailShare(Self.grid(corners, cols: 16, rows: 10, inset: 0.08))
        let ring = detailShare(Self.grid(corners.map { Point(centre.x + ($0.x - centre.x) * 1.12, centre.y + ($0.y - centre.y) * 1.12) },
                                         cols: 16, rows: 10, inset: 0).filter { p in
            // keep only the points of the enlarged grid that lie outside the card
            !Self.contains(corners, p)
        })
        let across = sides.indices.filter { sides[$0].visible >= 0.5 }.map { i in
            printAcross(corners[i], corners[(i + 1) % 4], centre: centre, depth: max(8, 0.05 * shortSide))
        }.max() ?? 0
        return [
            1,
            supports.min() ?? 0, mean(supports),
            contrasts.min() ?? 0, mean(contrasts),
            smooth.min() ?? 0, mean(smooth),
            known.count == 4 ? 1 : 0,
            fit,
            log10(max(areaShare, 1e-4)),
            skew,
            inside, ring,
            source == .region ? 1 : 0,
            across,
        ]
    }

    /// Where print runs across the side from `a` to `b`: the share of its middle four fifths along
    /// which there is detail both `depth` pixels inside and `depth` pixels outside. A card's sides
    /// have its plain margin inside (whatever lies around it); an outline that cuts through a
    /// printed page (a card with part of the page it lies on) has the page's text on both sides.
    func printAcross(_ a: Point, _ b: Point, centre: Point, depth: Double) -> Double {
        let len = distance(a, b)
        guard len > 2 else { return 0 }
        let dx = (b.x - a.x) / len, dy = (b.y - a.y) / len
        let (nx, ny) = Self.flipped(a, b, dx: dx, dy: dy, centre: centre) ? (-dy, dx) : (dy, -dx)  // towards the inside
        let steps = min(40, max(8, Int(len / 3)))
        var hits = 0, n = 0
        func isDetail(_ x: Int, _ y: Int) -> Bool { x >= 0 && y >= 0 && x < edges.width && y < edges.height && detail[y * edges.width + x] != 0 }
        for s in 0..<steps {
            let t = 0.1 + 0.8 * Double(s) / Double(steps - 1)
            let x = a.x + (b.x - a.x) * t, y = a.y + (b.y - a.y) * t
            let ix = Int(x + nx * depth), iy = Int(y + ny * depth)
            guard ix >= 0, iy >= 0, ix < edges.width, iy < edges.height else { continue }
            n += 1
            if isDetail(ix, iy) && isDetail(Int(x - nx * depth), Int(y - ny * depth)) { hits += 1 }
        }
        return n == 0 ? 0 : Double(hits) / Double(n)
    }

    static func contains(_ q: [Point], _ p: Point) -> Bool {
        var sign = 0.0
        for i in 0..<4 {
            let a = q[i], b = q[(i + 1) % 4]
            let cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
            if sign == 0 { sign = cross } else if (cross > 0) != (sign > 0) { return false }
        }
        return true
    }

    static let featureNames = ["bias", "minSupport", "meanSupport", "minContrast", "meanContrast", "minSmooth",
                               "meanSmooth", "allSides", "aspectFit", "logArea", "skew", "textInside", "textRing", "isRegion", "printAcross"]

    /// Where the share of text just outside the outline is among the features.
    static let textRingFeature = featureNames.firstIndex(of: "textRing")!
    /// Where the share of text inside the outline is.
    static let textInsideFeature = featureNames.firstIndex(of: "textInside")!

    /// Weights of the evidence, fitted by logistic regression on photos with known card outlines.
    static let weights: [Double] = [0, 1.96, 2.49, 2.57, 1.06, 0.24, 2.63, 2.9, 3.85, 2.77, -1.47, 0.68, -0.63, 2.34]

    /// Where print running across a side is among the features (not weighed by `weights`: the
    /// judge's log-odds are as fitted; `CardDetector.preferPlainMargins` weighs it).
    static let printAcrossFeature = featureNames.firstIndex(of: "printAcross")!

    /// The log-odds the judge gives a hypothesis (for ranking).
    func logit(_ f: [Double]) -> Double {
        var z = 0.0
        // Only the fitted features: those after them (printAcross) are weighed where they are used.
        for (x, w) in zip(f.prefix(Self.weights.count), Self.weights) { z += x * w }
        return z
    }
}

/// The sides a judge has seen, with their evidence (one judge works on one photo, on one thread).
final class SideMemo {
    struct Key: Hashable {
        let ax, ay, bx, by: Double
        let flipped: Bool

        init(a: Point, b: Point, flipped: Bool) {
            (ax, ay, bx, by) = (a.x, a.y, b.x, b.y)
            self.flipped = flipped
        }
    }

    var sides: [Key: SideEvidence] = [:]
}

/// Per pixel, the share of the square of radius `radius` around it (cut at the photo's borders)
/// that is fine detail (`HypothesisJudge.detail`): a printed page's running text fills most of
/// it, a card's few lines and plain margins little of it. From a summed-area table of the detail,
/// so that only the points asked about are measured.
struct PrintDensity {
    let width: Int
    let height: Int
    /// sums[(y + 1) * (width + 1) + x + 1]: the detail pixels above and left of (x, y), inclusive.
    private let sums: [Int32]

    /// In preview pixels (640 on the long side): about two lines of a page's running text.
    static let radius = 8
    /// The density over which a point lies in running text.
    static let dense = 0.5

    init(detail: [UInt8], width: Int, height: Int) {
        self.width = width
        self.height = height
        let stride = width + 1
        var sums = [Int32](repeating: 0, count: stride * (height + 1))
        for y in 0..<height {
            var row: Int32 = 0
            for x in 0..<width {
                row += Int32(detail[y * width + x])
                sums[(y + 1) * stride + x + 1] = sums[y * stride + x + 1] + row
            }
        }
        self.sums = sums
    }

    /// The density around (x, y), which must lie in the photo.
    func density(x: Int, y: Int) -> Double {
        let r = Self.radius, stride = width + 1
        let x0 = max(0, x - r), x1 = min(width - 1, x + r), y0 = max(0, y - r), y1 = min(height - 1, y + r)
        let count = sums[(y1 + 1) * stride + x1 + 1] - sums[y0 * stride + x1 + 1] - sums[(y1 + 1) * stride + x0] + sums[y0 * stride + x0]
        return Double(count) / Double((x1 - x0 + 1) * (y1 - y0 + 1))
    }

    /// Share of the outline's inside (a 16 x 10 grid over the outline shrunk to 84% about its
    /// centre) where the density is over `dense`.
    func denseShare(_ corners: [Point]) -> Double {
        let c = Point(corners.map(\.x).reduce(0, +) / 4, corners.map(\.y).reduce(0, +) / 4)
        let inner = corners.map { Point(c.x + ($0.x - c.x) * 0.84, c.y + ($0.y - c.y) * 0.84) }
        var on = 0, n = 0
        for p in HypothesisJudge.grid(inner, cols: 16, rows: 10, inset: 0.05) {
            let x = Int(p.x), y = Int(p.y)
            guard x >= 0, y >= 0, x < width, y < height else { continue }
            n += 1
            if density(x: x, y: y) > Self.dense { on += 1 }
        }
        return n == 0 ? 0 : Double(on) / Double(n)
    }
}
