import ImageIngest

/// Makes every part of a card dark text on white paper before OCR: light text on a dark card or
/// on a coloured band is inverted, shadows, glare and uneven light are evened out, and sensor
/// noise is kept from turning into specks.
///
/// How: a light 3 x 3 smoothing against noise; then, on a grid of 4 px cells, a light envelope
/// (grey closing over about 50 px: the paper level under dark text, wider than a bold name's
/// strokes), a dark envelope (grey opening: the level under light text), the ink levels, and a
/// robust background level (the median of cell means over about 70 px).
/// Where the background lies nearer the light envelope the text is dark, elsewhere light. Each
/// pixel is stretched between the two envelopes, with a floor on the stretch so that a flat
/// area (no text, only noise or a gentle shadow edge) stays white instead of being amplified.
public enum CardNormalizer {
    /// Grid cell in pixels.
    static let cell = 4
    /// Radius, in cells, of the closing and opening: wider than any stroke of card text at OCR size.
    static let envelopeRadius = 6
    /// Radius, in cells, of the median that estimates the background level.
    static let medianRadius = 8
    /// Smallest light-dark span a pixel is stretched over: below it there is no text, only noise.
    static let minimumSpan: Float = 70

    public static func normalize(_ image: PixelImage) -> PixelImage {
        let source = image.grayscale()
        let w = source.width, h = source.height
        guard w >= 4 * cell, h >= 4 * cell else { return source }
        let g = smooth3x3(source)
        let levels = Levels(g, width: w, height: h)
        return PixelImage(width: w, height: h, channels: 1, pixels: stretch(g, width: w, height: h, levels: levels))
    }

    /// Milliseconds per step of `normalize` (for the benchmark).
    public static func profile(_ image: PixelImage) -> [(String, Double)] {
        let clock = ContinuousClock()
        var out: [(String, Double)] = []
        var t = clock.now
        func lap(_ name: String) { out.append((name, (clock.now - t).milliseconds)); t = clock.now }
        let source = image.grayscale(); lap("gray")
        let w = source.width, h = source.height
        let g = smooth3x3(source); lap("smooth")
        let gw = (w + cell - 1) / cell, gh = (h + cell - 1) / cell
        let stats = Levels.cellStatistics(g, width: w, height: h, gw: gw, gh: gh); lap("cells")
        _ = GridFilter.median(stats.mean, w: gw, h: gh, r: medianRadius); lap("median")
        let levels = Levels(g, width: w, height: h); lap("levels-all")
        _ = stretch(g, width: w, height: h, levels: levels); lap("stretch")
        return out
    }

    /// The levels on the grid of cells: both envelopes, both ink levels and the background.
    struct Levels {
        let gw: Int, gh: Int
        var light: [Float], dark: [Float], lightInk: [Float], darkInk: [Float], background: [Float]

        init(_ g: [UInt8], width w: Int, height h: Int) {
            gw = (w + cell - 1) / cell
            gh = (h + cell - 1) / cell
            let (cellMin, cellMax, cellMean) = Self.cellStatistics(g, width: w, height: h, gw: gw, gh: gh)
            let r = envelopeRadius
            let localMax = GridFilter.dilate(cellMax, w: gw, h: gh, r: r)
            let localMin = GridFilter.erode(cellMin, w: gw, h: gh, r: r)
            light = GridFilter.erode(localMax, w: gw, h: gh, r: r)
            dark = GridFilter.dilate(localMin, w: gw, h: gh, r: r)
            // Ink levels: the darkest (lightest) values over twice the envelope's reach, lightly smoothed.
            lightInk = GridFilter.boxBlur(GridFilter.erode(localMin, w: gw, h: gh, r: r), w: gw, h: gh, r: 2)
            darkInk = GridFilter.boxBlur(GridFilter.dilate(localMax, w: gw, h: gh, r: r), w: gw, h: gh, r: 2)
            background = GridFilter.median(cellMean, w: gw, h: gh, r: medianRadius)
            for _ in 0..<2 {
                light = GridFilter.boxBlur(light, w: gw, h: gh, r: r)
                dark = GridFilter.boxBlur(dark, w: gw, h: gh, r: r)
                background = GridFilter.boxBlur(background, w: gw, h: gh, r: 1)
            }
        }

        /// Each cell's darkest, lightest and mean value.
        static func cellStatistics(_ g: [UInt8], width w: Int, height h: Int, gw: Int, gh: Int)
            -> (min: [Float], max: [Float], mean: [Float]) {
            var cellMin = [Float](repeating: 255, count: gw * gh)
            var cellMax = [Float](repeating: 0, count: gw * gh)
            var cellSum = [Float](repeating: 0, count: gw * gh)
            var cellCount = [Float](repeating: 0, count: gw * gh)
            g.withUnsafeBufferPointer { px in
                cellMin.withUnsafeMutableBufferPointer { mins in cellMax.withUnsafeMutableBufferPointer { maxes in
                    cellSum.withUnsafeMutableBufferPointer { sums in cellCount.withUnsafeMutableBufferPointer { counts in
                        for y in 0..<h {
                            let row = (y / cell) * gw, line = y * w
                            // A row's pixels cell by cell, each cell's running values held in registers.
                            for cx in 0..<gw {
                                let c = row + cx
                                var lo = mins[c], hi = maxes[c], sum = sums[c], count = counts[c]
                                for x in (cx * cell)..<min(w, cx * cell + cell) {
                                    let v = Float(px[line + x])
                                    if v < lo { lo = v }
                                    if v > hi { hi = v }
                                    sum += v
                                    count += 1
                                }
                                mins[c] = lo; maxes[c] = hi; sums[c] = sum; counts[c] = count
                            }
                        }
                    } }
                } }
            }
            return (cellMin, cellMax, zip(cellSum, cellCount).map { $0 / max($1, 1) })
        }
    }

    /// Where a pixel coordinate falls between grid cells: the two cells and the weight of the
    /// second (the same arithmetic for every pixel of a row or column, so computed once per line).
    struct GridStep {
        let c0: Int, c1: Int, a: Float
        init(_ p: Int, cells: Int) {
            let f = max(0, min(Float(cells - 1), (Float(p) + 0.5) / Float(cell) - 0.5))
            c0 = Int(f)
            c1 = min(cells - 1, c0 + 1)
            a = f - Float(c0)
        }
    }

    /// Each pixel stretched between the envelopes interpolated at it, so that ink is dark and
    /// paper white whichever of them the text is.
    /// `vectorized` false stretches one pixel at a time (the definition, for the tests); true,
    /// eight at a time wherever four pixels share one pair of grid columns and the next four the
    /// next pair (the rule between the grid's outer centres), with each lane's arithmetic the
    /// one-pixel stretch's, so the bytes are the same.
    static func stretch(_ g: [UInt8], width w: Int, height h: Int, levels: Levels, vectorized: Bool = true) -> [UInt8] {
        let gw = levels.gw, gh = levels.gh
        // The five grids one after another in one buffer (light, dark, background, light ink, dark
        // ink), read without bounds checks.
        let grids = levels.light + levels.dark + levels.background + levels.lightInk + levels.darkInk
        let columns = (0..<w).map { GridStep($0, cells: gw) }
        let fractions = columns.map(\.a)
        return [UInt8](unsafeUninitializedCapacity: w * h) { dst, initialized in
            g.withUnsafeBufferPointer { px in grids.withUnsafeBufferPointer { all in
                columns.withUnsafeBufferPointer { columns in fractions.withUnsafeBufferPointer { fractions in
                    guard let base = all.baseAddress, let px = px.baseAddress, let dst = dst.baseAddress,
                          let fraction = fractions.baseAddress else { return }
                    for y in 0..<h {
                        let row = GridStep(y, cells: gh)
                        let line = (base: base, r0: row.c0 * gw, r1: row.c1 * gw, ay: row.a, n: gw * gh)
                        var x = 0
                        while x < w {
                            if vectorized, x + 8 <= w, let pair = Self.columnPairs(columns, at: x) {
                                stretch8(px + y * w + x, into: dst + y * w + x, line: line, columns: pair, fractions: fraction + x)
                                x += 8
                            } else {
                                dst[y * w + x] = stretch1(Float(px[y * w + x]), line: line, column: columns[x])
                                x += 1
                            }
                        }
                    }
                } }
            } }
            initialized = w * h
        }
    }

    /// One pixel stretched: the definition.
    @inline(__always)
    static func stretch1(_ v: Float, line: (base: UnsafePointer<Float>, r0: Int, r1: Int, ay: Float, n: Int),
                         column: GridStep) -> UInt8 {
        let ax = column.a, ay = line.ay
        let i00 = line.r0 + column.c0, i10 = line.r0 + column.c1, i01 = line.r1 + column.c0, i11 = line.r1 + column.c1
        let w00 = (1 - ax) * (1 - ay), w10 = ax * (1 - ay), w01 = (1 - ax) * ay, w11 = ax * ay
        @inline(__always) func at(_ grid: Int) -> Float {
            let g = line.base + grid * line.n
            return g[i00] * w00 + g[i10] * w10 + g[i01] * w01 + g[i11] * w11
        }
        let l = at(0), d = at(1), m = at(2)
        // Light paper, dark ink: distance below the paper; dark background: above it.
        let ink: Float, span: Float
        if (l - m) <= (m - d) {
            ink = l - v; span = max(l - at(3), minimumSpan)
        } else {
            ink = v - d; span = max(at(4) - d, minimumSpan)
        }
        return UInt8(max(0, min(255, 255 - ink * 255 / span)))
    }

    /// The grid columns of pixels x ... x + 7 when the first four share one pair and the last four
    /// another; nil otherwise.
    @inline(__always)
    static func columnPairs(_ columns: UnsafeBufferPointer<GridStep>, at x: Int) -> (Int, Int, Int, Int)? {
        let a = columns[x], b = columns[x + 4]
        for k in 1..<4 {
            let p = columns[x + k], q = columns[x + 4 + k]
            guard p.c0 == a.c0, p.c1 == a.c1, q.c0 == b.c0, q.c1 == b.c1 else { return nil }
        }
        return (a.c0, a.c1, b.c0, b.c1)
    }

    /// `stretch1` for eight pixels whose grid columns `columnPairs` gave, lane by lane.
    @inline(__always)
    static func stretch8(_ px: UnsafePointer<UInt8>, into dst: UnsafeMutablePointer<UInt8>,
                         line: (base: UnsafePointer<Float>, r0: Int, r1: Int, ay: Float, n: Int),
                         columns c: (Int, Int, Int, Int), fractions: UnsafePointer<Float>) {
        let ax = UnsafeRawPointer(fractions).loadUnaligned(as: SIMD8<Float>.self), ay = line.ay
        let w00 = (1 - ax) * (1 - ay), w10 = ax * (1 - ay), w01 = (1 - ax) * ay, w11 = ax * ay
        @inline(__always) func halves(_ a: Float, _ b: Float) -> SIMD8<Float> { SIMD8(a, a, a, a, b, b, b, b) }
        @inline(__always) func at(_ grid: Int) -> SIMD8<Float> {
            let r0 = line.base + grid * line.n + line.r0, r1 = line.base + grid * line.n + line.r1
            return halves(r0[c.0], r0[c.2]) * w00 + halves(r0[c.1], r0[c.3]) * w10
                + halves(r1[c.0], r1[c.2]) * w01 + halves(r1[c.1], r1[c.3]) * w11
        }
        let l = at(0), d = at(1), m = at(2), lightInk = at(3), darkInk = at(4)
        let v = SIMD8<Float>(Float(px[0]), Float(px[1]), Float(px[2]), Float(px[3]),
                             Float(px[4]), Float(px[5]), Float(px[6]), Float(px[7]))
        let darkText = (l - m) .<= (m - d)
        // Spans are at least minimumSpan > 0 and the levels finite, so no lane is NaN (Lanes.max).
        var ink = v - d, span = Lanes.max(darkInk - d, SIMD8(repeating: minimumSpan))
        ink.replace(with: l - v, where: darkText)
        span.replace(with: Lanes.max(l - lightInk, SIMD8(repeating: minimumSpan)), where: darkText)
        let value = Lanes.max(SIMD8(repeating: 0), Lanes.min(SIMD8(repeating: 255), 255 - ink * 255 / span))
        for k in 0..<8 { dst[k] = UInt8(value[k]) }
    }

    /// A [1 2 1] x [1 2 1] / 16 smoothing (edges clamped).
    static func smooth3x3(_ image: PixelImage) -> [UInt8] {
        let w = image.width, h = image.height
        var tmp = [UInt16](repeating: 0, count: w * h)
        image.pixels.withUnsafeBufferPointer { src in
            for y in 0..<h {
                let row = y * w
                for x in 0..<w {
                    let a = src[row + max(0, x - 1)], b = src[row + x], c = src[row + min(w - 1, x + 1)]
                    tmp[row + x] = UInt16(a) + 2 * UInt16(b) + UInt16(c)
                }
            }
        }
        return [UInt8](unsafeUninitializedCapacity: w * h) { dst, initialized in
            for y in 0..<h {
                let up = max(0, y - 1) * w, row = y * w, down = min(h - 1, y + 1) * w
                for x in 0..<w {
                    dst[row + x] = UInt8((UInt32(tmp[up + x]) + 2 * UInt32(tmp[row + x]) + UInt32(tmp[down + x]) + 8) / 16)
                }
            }
            initialized = w * h
        }
    }
}

/// Filters over a small grid of Float values (cell statistics), separable, edges clamped.
enum GridFilter {
    static func dilate(_ a: [Float], w: Int, h: Int, r: Int) -> [Float] { extreme(a, w: w, h: h, r: r, max: true) }
    static func erode(_ a: [Float], w: Int, h: Int, r: Int) -> [Float] { extreme(a, w: w, h: h, r: r, max: false) }

    static func extreme(_ a: [Float], w: Int, h: Int, r: Int, max useMax: Bool) -> [Float] {
        let rows = extreme(a, lines: h, length: w, lineStride: w, step: 1, r: r, max: useMax)
        return extreme(rows, lines: w, length: h, lineStride: 1, step: w, r: r, max: useMax)
    }

    /// The maximum (or minimum) over a window of radius `r` along each line (laid out as in
    /// `boxBlur`; the window cut at the ends), in constant time per value whatever `r` (van Herk /
    /// Gil-Werman: running extremes within blocks of 2r+1, from the left and from the right).
    private static func extreme(_ a: [Float], lines: Int, length: Int, lineStride: Int, step: Int, r: Int,
                                max useMax: Bool) -> [Float] {
        useMax ? extreme(a, lines: lines, length: length, lineStride: lineStride, step: step, r: r, identity: -.infinity, pick: Swift.max)
            : extreme(a, lines: lines, length: length, lineStride: lineStride, step: step, r: r, identity: .infinity, pick: Swift.min)
    }

    @inline(__always)
    private static func extreme(_ a: [Float], lines: Int, length: Int, lineStride: Int, step: Int, r: Int,
                                identity: Float, pick: (Float, Float) -> Float) -> [Float] {
        var out = a
        let k = 2 * r + 1, n = length + 2 * r
        // One buffer for the padded line and the running extremes from the left and from the right.
        var scratch = [Float](repeating: identity, count: 3 * n)
        a.withUnsafeBufferPointer { a in out.withUnsafeMutableBufferPointer { out in scratch.withUnsafeMutableBufferPointer { scratch in
            guard let a = a.baseAddress, let out = out.baseAddress, let padded = scratch.baseAddress else { return }
            let left = padded + n, right = left + n
            for line in 0..<lines {
                let base = line * lineStride
                for i in 0..<length { padded[r + i] = a[base + i * step] }
                // Blocks of k start at 0, k, 2k, ...: the running extreme restarts at each.
                var block = 0
                for i in 0..<n {
                    left[i] = block == 0 ? padded[i] : pick(left[i - 1], padded[i])
                    block = block == k - 1 ? 0 : block + 1
                }
                right[n - 1] = padded[n - 1]
                block = (n - 2) % k
                for i in stride(from: n - 2, through: 0, by: -1) {
                    right[i] = block == k - 1 ? padded[i] : pick(right[i + 1], padded[i])
                    block = block == 0 ? k - 1 : block - 1
                }
                // The window of value i is padded[i ... i + 2r]: the right part of one block and the left part of the next.
                for i in 0..<length { out[base + i * step] = pick(right[i], left[i + 2 * r]) }
            }
        } } }
        return out
    }

    static func boxBlur(_ a: [Float], w: Int, h: Int, r: Int) -> [Float] {
        let rows = boxBlur(a, lines: h, length: w, lineStride: w, step: 1, r: r)
        return boxBlur(rows, lines: w, length: h, lineStride: 1, step: w, r: r)
    }

    /// A box mean of radius `r` along each of `lines` lines of `length` values (`step` apart,
    /// lines `lineStride` apart); the window is cut at the ends.
    ///
    /// Eight means at a time where eight windows are laid alike in memory: eight lines side by side
    /// (the column pass), or eight neighbouring values of a line whose windows are whole (the row
    /// pass). Each lane adds its window's values in the same order as the one-value loop, so the
    /// means are the same to the bit.
    private static func boxBlur(_ a: [Float], lines: Int, length: Int, lineStride: Int, step: Int, r: Int) -> [Float] {
        var out = a
        a.withUnsafeBufferPointer { a in out.withUnsafeMutableBufferPointer { out in
            guard let a = a.baseAddress, let out = out.baseAddress else { return }
            var line = 0
            if lineStride == 1 {
                while line + 8 <= lines {
                    for i in 0..<length {
                        var s = SIMD8<Float>(repeating: 0), n: Float = 0
                        for j in Swift.max(0, i - r)...Swift.min(length - 1, i + r) {
                            s += UnsafeRawPointer(a + line + j * step).loadUnaligned(as: SIMD8<Float>.self)
                            n += 1
                        }
                        UnsafeMutableRawPointer(out + line + i * step).storeBytes(of: s / n, as: SIMD8<Float>.self)
                    }
                    line += 8
                }
            }
            let whole = Float(2 * r + 1)
            for line in line..<lines {
                let base = line * lineStride
                var i = 0
                while i < length {
                    if step == 1 && i >= r && i + 7 + r < length {
                        var s = SIMD8<Float>(repeating: 0)
                        for j in (i - r)...(i + r) { s += UnsafeRawPointer(a + base + j).loadUnaligned(as: SIMD8<Float>.self) }
                        UnsafeMutableRawPointer(out + base + i).storeBytes(of: s / whole, as: SIMD8<Float>.self)
                        i += 8
                        continue
                    }
                    var s: Float = 0
                    var n: Float = 0
                    for j in Swift.max(0, i - r)...Swift.min(length - 1, i + r) { s += a[base + j * step]; n += 1 }
                    out[base + i * step] = s / n
                    i += 1
                }
            }
        } }
        return out
    }

    /// Median over a (2r+1)^2 window, by a 256-bin histogram of the rounded values. The median is
    /// followed as the window slides (the count of values below it kept up to date) instead of
    /// being searched for from 0 at every cell.
    static func median(_ a: [Float], w: Int, h: Int, r: Int) -> [Float] {
        // The rounded values column by column, so that a column of the window is contiguous.
        var columns = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h { for x in 0..<w { columns[x * h + y] = UInt8(Int(a[y * w + x].rounded()).clamped(0, 255)) } }
        var out = a
        var hist = [Int](repeating: 0, count: 256)
        columns.withUnsafeBufferPointer { column in
            hist.withUnsafeMutableBufferPointer { hist in
                for y in 0..<h {
                    for i in 0..<256 { hist[i] = 0 }
                    var count = 0, v = 0, below = 0
                    let y0 = Swift.max(0, y - r), y1 = Swift.min(h - 1, y + r)
                    // Adds (d = 1) or removes (d = -1) column x of the window's rows.
                    @inline(__always) func add(_ x: Int, _ d: Int, _ count: inout Int, _ below: inout Int, _ v: Int) {
                        let c = x * h
                        for yy in y0...y1 {
                            let b = Int(column[c + yy])
                            hist[b] += d
                            below += b < v ? d : 0
                        }
                        count += d * (y1 - y0 + 1)
                    }
                    for x in 0...Swift.min(w - 1, r) { add(x, 1, &count, &below, v) }
                    for x in 0..<w {
                        if x > 0 {
                            if x + r < w { add(x + r, 1, &count, &below, v) }
                            if x - r - 1 >= 0 { add(x - r - 1, -1, &count, &below, v) }
                        }
                        // The smallest v whose cumulative count reaches half (as a search from 0 finds it).
                        let need = (count + 1) / 2
                        while v > 0 && below >= need { v -= 1; below -= hist[v] }
                        while v < 255 && below + hist[v] < need { below += hist[v]; v += 1 }
                        out[y * w + x] = Float(v)
                    }
                }
            }
        }
        return out
    }
}

extension Int {
    func clamped(_ lo: Int, _ hi: Int) -> Int { Swift.min(hi, Swift.max(lo, self)) }
}
