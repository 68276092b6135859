import CDetectionKernels
import ImageIngest

/// Card outlines from regions: the photo is cut into regions several ways (by colour distance
/// from the background at the border, by brightness levels in both directions, and by the areas
/// that edges enclose), and every region that fills most of its own quadrilateral is a candidate.
///
/// Each way fails somewhere (a white card on white paper has no colour step, a dark card on a dark
/// desk no brightness step, a busy desk breaks edge regions), so all are tried and the hypotheses
/// are judged afterwards on the same terms.
enum RegionCandidates {
    /// Works on a half-size copy of the preview (a region's outline is refined later anyway);
    /// corners are returned in preview pixels.
    static func find(in edges: EdgeMap) -> [[Point]] {
        let w = edges.width / 2, h = edges.height / 2
        guard w >= 16, h >= 16 else { return [] }
        let channels = edges.channels.map { halved($0, edges: edges) }
        let magnitude = halved(edges.magnitude, edges: edges, maximum: true)
        let luma = channels[0]
        var masks = colourMasks(channels, w: w, h: h)
        // Brightness levels, both ways.
        for t in quantiles(luma, [0.15, 0.30, 0.50, 0.70, 0.85]) {
            masks.append(threshold(luma, above: t))
            masks.append(threshold(luma, below: t))
        }
        masks += smoothAreaMasks(luma, w: w, h: h)
        // Areas enclosed by edges.
        for t in quantiles(magnitude, [0.70, 0.85, 0.93]) {
            let edge = threshold(magnitude, above: t)
            masks.append(Morphology.dilate(edge, w: w, h: h, radius: 1).map { 1 - $0 })
        }
        var quads: [[Point]] = []
        for mask in masks {
            let opened = Morphology.open(mask, w: w, h: h, radius: 1)
            quads += quadsOfComponents(opened, w: w, h: h).map { $0.map { Point($0.x * 2, $0.y * 2) } }
        }
        return quads
    }

    /// A plane of the edge map at half its size: each value the mean (or the maximum) of a 2 x 2
    /// block (`cs_halve`).
    static func halved(_ a: [Float], edges: EdgeMap, maximum: Bool = false, vector: Bool = true) -> [Float] {
        let w = edges.width / 2, h = edges.height / 2
        return [Float](unsafeUninitializedCapacity: w * h) { out, initialized in
            _ = cs_halve(a, Int32(edges.width), Int32(edges.height), out.baseAddress, maximum ? 1 : 0, vector ? 1 : 0)
            initialized = w * h
        }
    }

    /// What differs in colour from the border's median colour, at two thresholds above the
    /// border's own spread.
    static func colourMasks(_ channels: [[Float]], w: Int, h: Int) -> [[UInt8]] {
        let margin = max(2, min(w, h) / 40)
        var border: [Int] = []
        border.reserveCapacity(2 * margin * (w + h))
        for y in 0..<h {
            if y < margin || y >= h - margin {
                border.append(contentsOf: (y * w)..<(y * w + w))
            } else {
                border.append(contentsOf: (y * w)..<(y * w + min(margin, w)))
                border.append(contentsOf: (y * w + max(margin, w - margin))..<(y * w + w))
            }
        }
        let background = (0..<3).map { c in quantile(border.map { channels[c][$0] }, 0.5) }
        let (b0, b1, b2) = (background[0], background[1], background[2])
        let distance = [Float](unsafeUninitializedCapacity: w * h) { distance, initialized in
            channels[0].withUnsafeBufferPointer { c0 in channels[1].withUnsafeBufferPointer { c1 in
                channels[2].withUnsafeBufferPointer { c2 in
                    for i in 0..<(w * h) {
                        let d0 = c0[i] - b0, d1 = c1[i] - b1
                        let d2 = c2[i] - b2
                        distance[i] = (d0 * d0 + 2 * d1 * d1 + 2 * d2 * d2).squareRoot()
                    }
                }
            } }
            initialized = w * h
        }
        let p95 = quantile(border.map { distance[$0] }, 0.95)
        return [p95 + 8, p95 + 25].map { threshold(distance, above: $0) }
    }

    /// Smooth areas: a card's paper is plain where a desk, carpet or fabric has grain, so a
    /// card of the desk's own colour still stands out by its lack of texture.
    static func smoothAreaMasks(_ luma: [Float], w: Int, h: Int) -> [[UInt8]] {
        let blurred = EdgeMap.smooth(luma, w: w, h: h, passes: 1)
        var grain = [Float](repeating: 0, count: w * h)
        for i in 0..<(w * h) { grain[i] = abs(luma[i] - blurred[i]) }
        grain = EdgeMap.smooth(grain, w: w, h: h, passes: 2)
        return quantiles(grain, [0.3, 0.5]).map { threshold(grain, below: $0) }
    }

    static func threshold(_ a: [Float], above t: Float, vector: Bool = true) -> [UInt8] { mask(a, t, above: true, vector: vector) }
    static func threshold(_ a: [Float], below t: Float, vector: Bool = true) -> [UInt8] { mask(a, t, above: false, vector: vector) }

    /// 1 where the value is above (below) `t` (`cs_threshold`).
    static func mask(_ a: [Float], _ t: Float, above: Bool, vector: Bool) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: a.count) { out, initialized in
            _ = cs_threshold(a, a.count, t, above ? 1 : 0, out.baseAddress, vector ? 1 : 0)
            initialized = a.count
        }
    }

    /// The value below which `q` of the values lie, from a 1024-bin histogram over their range.
    static func quantile(_ values: [Float], _ q: Double) -> Float { quantiles(values, [q])[0] }

    /// `quantile` for several fractions from one histogram.
    static func quantiles(_ values: [Float], _ qs: [Double], vector: Bool = true) -> [Float] {
        guard !values.isEmpty else { return qs.map { _ in 0 } }
        var lo: Float = 0, hi: Float = 0
        cs_range(values, values.count, &lo, &hi, vector ? 1 : 0)
        guard hi > lo else { return qs.map { _ in values[0] } }
        let bins = 1024
        let scale = Float(bins - 1) / (hi - lo)
        var hist = [Int](repeating: 0, count: bins)
        cs_scaled_histogram(values, values.count, lo, scale, &hist, bins)
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

    /// The quadrilaterals of the components of `mask` that are large enough and nearly fill them.
    static func quadsOfComponents(_ mask: [UInt8], w: Int, h: Int) -> [[Point]] {
        let total = w * h
        let found = RunComponents(mask, w: w, h: h)
        let chosen = found.components.indices.filter { found.components[$0].area >= total / 250 && found.components[$0].area <= total * 97 / 100 }
        let runsOf = found.runIndices(of: chosen)
        var out: [[Point]] = []
        for k in chosen {
            let c = found.components[k]
            // Each row's first and last pixel, from the component's runs (in raster order). Filling
            // the holes would not move them: what lies outside them in a row reaches the border.
            var rows: [QuadGeometry.Row] = []
            var spans = 0, rowY = -1, first = 0, last = 0
            func endRow() {
                guard rowY >= 0 else { return }
                rows.append(QuadGeometry.Row(y: rowY, x0: first, x1: last + 1))
                spans += last - first + 1
            }
            for r in runsOf[k] {
                let run = found.runs[Int(r)]
                if Int(run.y) != rowY {
                    endRow()
                    (rowY, first, last) = (Int(run.y), Int(run.x0), Int(run.x1) - 1)
                } else {
                    (first, last) = (min(first, Int(run.x0)), max(last, Int(run.x1) - 1))
                }
            }
            endRow()
            let hull = QuadGeometry.convexHull(ofRows: rows)
            guard hull.count >= 4, let quad = QuadGeometry.reduceToQuadrilateral(hull) else { continue }
            let quadArea = QuadGeometry.area(quad)
            // The filled area is at most the rows' spans: only a component that could fill its
            // quadrilateral has its holes filled and counted.
            guard quadArea > 0, Double(spans) / quadArea >= 0.85,
                  Double(filledArea(found, runs: runsOf[k], of: c)) / quadArea >= 0.85 else { continue }
            out.append(quad)
        }
        return out
    }

    /// The component's pixel count with its holes filled (text inside a card leaves holes): its
    /// box less the gaps around it that reach the box's border. The gaps are found run by run
    /// (4-way, as a flood fill from the box's border would reach them), not pixel by pixel.
    static func filledArea(_ found: RunComponents, runs: [Int32], of c: Components.Component) -> Int {
        let bw = c.maxX - c.minX + 1, bh = c.maxY - c.minY + 1
        var gaps = [UInt8](repeating: 1, count: bw * bh)
        gaps.withUnsafeMutableBufferPointer { g in
            for r in runs {
                let run = found.runs[Int(r)]
                let start = (Int(run.y) - c.minY) * bw + Int(run.x0) - c.minX
                (g.baseAddress! + start).update(repeating: 0, count: Int(run.x1 - run.x0))
            }
        }
        var outside = 0
        for gap in RunComponents(gaps, w: bw, h: bh).components
        where gap.minX == 0 || gap.minY == 0 || gap.maxX == bw - 1 || gap.maxY == bh - 1 {
            outside += gap.area
        }
        return bw * bh - outside
    }
}

/// Binary morphology on 0/1 masks.
enum Morphology {
    static func dilate(_ m: [UInt8], w: Int, h: Int, radius: Int) -> [UInt8] { window(m, w: w, h: h, r: radius, any: true) }
    static func erode(_ m: [UInt8], w: Int, h: Int, radius: Int) -> [UInt8] { window(m, w: w, h: h, r: radius, any: false) }
    static func open(_ m: [UInt8], w: Int, h: Int, radius: Int) -> [UInt8] {
        dilate(erode(m, w: w, h: h, radius: radius), w: w, h: h, radius: radius)
    }
    static func close(_ m: [UInt8], w: Int, h: Int, radius: Int) -> [UInt8] {
        erode(dilate(m, w: w, h: h, radius: radius), w: w, h: h, radius: radius)
    }

    /// Square window of side 2r+1, separable, by counting set pixels (edges clamped).
    static func window(_ mask: [UInt8], w: Int, h: Int, r: Int, any: Bool) -> [UInt8] {
        if r == 1 && w >= 2 && h >= 2 { return window3(mask, w: w, h: h, any: any) }
        let full = 2 * r + 1
        return separable(mask, w: w, h: h) { m, t, o in
            @inline(__always) func decide(_ count: Int) -> UInt8 { any ? (count > 0 ? 1 : 0) : (count == full ? 1 : 0) }
            for y in 0..<h {
                let row = y * w
                var count = 0
                for dx in -r...r { count += Int(m[row + min(w - 1, max(0, dx))]) }
                for x in 0..<w {
                    t[row + x] = decide(count)
                    count += Int(m[row + min(w - 1, x + r + 1)]) - Int(m[row + max(0, x - r)])
                }
            }
            // Down the columns all at once, a row at a time (a column at a time strides
            // through memory): each column's count of set pixels in its window.
            var counts = [Int32](repeating: 0, count: w)
            counts.withUnsafeMutableBufferPointer { counts in
                for dy in -r...r {
                    let row = t + min(h - 1, max(0, dy)) * w
                    for x in 0..<w { counts[x] += Int32(row[x]) }
                }
                for y in 0..<h {
                    let out = o + y * w, entering = t + min(h - 1, y + r + 1) * w, leaving = t + max(0, y - r) * w
                    for x in 0..<w {
                        out[x] = decide(Int(counts[x]))
                        counts[x] += Int32(entering[x]) - Int32(leaving[x])
                    }
                }
            }
        }
    }

    /// `window` for a 3 x 3 square: OR (dilate) or AND (erode) of each pixel's neighbours, rows at
    /// a time so the compiler can vectorise it.
    static func window3(_ mask: [UInt8], w: Int, h: Int, any: Bool) -> [UInt8] {
        separable(mask, w: w, h: h) { m, t, o in
            for y in 0..<h {
                let r = m + y * w, q = t + y * w
                if any {
                    q[0] = r[0] | r[1]
                    for x in 1..<(w - 1) { q[x] = r[x - 1] | r[x] | r[x + 1] }
                    q[w - 1] = r[w - 2] | r[w - 1]
                } else {
                    q[0] = r[0] & r[1]
                    for x in 1..<(w - 1) { q[x] = r[x - 1] & r[x] & r[x + 1] }
                    q[w - 1] = r[w - 2] & r[w - 1]
                }
            }
            for y in 0..<h {
                let a = t + max(0, y - 1) * w, b = t + y * w, c = t + min(h - 1, y + 1) * w, q = o + y * w
                if any {
                    for x in 0..<w { q[x] = a[x] | b[x] | c[x] }
                } else {
                    for x in 0..<w { q[x] = a[x] & b[x] & c[x] }
                }
            }
        }
    }

    /// A mask filtered in two passes: `body` gets the mask, a scratch plane for the pass along the
    /// rows and the plane it writes the pass down the columns into, which is returned.
    @inline(__always)
    static func separable(_ mask: [UInt8], w: Int, h: Int,
                          _ body: (UnsafePointer<UInt8>, UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>) -> Void)
        -> [UInt8] {
        var scratch = [UInt8](repeating: 0, count: w * h)
        var out = [UInt8](repeating: 0, count: w * h)
        mask.withUnsafeBufferPointer { mb in
            scratch.withUnsafeMutableBufferPointer { tb in
                out.withUnsafeMutableBufferPointer { ob in
                    guard let m = mb.baseAddress, let t = tb.baseAddress, let o = ob.baseAddress else { return }
                    body(m, t, o)
                }
            }
        }
        return out
    }
}

/// Connected components (4-way) with their bounding boxes.
enum Components {
    struct Component {
        var label: Int32
        var area = 0
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
    }

    /// The label of each pixel (0 off the mask, components from 1 in the order of their first
    /// pixel in raster order) and the components.
    static func label(_ mask: [UInt8], w: Int, h: Int) -> ([Int32], [Component]) {
        let found = RunComponents(mask, w: w, h: h)
        var labels = [Int32](repeating: 0, count: w * h)
        for (i, run) in found.runs.enumerated() {
            let label = found.componentOfRun[i] + 1, row = Int(run.y) * w
            for x in Int(run.x0)..<Int(run.x1) { labels[row + x] = label }
        }
        return (labels, found.components)
    }
}

/// Connected components (4-way) of a mask, found run by run: the runs of set pixels of each row
/// are joined to the runs they touch in the row above (union-find), so the work goes with the
/// number of runs, not of pixels. Components come in the order of their first pixel in raster
/// order, labelled from 1 (`cs_run_components`).
struct RunComponents {
    /// A run of set pixels in row y: x0 ..< x1.
    typealias Run = cs_run

    private(set) var runs: [Run] = []
    /// Per run, the index of its component in `components`.
    private(set) var componentOfRun: [Int32] = []
    private(set) var components: [Components.Component] = []

    init(_ mask: [UInt8], w: Int, h: Int) {
        precondition(mask.count >= w * h, "RunComponents: the mask is smaller than w x h")
        let count = cs_count_runs(mask, Int32(w), Int32(h))
        guard count > 0 else { return }
        withUnsafeTemporaryAllocation(of: cs_component.self, capacity: count) { parts in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: count) { parent in
                var found = 0
                var componentOfRun: [Int32] = []
                let runs = [Run](unsafeUninitializedCapacity: count) { runs, madeRuns in
                    componentOfRun = [Int32](unsafeUninitializedCapacity: count) { componentOfRun, madeComponents in
                        found = cs_run_components(mask, Int32(w), Int32(h), runs.baseAddress, componentOfRun.baseAddress,
                                                  parent.baseAddress, parts.baseAddress)
                        madeComponents = count
                    }
                    madeRuns = count
                }
                self.runs = runs
                self.componentOfRun = componentOfRun
                components = (0..<found).map { k in
                    let c = parts[k]
                    return Components.Component(label: Int32(k + 1), area: c.area, minX: Int(c.minX), minY: Int(c.minY),
                                                maxX: Int(c.maxX), maxY: Int(c.maxY))
                }
            }
        }
    }

    /// The runs of each of `chosen` components, by component index (empty for the others).
    func runIndices(of chosen: [Int]) -> [[Int32]] {
        var out = [[Int32]](repeating: [], count: components.count)
        guard !chosen.isEmpty else { return out }
        var wanted = [Bool](repeating: false, count: components.count)
        for k in chosen { wanted[k] = true }
        for (i, k) in componentOfRun.enumerated() where wanted[Int(k)] { out[Int(k)].append(Int32(i)) }
        return out
    }
}
