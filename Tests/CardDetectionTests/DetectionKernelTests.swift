import CDetectionKernels
import ImageIngest
import TestSupport
import Testing
import Foundation
@testable import CardDetection

/// Detection's faster kernels (components found run by run, smoothing in place, the Hough
/// accumulator smoothed in place) give exactly what the plain definitions give, on random data.
@Suite struct DetectionKernelTests {
    typealias Generator = SeededGenerator

    /// A blobby random mask: smoothed noise above a threshold, so components have holes, merge
    /// and split across rows (what region masks look like), plus single pixels.
    static func mask(_ w: Int, _ h: Int, seed: UInt64, level: Float) -> [UInt8] {
        let noise = SeededGenerator.grid(w, h, seed: seed)
        let smooth = EdgeMap.smooth(noise, w: w, h: h, passes: 3)
        return smooth.map { $0 > level ? 1 : 0 }
    }

    /// The definition: a flood fill (4-way) from each unlabelled mask pixel in raster order.
    static func floodFill(_ m: [UInt8], w: Int, h: Int) -> ([Int32], [Components.Component]) {
        var labels = [Int32](repeating: 0, count: w * h)
        var components: [Components.Component] = []
        for start in 0..<(w * h) where m[start] != 0 && labels[start] == 0 {
            var c = Components.Component(label: Int32(components.count + 1))
            labels[start] = c.label
            var stack = [start]
            while let i = stack.popLast() {
                let x = i % w, y = i / w
                c.area += 1
                c.minX = min(c.minX, x); c.maxX = max(c.maxX, x); c.minY = min(c.minY, y); c.maxY = max(c.maxY, y)
                for (nx, ny) in [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)] where nx >= 0 && ny >= 0 && nx < w && ny < h {
                    let j = ny * w + nx
                    if m[j] != 0 && labels[j] == 0 { labels[j] = c.label; stack.append(j) }
                }
            }
            components.append(c)
        }
        return (labels, components)
    }

    @Test(arguments: [(40, 30, UInt64(1), Float(128)), (97, 61, 2, 120), (64, 64, 3, 135), (1, 50, 4, 128), (50, 1, 5, 128)])
    func runComponentsMatchAFloodFill(w: Int, h: Int, seed: UInt64, level: Float) {
        let m = Self.mask(w, h, seed: seed, level: level)
        let (labels, expected) = Self.floodFill(m, w: w, h: h)
        #expect(Components.label(m, w: w, h: h).0 == labels)
        let found = RunComponents(m, w: w, h: h)
        #expect(found.components.count == expected.count)
        #expect(!expected.isEmpty)
        for (a, b) in zip(found.components, expected) {
            #expect(a.label == b.label && a.area == b.area)
            #expect(a.minX == b.minX && a.maxX == b.maxX && a.minY == b.minY && a.maxY == b.maxY)
        }
        // Every run's pixels carry its component's label, and the runs cover the mask exactly.
        var painted = [Int32](repeating: 0, count: w * h)
        let all = found.runIndices(of: Array(found.components.indices))
        for (k, runs) in all.enumerated() {
            for r in runs {
                let run = found.runs[Int(r)]
                for x in Int(run.x0)..<Int(run.x1) { painted[Int(run.y) * w + x] = Int32(k + 1) }
            }
        }
        #expect(painted == labels)
    }

    /// The definition of a region's quadrilateral: the component with its holes filled, the
    /// hull of its rows' ends, kept when the filled area fills 85% of the quadrilateral.
    static func definitionQuads(_ mask: [UInt8], w: Int, h: Int) -> [[Point]] {
        let (labels, components) = floodFill(mask, w: w, h: h)
        var out: [[Point]] = []
        for c in components where c.area >= w * h / 250 && c.area <= w * h * 97 / 100 {
            let bw = c.maxX - c.minX + 1, bh = c.maxY - c.minY + 1
            var local = [UInt8](repeating: 0, count: bw * bh)
            for y in 0..<bh { for x in 0..<bw where labels[(y + c.minY) * w + x + c.minX] == c.label { local[y * bw + x] = 1 } }
            local = Self.fillHoles(local, w: bw, h: bh)
            var points: [Point] = []
            for y in 0..<bh {
                let set = (0..<bw).filter { local[y * bw + $0] != 0 }
                guard let first = set.first, let last = set.last else { continue }
                let fx = Double(first + c.minX), lx = Double(last + c.minX + 1), fy = Double(y + c.minY)
                points += [Point(fx, fy), Point(lx, fy), Point(fx, fy + 1), Point(lx, fy + 1)]
            }
            let hull = QuadGeometry.convexHull(points)
            guard hull.count >= 4, let quad = QuadGeometry.reduceToQuadrilateral(hull) else { continue }
            let area = Double(local.reduce(0) { $0 + Int($1) }), quadArea = QuadGeometry.area(quad)
            if quadArea > 0 && area / quadArea >= 0.85 { out.append(quad) }
        }
        return out
    }

    @Test(arguments: [(60, 40, UInt64(1), Float(120)), (80, 50, 2, 128), (64, 64, 3, 135), (90, 70, 4, 110)])
    func regionQuadsMatchTheDefinition(w: Int, h: Int, seed: UInt64, level: Float) {
        var m = Self.mask(w, h, seed: seed, level: level)
        // A card-like block with holes (its text) and a notch, on top of the noise blobs.
        for y in (h / 4 - 2)..<(h * 3 / 4 + 2) { for x in (w / 5 - 2)..<(w * 4 / 5 + 2) { m[y * w + x] = 0 } }
        for y in (h / 4)..<(h * 3 / 4) { for x in (w / 5)..<(w * 4 / 5) { m[y * w + x] = 1 } }
        for y in stride(from: h / 3, to: h * 2 / 3, by: 4) { for x in (w / 3)..<(w / 2) { m[y * w + x] = 0 } }
        for y in (h / 4)..<(h / 3) { m[y * w + w / 2] = 0 }
        let quads = RegionCandidates.quadsOfComponents(m, w: w, h: h)
        #expect(quads == Self.definitionQuads(m, w: w, h: h))
        #expect(!quads.isEmpty)
    }

    /// [1 2 1] both ways, border pixels repeated: the definition, one output pixel at a time.
    static func slowSmooth(_ a: [Float], w: Int, h: Int) -> [Float] {
        func at(_ x: Int, _ y: Int, _ p: [Float]) -> Float { p[min(h - 1, max(0, y)) * w + min(w - 1, max(0, x))] }
        var horizontal = a
        for y in 0..<h {
            for x in 0..<w { horizontal[y * w + x] = (at(x - 1, y, a) + 2 * at(x, y, a) + at(x + 1, y, a)) * 0.25 }
        }
        var out = a
        for y in 0..<h {
            for x in 0..<w { out[y * w + x] = (at(x, y - 1, horizontal) + 2 * at(x, y, horizontal) + at(x, y + 1, horizontal)) * 0.25 }
        }
        return out
    }

    /// With AVX2 (where this processor has it) and one value at a time.
    @Test(arguments: [(31, 17), (2, 9), (9, 2), (2, 2), (67, 5)])
    func inPlaceSmoothingMatchesTheDefinition(w: Int, h: Int) {
        let a = SeededGenerator.grid(w, h, seed: UInt64(w * 100 + h))
        for vector in [true, false] {
            var once = a, twice = a
            EdgeMap.smooth(&once, w: w, h: h, passes: 1, vector: vector)
            EdgeMap.smooth(&twice, w: w, h: h, passes: 2, vector: vector)
            #expect(once == Self.slowSmooth(a, w: w, h: h))
            #expect(twice == Self.slowSmooth(Self.slowSmooth(a, w: w, h: h), w: w, h: h))
        }
    }

    /// With AVX2 and one cell at a time, bit for bit (values with fractions, so that the order of
    /// the additions shows).
    @Test(arguments: [true, false])
    func houghAccumulatorSmoothsLikeACopy(vector: Bool) {
        var acc = HoughLines.Accumulator(width: 12, height: 9)
        var g = Generator(state: 7)
        for i in acc.cells.indices { acc.cells[i] = Float.random(in: 0...40, using: &g) }
        let before = acc.cells, n = acc.thetaBins
        var expected = before
        for r in 1..<(acc.rhoBins - 1) {
            for t in 0..<n {
                let tl = (t + n - 1) % n, tr = (t + 1) % n
                func c(_ r: Int, _ t: Int) -> Float { before[r * n + t] }
                var s = 4 * c(r, t)
                s += 2 * (c(r - 1, t) + c(r + 1, t) + c(r, tl) + c(r, tr))
                s += c(r - 1, tl) + c(r - 1, tr) + c(r + 1, tl) + c(r + 1, tr)
                expected[r * n + t] = s / 16
            }
        }
        acc.smooth(vector: vector)
        #expect(acc.cells.map(\.bitPattern) == expected.map(\.bitPattern))
    }

    /// The hull of rows' corners from each level's extremes is the hull of all the corners.
    @Test(arguments: [UInt64(21), 22, 23, 24, 25])
    func rowHullIsTheHullOfAllCorners(seed: UInt64) {
        var g = Generator(state: seed)
        for shape in 0..<40 {
            var rows: [QuadGeometry.Row] = []
            var y = Int.random(in: 0...20, using: &g)
            let count = shape == 0 ? 1 : Int.random(in: 1...60, using: &g)
            // Wandering spans, sometimes a row skipped, sometimes a straight side (collinear corners).
            var x0 = Int.random(in: 0...50, using: &g), x1 = x0 + Int.random(in: 1...80, using: &g)
            for _ in 0..<count {
                rows.append(QuadGeometry.Row(y: y, x0: x0, x1: x1))
                y += Int.random(in: 0...5, using: &g) == 0 ? 2 : 1
                if shape % 3 != 0 { x0 = max(0, x0 + Int.random(in: -3...3, using: &g)) }
                x1 = max(x0 + 1, x1 + Int.random(in: -3...3, using: &g))
            }
            let corners = rows.flatMap { r in
                [Point(Double(r.x0), Double(r.y)), Point(Double(r.x1), Double(r.y)),
                 Point(Double(r.x0), Double(r.y + 1)), Point(Double(r.x1), Double(r.y + 1))]
            }
            #expect(QuadGeometry.convexHull(ofRows: rows) == QuadGeometry.convexHull(corners))
        }
    }

    /// A component's filled area from the runs of the gaps around it is the flood fill's.
    @Test(arguments: [(60, 40, UInt64(11), Float(120)), (97, 61, 12, 128), (33, 80, 13, 133)])
    func filledAreaIsTheFloodFills(w: Int, h: Int, seed: UInt64, level: Float) {
        var m = Self.mask(w, h, seed: seed, level: level)
        // A block with holes: some open to its outside only through a corner (not 4-way).
        for y in (h / 4)..<(h * 3 / 4) { for x in (w / 5)..<(w * 4 / 5) { m[y * w + x] = 1 } }
        for y in stride(from: h / 4 + 2, to: h * 3 / 4 - 2, by: 3) { for x in (w / 3)..<(w / 2) { m[y * w + x] = 0 } }
        m[(h / 4) * w + w / 5] = 0
        m[(h / 4 + 1) * w + w / 5 + 1] = 0
        let found = RunComponents(m, w: w, h: h)
        let runsOf = found.runIndices(of: Array(found.components.indices))
        var checked = 0
        for (k, c) in found.components.enumerated() {
            let bw = c.maxX - c.minX + 1, bh = c.maxY - c.minY + 1
            var local = [UInt8](repeating: 0, count: bw * bh)
            for r in runsOf[k] {
                let run = found.runs[Int(r)]
                for x in Int(run.x0)..<Int(run.x1) { local[(Int(run.y) - c.minY) * bw + x - c.minX] = 1 }
            }
            let expected = Self.fillHoles(local, w: bw, h: bh).reduce(0) { $0 + Int($1) }
            #expect(RegionCandidates.filledArea(found, runs: runsOf[k], of: c) == expected)
            if expected > c.area { checked += 1 }
        }
        #expect(checked > 0)  // some component had holes
    }

    /// Runs are found from the rows' bits, 64 pixels at a time: masks whose set pixels hold any
    /// value, rows that are all set (one run across every 64-pixel word), rows of exactly one and
    /// two words and rows with a word's remainder give the flood fill's components.
    @Test(arguments: [(97, 61, UInt64(6), Float(120)), (203, 40, 7, 128), (16, 16, 8, -1000), (9, 33, 9, 125),
                      (200, 9, 10, -1000), (64, 20, 11, 110), (128, 20, 12, 115), (129, 20, 13, 105)])
    func runComponentsTakeAnySetValue(w: Int, h: Int, seed: UInt64, level: Float) {
        let m = Self.mask(w, h, seed: seed, level: level).enumerated().map { $1 == 0 ? 0 : UInt8(1 + ($0 * 37) % 255) }
        let (labels, expected) = Self.floodFill(m, w: w, h: h)
        #expect(!expected.isEmpty)
        #expect(Components.label(m, w: w, h: h).0 == labels)
        #expect(RunComponents(m, w: w, h: h).components.map(\.area) == expected.map(\.area))
    }

    /// The Hough vote as first written: every pixel visited, each of the eight neighbours along
    /// the edge rounded on its own (k = -4 ... 4).
    static func definitionVote(_ edges: EdgeMap, isEdge: [UInt8], angles: [Float], strong: Float,
                               into acc: inout HoughLines.Accumulator) {
        let w = edges.width, h = edges.height, n = acc.thetaBins, spread = 3
        let shares = (-spread...spread).map { 1 - Float(abs($0)) / Float(spread + 1) }
        for y in 1..<(h - 1) {
            for x in 1..<(w - 1) {
                let i = y * w + x
                guard isEdge[i] != 0 else { continue }
                let angle = angles[i]
                let rad = angle * .pi / 180
                let tx = -sin(rad), ty = cos(rad)
                var straight = 0
                for k in -4...4 where k != 0 {
                    let nx = x + Int((Float(k) * tx).rounded()), ny = y + Int((Float(k) * ty).rounded())
                    guard nx >= 0, ny >= 0, nx < w, ny < h, isEdge[ny * w + nx] != 0 else { continue }
                    var d = abs(angles[ny * w + nx] - angle)
                    if d > 90 { d = 180 - d }
                    if d < 15 { straight += 1 }
                }
                let weight = min(1, edges.magnitude[i] / strong) * (Float(straight) / 8)
                guard weight > 0 else { continue }
                let t0 = Int(angle.rounded()) % n
                for dt in -spread...spread {
                    let t = (t0 + dt + n) % n
                    let r = Int((Float(x) * acc.cosT[t] + Float(y) * acc.sinT[t]).rounded()) + acc.diag
                    guard r >= 0, r < acc.rhoBins else { continue }
                    acc.cells[r * n + t] += weight * shares[dt + spread]
                }
            }
        }
    }

    /// A photo-like picture: a light card turned on a textured desk, with strokes of "text".
    static func cardPicture(_ w: Int, _ h: Int, seed: UInt64, turn: Double) -> PixelImage {
        var g = Generator(state: seed)
        var px = [UInt8](repeating: 0, count: w * h * 3)
        let (c, s) = (cos(turn), sin(turn))
        for y in 0..<h {
            for x in 0..<w {
                let dx = Double(x) - Double(w) / 2, dy = Double(y) - Double(h) / 2
                let u = c * dx + s * dy, v = -s * dx + c * dy
                let onCard = abs(u) < Double(w) * 0.3 && abs(v) < Double(h) * 0.25
                let text = onCard && Int(v + 1000) % 14 < 3 && Int(u + 1000) % 9 < 6 && abs(u) < Double(w) * 0.22
                let base: Int = text ? 40 : onCard ? 225 : 90 + Int.random(in: 0...50, using: &g)
                for ch in 0..<3 { px[(y * w + x) * 3 + ch] = UInt8(clamping: base + ch * 7) }
            }
        }
        return PixelImage(width: w, height: h, channels: 3, pixels: px)
    }

    /// Gray noise in four levels (0, 85, 170, 255): gradients in every direction, equal neighbours,
    /// edge pixels up to the last rows.
    static func noisePicture(_ w: Int, _ h: Int, seed: UInt64) -> PixelImage {
        var g = Generator(state: seed)
        return PixelImage(width: w, height: h, channels: 1, pixels: (0..<(w * h)).map { _ in UInt8(85 * Int.random(in: 0...3, using: &g)) })
    }

    @Test(arguments: [(0.0, 1), (0.3, 2), (-0.7, 3), (Double.pi / 4, 4)] as [(Double, UInt64)])
    func houghVoteIsTheDefinitions(turn: Double, seed: UInt64) {
        // A width that is not a multiple of eight, so rows end with pixels the eight-byte skip
        // leaves; and noise, whose edge pixels reach the last rows (voted one neighbour at a time).
        let noise = Self.noisePicture(203, 150, seed: seed + 40)
        for picture in [Self.cardPicture(203, 150, seed: seed, turn: turn), noise] {
            let edges = EdgeMap(picture)
            let threshold = max(4, edges.magnitudePercentile(0.75))
            let (isEdge, angles) = HoughLines.edgePixels(edges, threshold: threshold)
            #expect(isEdge.contains(1))
            var plain = HoughLines.Accumulator(width: edges.width, height: edges.height)
            Self.definitionVote(edges, isEdge: isEdge, angles: angles, strong: 3 * threshold, into: &plain)
            #expect(plain.cells.contains { $0 > 0 })
            for vector in [true, false] {
                var fast = HoughLines.Accumulator(width: edges.width, height: edges.height)
                HoughLines.vote(edges, isEdge: isEdge, angles: angles, strong: 3 * threshold, into: &fast, vector: vector)
                // Bit for bit; counted, so that a failure does not print the whole accumulator.
                #expect(fast.cells.count == plain.cells.count)
                #expect(zip(fast.cells, plain.cells).filter { $0.0.bitPattern != $0.1.bitPattern }.count == 0)
            }
        }
    }

    /// A judge judges each side once (hypotheses of the same lines share sides): its features
    /// are those of a new judge for each hypothesis, bit for bit, whatever came before.
    @Test(arguments: [(0.0, UInt64(31)), (0.3, 32), (-0.9, 33)])
    func sidesJudgedOnceGiveTheSameFeatures(turn: Double, seed: UInt64) {
        let edges = EdgeMap(Self.cardPicture(320, 240, seed: seed, turn: turn))
        let proposals = LineQuads.proposals(in: edges)
            + RegionCandidates.find(in: edges).map { (QuadGeometry.orderClockwiseFromTopLeft($0), Hypothesis.Source.region) }
        let shared = HypothesisJudge(edges: edges)
        var judged = 0, differing = 0, sidesAfterFirstPass = 0
        for (pass, order) in [proposals, proposals.reversed()].enumerated() {
            for (corners, source) in order {
                let once = shared.features(of: corners, source: source)
                let fresh = HypothesisJudge(edges: edges).features(of: corners, source: source)
                #expect((once == nil) == (fresh == nil))
                guard let once, let fresh else { continue }
                judged += 1
                if once.map(\.bitPattern) != fresh.map(\.bitPattern) { differing += 1 }
            }
            if pass == 0 { sidesAfterFirstPass = shared.judged.sides.count }
        }
        #expect(judged >= 8)
        #expect(differing == 0)
        // The second pass met only sides judged before: each was found, none judged again.
        #expect(sidesAfterFirstPass > 0)
        #expect(shared.judged.sides.count == sidesAfterFirstPass)
    }

    /// Edge pixels as first written in Swift: local maxima across the gradient, above the threshold.
    static func definitionEdgePixels(_ edges: EdgeMap, threshold: Float) -> (isEdge: [UInt8], angles: [Float]) {
        let w = edges.width, h = edges.height, mag = edges.magnitude
        var isEdge = [UInt8](repeating: 0, count: w * h), angles = [Float](repeating: 0, count: w * h)
        for y in 1..<(h - 1) {
            for x in 1..<(w - 1) {
                let i = y * w + x, m = mag[i]
                guard m > threshold else { continue }
                let gx = edges.gx[i], gy = edges.gy[i], ax = abs(gx), ay = abs(gy)
                let (a, b): (Float, Float)
                if ay <= 0.414 * ax { (a, b) = (mag[i - 1], mag[i + 1]) }
                else if ax <= 0.414 * ay { (a, b) = (mag[i - w], mag[i + w]) }
                else if (gx > 0) == (gy > 0) { (a, b) = (mag[i - w - 1], mag[i + w + 1]) }
                else { (a, b) = (mag[i - w + 1], mag[i + w - 1]) }
                guard m >= a, m >= b else { continue }
                var angle = atan2(gy, gx) * 180 / .pi
                if angle < 0 { angle += 180 }
                isEdge[i] = 1
                angles[i] = angle
            }
        }
        return (isEdge, angles)
    }

    @Test(arguments: [(0.0, UInt64(5)), (0.5, 6), (-1.1, 7)])
    func edgePixelsAreTheDefinitions(turn: Double, seed: UInt64) {
        // A card picture, and noise in 0...3 levels (gradients in every direction, equal neighbours).
        let noise = Self.noisePicture(203, 150, seed: seed)
        for picture in [Self.cardPicture(203, 150, seed: seed, turn: turn), noise] {
            let edges = EdgeMap(picture)
            let threshold = max(4, edges.magnitudePercentile(0.75))
            let expected = Self.definitionEdgePixels(edges, threshold: threshold)
            #expect(expected.isEdge.contains(1))
            for vector in [true, false] {
                let found = HoughLines.edgePixels(edges, threshold: threshold, vector: vector)
                #expect(found.isEdge == expected.isEdge)
                let differing = zip(found.angles, expected.angles).filter { $0.0.bitPattern != $0.1.bitPattern }
                #expect(differing.isEmpty, "\(differing.count) angles differ, e.g. \(differing.prefix(3))")
            }
        }
    }

    @Test func roundingIsSymmetricAboutZero() {
        for angle in stride(from: Float(0), to: 180, by: 0.01) {
            let t = -sin(angle * .pi / 180)
            for k in 1...4 { #expect(cs_rounded(Float(-k) * t) == -cs_rounded(Float(k) * t)) }
        }
    }

    @Test func roundingWithoutLibmIsRoundsOwn() {
        var values: [Float] = [0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 359.5, -1279.5, 0.49999997, -0.49999997]
        for k in -4...4 { for angle in stride(from: Float(0), to: 180, by: 0.37) { values.append(Float(k) * -sin(angle * .pi / 180)) } }
        for v in stride(from: Float(-2000), through: 2000, by: 0.125) { values += [v, v.nextUp, v.nextDown] }
        for v in values { #expect(cs_rounded(v) == Int(v.rounded()), "\(v)") }
    }
}

@Suite struct SelectionTests {
    @Test func kthSmallestIsTheSortedValue() {
        var g = SeededGenerator(state: 11)
        // Counted (up to 128 values, with AVX2 and one at a time, tails of 1-7 after the eights)
        // and partitioned (more).
        for n in [1, 2, 3, 7, 8, 9, 41, 80, 127, 128, 129, 300] {
            // Few distinct values, so ties are common; and values with fractions, negative ones too.
            let ties = (0..<n).map { _ in Float(Int.random(in: 0...6, using: &g)) * 0.5 }
            let spread = (0..<n).map { _ in Float.random(in: -40...300, using: &g) }
            for v in [ties, spread] {
                let sorted = v.sorted()
                for k in 0..<n {
                    #expect(HypothesisJudge.kthSmallest(v, k) == sorted[k])
                    #expect(HypothesisJudge.kthSmallest(v, k, vector: false) == sorted[k])
                }
            }
        }
    }
}

/// The gray warp (a row's constants computed once, the sample inlined), in Swift's eight lanes and
/// with the AVX2 kernel, gives the bytes the general warp gives, for straight, turned and
/// perspective quads at each supersampling, corners outside the photo included.
@Suite struct GrayWarpTests {
    @Test(arguments: [
        // Normalised corners; the source is 600 x 400, the output 256 px long (supersampling 1 to 3).
        ([0.1, 0.1, 0.9, 0.12, 0.88, 0.9, 0.12, 0.85], 256),
        ([0.2, 0.05, 0.95, 0.3, 0.8, 0.95, 0.05, 0.7], 256),
        ([0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0], 256),
        ([-0.1, 0.2, 0.7, -0.05, 1.1, 0.8, 0.3, 1.2], 200),   // corners outside the photo
        ([0.3, 0.3, 0.6, 0.32, 0.58, 0.5, 0.31, 0.49], 300),  // small: one sample
        ([0.1, 0.1, 0.9, 0.1, 0.9, 0.9, 0.1, 0.9], 150),      // large: three by three
    ])
    func grayWarpEqualsTheGeneralOne(corners c: [Double], longSide: Int) throws {
        var g = SeededGenerator(state: UInt64(longSide) &* 977)
        let (w, h) = (600, 400)
        // Smooth shapes and noise, so every interpolation weight shows.
        let pixels = (0..<(w * h)).map { i -> UInt8 in
            let x = i % w, y = i / w
            return UInt8(truncatingIfNeeded: (x * 3 + y * 5) / 4 + ((x / 37 + y / 23) % 2) * 90 + Int.random(in: 0...20, using: &g))
        }
        let image = PixelImage(width: w, height: h, channels: 1, pixels: pixels)
        let quad = Quadrilateral(corners: [Point(c[0], c[1]), Point(c[2], c[3]), Point(c[4], c[5]), Point(c[6], c[7])])
        let fast = try #require(Rectifier.warp(image, quad: quad, longSide: longSide))
        let lanes = try #require(Rectifier.warp(image, quad: quad, longSide: longSide, gray: .lanes))
        let general = try #require(Rectifier.warp(image, quad: quad, longSide: longSide, fastGray: false))
        #expect(lanes == general)
        // With the AVX2 kernel: without AVX2 `fast` is `lanes` again, and this compares nothing new.
        guard TestProcessor.hasAVX2 else { try Test.cancel("this processor has no AVX2: the AVX2 warp is not compared") }
        #expect(fast == general)
    }

    /// A non-finite quad gives a non-finite homography; clamps that are false for NaN would let
    /// cvtt make the coordinates INT_MIN and the gather read about 2 GiB before the image.
    /// `Rectifier.warp` (public) refuses such a quad, and the kernel clamps NaN.
    @Test func nonFiniteCornersAndMatricesNeverReadOutsideTheImage() throws {
        let image = PixelImage(width: 64, height: 48, channels: 1, pixels: (0..<(64 * 48)).map { UInt8(truncatingIfNeeded: $0 % 251 + 3) })
        for bad in [Double.nan, .infinity, -.infinity, 1e300] {
            let quad = Quadrilateral(corners: [Point(0.1, 0.1), Point(bad, 0.1), Point(0.9, 0.9), Point(0.1, 0.9)])
            #expect(Rectifier.warp(image, quad: quad, longSide: 32) == nil, "\(bad)")
            #expect(Rectifier.warp(image, quad: quad, longSide: 32, fastGray: false) == nil, "\(bad)")
        }
        guard TestProcessor.hasAVX2 else { try Test.cancel("this processor has no AVX2: the kernel is not run") }
        var out = [UInt8](repeating: 7, count: 16 * 4)
        let matrix: [Float] = [.nan, 0, 0, 0, .nan, 0, 0, 0, 1], offsets: [Float] = [0.5]
        let ran = image.pixels.withUnsafeBufferPointer { src in
            cs_warp_gray_blocks(src.baseAddress, 64, 48, &out, 16, 4, matrix, offsets, 1, 1)
        }
        #expect(ran == 1)
        #expect(out.allSatisfy { $0 == image.pixels[0] }, "NaN clamps to the first pixel: \(out)")
    }
}

/// The snap's edge strength, eight samples at a time (in Swift's lanes and with the AVX2 kernel),
/// is the one-sample loop's to the bit, for lines at any angle and position, and lines near or
/// over the border fall back to it.
@Suite struct SnapStrengthTests {
    @Test func vectorStrengthEqualsTheDefinition() {
        var g = SeededGenerator(state: 5)
        let (w, h) = (300, 200)
        let pixels = (0..<(w * h)).map { i -> UInt8 in
            let x = i % w, y = i / w
            return UInt8(truncatingIfNeeded: (x > 120 && y > 60 ? 180 : 60) + Int.random(in: 0...40, using: &g))
        }
        let image = PixelImage(width: w, height: h, channels: 1, pixels: pixels)
        var vectorUsed = 0
        for _ in 0..<400 {
            let angle = Double.random(in: 0..<(2 * .pi), using: &g)
            let dir = Point(cos(angle), sin(angle)), normal = Point(-sin(angle), cos(angle))
            let centre = Point(Double.random(in: -10...310, using: &g), Double.random(in: -10...210, using: &g))
            let half = Double.random(in: 5...90, using: &g)
            let fast = QuadRefiner.boundaryStrength(image, centre: centre, dir: dir, normal: normal, halfLength: half)
            let slow = QuadRefiner.boundaryStrength(image, centre: centre, dir: dir, normal: normal, halfLength: half, vectorized: false)
            #expect(fast.bitPattern == slow.bitPattern)
            // With the AVX2 kernel where this processor has it, and in Swift's lanes.
            let kernel = QuadRefiner.boundaryStrength8(image, centre: centre, dir: dir, normal: normal, halfLength: half)
            let lanes = QuadRefiner.boundaryStrength8(image, centre: centre, dir: dir, normal: normal, halfLength: half, kernel: false)
            #expect(kernel?.bitPattern == lanes?.bitPattern)
            if kernel != nil { vectorUsed += 1 }
        }
        #expect(vectorUsed > 100 && vectorUsed < 400, "both ways are tried: \(vectorUsed)")
    }
}

/// The edge map's gradients, eight pixels at a time (AVX2) and one at a time, are the per-pixel definition's to the bit:
/// each pixel's Sobel gradient of the channel that changes most (none where all are flat).
@Suite struct EdgeGradientTests {
    static func definition(_ map: EdgeMap, channelCount: Int) -> (gx: [Float], gy: [Float], magnitude: [Float]) {
        let w = map.width, h = map.height
        var gx = [Float](repeating: 0, count: w * h), gy = gx, magnitude = gx
        for y in 1..<(h - 1) {
            for x in 1..<(w - 1) {
                let i = y * w + x
                var best: (Float, Float, Float) = (0, 0, 0)
                for c in 0..<channelCount {
                    let s = map.channels[c]
                    let dx = (s[i - w + 1] + 2 * s[i + 1] + s[i + w + 1]) - (s[i - w - 1] + 2 * s[i - 1] + s[i + w - 1])
                    let dy = (s[i + w - 1] + 2 * s[i + w] + s[i + w + 1]) - (s[i - w - 1] + 2 * s[i - w] + s[i - w + 1])
                    let m = (dx * dx + dy * dy).squareRoot() / 4
                    if m > best.2 { best = (dx, dy, m) }
                }
                gx[i] = best.0 / 4; gy[i] = best.1 / 4; magnitude[i] = best.2
            }
        }
        return (gx, gy, magnitude)
    }

    // Zero borders included: the map's gradient planes are not zeroed inside before the kernel
    // writes them, and not at all written below 3 x 3.
    @Test(arguments: [(37, 23, 3), (64, 40, 3), (101, 9, 1), (8, 8, 3), (3, 3, 1), (2, 5, 3), (6, 2, 1)])
    func gradientsEqualTheDefinition(w: Int, h: Int, channels: Int) {
        var g = SeededGenerator(state: UInt64(w * 31 + h))
        // Flat areas (no gradient at all), steps and noise.
        let pixels = (0..<(w * h * channels)).map { i -> UInt8 in
            let x = (i / channels) % w
            return x < w / 3 ? 128 : UInt8.random(in: 0...255, using: &g)
        }
        let image = PixelImage(width: w, height: h, channels: channels, pixels: pixels)
        let map = EdgeMap(image)
        if channels == 1 { #expect(map.channels[1].allSatisfy { $0 == 0 } && map.channels[2].allSatisfy { $0 == 0 }) }
        let expected = Self.definition(map, channelCount: channels)
        #expect(map.gx.map(\.bitPattern) == expected.gx.map(\.bitPattern))
        #expect(map.gy.map(\.bitPattern) == expected.gy.map(\.bitPattern))
        #expect(map.magnitude.map(\.bitPattern) == expected.magnitude.map(\.bitPattern))
        // One pixel at a time, as a processor without AVX2 makes them.
        var gx = [Float](repeating: 0, count: w * h), gy = gx, magnitude = gx
        let c = map.channels
        #expect(cs_strongest_gradients(c[0], c[1], c[2], Int32(channels), Int32(w), Int32(h), &gx, &gy, &magnitude, 0) == 0)
        #expect(gx.map(\.bitPattern) == expected.gx.map(\.bitPattern))
        #expect(gy.map(\.bitPattern) == expected.gy.map(\.bitPattern))
        #expect(magnitude.map(\.bitPattern) == expected.magnitude.map(\.bitPattern))
    }

    /// The percentile's histogram: each value clamped to 0...1024 and truncated (values below 0,
    /// above 1024 and between bins included).
    @Test func percentileCountsClampedBins() {
        var g = SeededGenerator(state: 91)
        let values = (0..<5003).map { _ in Float.random(in: -50...1500, using: &g) }
        for fraction in [0.0, 0.1, 0.5, 0.75, 0.9, 0.999] {
            let sorted = values.map { Int(min(1024, max(0, $0))) }.sorted()
            #expect(EdgeMap.percentile(values, fraction) == Float(sorted[Int(Double(values.count) * fraction)]))
        }
        // The bins themselves, for counts that leave none to three values after the fours.
        for count in [0, 1, 3, 6, 5003] {
            var direct = [Int](repeating: 0, count: 1025)
            for v in values.prefix(count) { direct[Int(min(1024, max(0, v)))] += 1 }
            #expect(EdgeMap.histogram(Array(values.prefix(count))) == direct)
        }
        // An edge map's magnitude percentiles come from its one histogram.
        let edges = EdgeMap(DetectionKernelTests.cardPicture(203, 150, seed: 92, turn: 0.2))
        for fraction in [0.5, 0.75, 0.9] {
            #expect(edges.magnitudePercentile(fraction) == EdgeMap.percentile(edges.magnitude, fraction))
        }
    }

    /// Brightness and the opponent colours, with AVX2 and one pixel at a time, are the definition's.
    @Test func opponentChannelsEqualTheDefinition() {
        var g = SeededGenerator(state: 77)
        let n = 1003
        let rgb = (0..<(3 * n)).map { _ in UInt8.random(in: 0...255, using: &g) }
        var luma = [Float](repeating: 0, count: n), rg = luma, yb = luma
        for i in 0..<n {
            let r = Float(rgb[3 * i]), gr = Float(rgb[3 * i + 1]), b = Float(rgb[3 * i + 2])
            luma[i] = 0.299 * r + 0.587 * gr + 0.114 * b
            rg[i] = 0.5 * (r - gr)
            yb[i] = 0.5 * (0.5 * (r + gr) - b)
        }
        for vector: Int32 in [1, 0] {
            var l = [Float](repeating: -1, count: n), a = l, b = l
            _ = cs_opponent_channels(rgb, n, &l, &a, &b, vector)
            #expect(l.map(\.bitPattern) == luma.map(\.bitPattern))
            #expect(a.map(\.bitPattern) == rg.map(\.bitPattern))
            #expect(b.map(\.bitPattern) == yb.map(\.bitPattern))
        }
    }
}

/// The definition of a filled area: every 0 pixel flooded from the border (4-way) is outside,
/// the rest (the mask and its holes) is filled.
extension DetectionKernelTests {
    /// Sets every 0 pixel not connected (4-way) to the border.
    static func fillHoles(_ mask: [UInt8], w: Int, h: Int) -> [UInt8] {
        var out = [UInt8](repeating: 1, count: w * h)  // 1 until reached from the border through 0s
        var stack = [Int32](repeating: 0, count: w * h)  // each pixel is pushed at most once
        mask.withUnsafeBufferPointer { mb in
            out.withUnsafeMutableBufferPointer { ob in
                stack.withUnsafeMutableBufferPointer { sb in
                    guard let m = mb.baseAddress, let o = ob.baseAddress, let st = sb.baseAddress else { return }
                    var top = 0
                    @inline(__always) func push(_ i: Int) {
                        if m[i] == 0 && o[i] != 0 { o[i] = 0; st[top] = Int32(i); top += 1 }
                    }
                    for x in 0..<w { push(x); push((h - 1) * w + x) }
                    for y in 0..<h { push(y * w); push(y * w + w - 1) }
                    while top > 0 {
                        top -= 1
                        let i = Int(st[top])
                        let x = i % w
                        if x > 0 { push(i - 1) }
                        if x < w - 1 { push(i + 1) }
                        if i >= w { push(i - w) }
                        if i + w < w * h { push(i + w) }
                    }
                }
            }
        }
        return out
    }
}

/// RegionCandidates' planes, masks and quantiles in CDetectionKernels, with AVX2 and one value at a time,
/// against their first Swift forms.
@Suite struct RegionKernelTests {
    static func definitionHalved(_ a: [Float], width W: Int, height H: Int, maximum: Bool) -> [Float] {
        let w = W / 2, h = H / 2
        var out = [Float](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let i = 2 * y * W + 2 * x
                let v0 = a[i], v1 = a[i + 1], v2 = a[i + W], v3 = a[i + W + 1]
                out[y * w + x] = maximum ? max(max(v0, v1), max(v2, v3)) : (v0 + v1 + v2 + v3) * 0.25
            }
        }
        return out
    }

    static func definitionQuantiles(_ values: [Float], _ qs: [Double]) -> [Float] {
        guard let lo = values.min(), let hi = values.max(), hi > lo else { return qs.map { _ in values.first ?? 0 } }
        let scale = Float(1023) / (hi - lo)
        var hist = [Int](repeating: 0, count: 1024)
        for x in values { hist[Int((x - lo) * scale)] += 1 }
        return qs.map { q in
            let target = Int(Double(values.count) * q)
            var acc = 0
            for (i, c) in hist.enumerated() {
                acc += c
                if acc > target { return lo + Float(i) / scale }
            }
            return hi
        }
    }

    // Odd sizes (a column and a row left over), widths not a multiple of eight.
    @Test(arguments: [(67, 41, UInt64(1)), (16, 16, 2), (3, 5, 3), (203, 150, 4)])
    func halvedAndThresholdsAreTheDefinitions(width: Int, height: Int, seed: UInt64) throws {
        var g = SeededGenerator(state: seed)
        let plane = (0..<(width * height)).map { _ in Float.random(in: -20...300, using: &g) }
        let edges = EdgeMap(PixelImage(width: width, height: height, channels: 1, pixels: [UInt8](repeating: 0, count: width * height)))
        for maximum in [false, true] {
            let expected = Self.definitionHalved(plane, width: width, height: height, maximum: maximum).map(\.bitPattern)
            for vector in [true, false] {
                #expect(RegionCandidates.halved(plane, edges: edges, maximum: maximum, vector: vector).map(\.bitPattern) == expected)
            }
        }
        for t in [Float(-30), 0, plane[plane.count / 2], 150.5, 400] {
            for vector in [true, false] {
                #expect(RegionCandidates.threshold(plane, above: t, vector: vector) == plane.map { $0 > t ? 1 : 0 })
                #expect(RegionCandidates.threshold(plane, below: t, vector: vector) == plane.map { $0 < t ? 1 : 0 })
            }
        }
    }

    /// Square windows as defined: any (dilate) or all (erode) of the clamped (2r + 1) x (2r + 1)
    /// neighbourhood set; the 3 x 3 one (`window3`, regions and the judge) and the wider ones (the
    /// text region's closing and clustering), edges clamped even where the window is wider than
    /// the plane.
    @Test(arguments: [(1, 2, 2, UInt64(1)), (1, 3, 5, 2), (1, 67, 41, 3), (1, 203, 150, 4), (1, 40, 2, 5),
                      (2, 30, 20, 6), (5, 41, 17, 7), (19, 64, 48, 8), (3, 2, 9, 9), (4, 9, 2, 10)])
    func windowsAreTheDefinition(radius r: Int, width w: Int, height h: Int, seed: UInt64) {
        var g = SeededGenerator(state: seed + 60)
        // From sparse to dense masks.
        for density in [0.02, 0.1, 0.3, 0.5, 0.9, 0.95] {
            let mask = (0..<(w * h)).map { _ in UInt8(Double.random(in: 0..<1, using: &g) < density ? 1 : 0) }
            for any in [true, false] {
                var expected = [UInt8](repeating: 0, count: w * h)
                for y in 0..<h {
                    for x in 0..<w {
                        var count = 0
                        for dy in -r...r {
                            for dx in -r...r { count += Int(mask[min(h - 1, max(0, y + dy)) * w + min(w - 1, max(0, x + dx))]) }
                        }
                        expected[y * w + x] = any ? (count > 0 ? 1 : 0) : (count == (2 * r + 1) * (2 * r + 1) ? 1 : 0)
                    }
                }
                #expect(Morphology.window(mask, w: w, h: h, r: r, any: any) == expected)
                if r == 1 { #expect(Morphology.window3(mask, w: w, h: h, any: any) == expected) }
            }
        }
    }

    /// The colour masks as first written: the border pixels found by testing every pixel.
    @Test(arguments: [(320, 240, UInt64(1)), (3, 9, 2), (4, 4, 3), (97, 5, 4)])
    func colourMasksAreTheDefinition(width w: Int, height h: Int, seed: UInt64) {
        var g = SeededGenerator(state: seed + 80)
        let channels = (0..<3).map { c in (0..<(w * h)).map { _ in Float.random(in: c == 0 ? 0...255 : -60...60, using: &g) } }
        let margin = max(2, min(w, h) / 40)
        var border: [Int] = []
        for y in 0..<h {
            for x in 0..<w where x < margin || x >= w - margin || y < margin || y >= h - margin { border.append(y * w + x) }
        }
        let background = (0..<3).map { c in RegionCandidates.quantile(border.map { channels[c][$0] }, 0.5) }
        var distance = [Float](repeating: 0, count: w * h)
        for i in 0..<(w * h) {
            let d0 = channels[0][i] - background[0], d1 = channels[1][i] - background[1]
            let d2 = channels[2][i] - background[2]
            distance[i] = (d0 * d0 + 2 * d1 * d1 + 2 * d2 * d2).squareRoot()
        }
        let p95 = RegionCandidates.quantile(border.map { distance[$0] }, 0.95)
        let expected = [p95 + 8, p95 + 25].map { t in distance.map { $0 > t ? UInt8(1) : 0 } }
        #expect(RegionCandidates.colourMasks(channels, w: w, h: h) == expected)
    }

    @Test(arguments: [0, 1, 2, 5, 1000, 76_801])
    func quantilesAreTheDefinitions(count: Int) {
        var g = SeededGenerator(state: UInt64(count) + 5)
        let qs = [0.0, 0.15, 0.3, 0.5, 0.7, 0.85, 0.93, 0.999]
        // Spread values, values in a few levels (ties), and all the same.
        let spread = (0..<count).map { _ in Float.random(in: -3...250, using: &g) }
        let levels = (0..<count).map { _ in Float(Int.random(in: 0...4, using: &g)) * 17.25 }
        for values in [spread, levels, [Float](repeating: 9, count: count)] {
            for vector in [true, false] {
                #expect(RegionCandidates.quantiles(values, qs, vector: vector).map(\.bitPattern)
                        == Self.definitionQuantiles(values, qs).map(\.bitPattern))
            }
        }
    }
}
