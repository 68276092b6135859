import ImageIngest

/// Colour gradients of a small photo: per pixel, the gradient of whichever channel changes most
/// (brightness, red-green or yellow-blue), after a light smoothing against noise and texture.
///
/// A card's edge is a step in brightness on most desks, but a white card on white paper shows
/// mostly its shadow, and a red card on a brown desk differs more in hue than in brightness.
struct EdgeMap {
    let width: Int
    let height: Int
    /// Gradient components and magnitude per pixel (row-major).
    var gx: [Float]
    var gy: [Float]
    var magnitude: [Float]
    /// Brightness and the two opponent colour channels, smoothed (for colour comparisons).
    var channels: [[Float]]
    /// A magnitude that marks an edge clearly stronger than the photo's texture.
    var strongEdge: Float

    init(_ image: PixelImage) {
        let w = image.width, h = image.height, n = w * h
        width = w
        height = h
        channels = Self.opponentChannels(image)
        for c in channels.indices { Self.smooth(&channels[c], w: w, h: h, passes: 2) }
        gx = [Float](repeating: 0, count: n)
        gy = [Float](repeating: 0, count: n)
        magnitude = [Float](repeating: 0, count: n)
        strongEdge = 0
        // Per pixel, the Sobel gradient of the channel that changes most.
        strongestGradients(channelCount: image.channels == 3 ? 3 : 1)
        strongEdge = max(6, Self.percentile(magnitude, 0.90))
    }

    /// Brightness, red-green and yellow-blue of a colour image; brightness alone of a gray one
    /// (the colour planes zero).
    static func opponentChannels(_ image: PixelImage) -> [[Float]] {
        let n = image.width * image.height
        var luma = [Float](repeating: 0, count: n)
        var redGreen = [Float](repeating: 0, count: n)
        var yellowBlue = [Float](repeating: 0, count: n)
        image.pixels.withUnsafeBufferPointer { px in
            if image.channels == 3 {
                for i in 0..<n {
                    let r = Float(px[3 * i]), g = Float(px[3 * i + 1]), b = Float(px[3 * i + 2])
                    luma[i] = 0.299 * r + 0.587 * g + 0.114 * b
                    redGreen[i] = 0.5 * (r - g)
                    yellowBlue[i] = 0.5 * (0.5 * (r + g) - b)
                }
            } else {
                for i in 0..<n { luma[i] = Float(px[i]) }
            }
        }
        return [luma, redGreen, yellowBlue]
    }

    /// Per pixel, the Sobel gradient of the first of `channelCount` channels whose gradient is
    /// strongest (none where all are flat), all channels in one pass without branches.
    private mutating func strongestGradients(channelCount: Int) {
        let w = width, h = height
        guard w >= 3, h >= 3 else { return }
        let c0 = channels[0], c1 = channels[1], c2 = channels[2]
        c0.withUnsafeBufferPointer { b0 in c1.withUnsafeBufferPointer { b1 in c2.withUnsafeBufferPointer { b2 in
            gx.withUnsafeMutableBufferPointer { gxb in gy.withUnsafeMutableBufferPointer { gyb in
                magnitude.withUnsafeMutableBufferPointer { mb in
                    guard let s0 = b0.baseAddress, let s1 = b1.baseAddress, let s2 = b2.baseAddress,
                          let ox = gxb.baseAddress, let oy = gyb.baseAddress, let om = mb.baseAddress else { return }
                    @inline(__always) func sobel(_ s: UnsafePointer<Float>, _ i: Int) -> (Float, Float, Float) {
                        let dx = (s[i - w + 1] + 2 * s[i + 1] + s[i + w + 1]) - (s[i - w - 1] + 2 * s[i - 1] + s[i + w - 1])
                        let dy = (s[i + w - 1] + 2 * s[i + w] + s[i + w + 1]) - (s[i - w - 1] + 2 * s[i - w] + s[i - w + 1])
                        return (dx, dy, (dx * dx + dy * dy).squareRoot() / 4)
                    }
                    let vectorEnd = 1 + (w - 2) / 8 * 8
                    for y in 1..<(h - 1) {
                        for x in stride(from: 1, to: vectorEnd, by: 8) {
                            Self.strongest8(at: y * w + x, width: w, channels: (s0, s1, s2), count: channelCount, into: (ox, oy, om))
                        }
                        for x in vectorEnd..<(w - 1) {
                            let i = y * w + x
                            var (dx, dy, m) = sobel(s0, i)
                            if m <= 0 { (dx, dy, m) = (0, 0, 0) }
                            if channelCount == 3 {
                                let (dx1, dy1, m1) = sobel(s1, i)
                                let take1 = m1 > m
                                dx = take1 ? dx1 : dx; dy = take1 ? dy1 : dy; m = take1 ? m1 : m
                                let (dx2, dy2, m2) = sobel(s2, i)
                                let take2 = m2 > m
                                dx = take2 ? dx2 : dx; dy = take2 ? dy2 : dy; m = take2 ? m2 : m
                            }
                            om[i] = m
                            ox[i] = dx / 4
                            oy[i] = dy / 4
                        }
                    }
                }
            } }
        } } }
    }

    /// `strongestGradients` for the eight pixels from `i`: each lane's arithmetic and choices are
    /// the one-pixel loop's, so the values are the same to the bit.
    @inline(__always)
    private static func strongest8(at i: Int, width w: Int,
                                   channels: (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>), count: Int,
                                   into out: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>)) {
        @inline(__always) func load(_ s: UnsafePointer<Float>, _ i: Int) -> SIMD8<Float> {
            UnsafeRawPointer(s + i).loadUnaligned(as: SIMD8<Float>.self)
        }
        @inline(__always) func sobel8(_ s: UnsafePointer<Float>) -> (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>) {
            let dx = (load(s, i - w + 1) + 2 * load(s, i + 1) + load(s, i + w + 1))
                - (load(s, i - w - 1) + 2 * load(s, i - 1) + load(s, i + w - 1))
            let dy = (load(s, i + w - 1) + 2 * load(s, i + w) + load(s, i + w + 1))
                - (load(s, i - w - 1) + 2 * load(s, i - w) + load(s, i - w + 1))
            return (dx, dy, (dx * dx + dy * dy).squareRoot() / 4)
        }
        var (dx, dy, m) = sobel8(channels.0)
        let flat = m .<= 0
        dx.replace(with: 0, where: flat); dy.replace(with: 0, where: flat); m.replace(with: 0, where: flat)
        if count == 3 {
            let (dx1, dy1, m1) = sobel8(channels.1)
            let take1 = m1 .> m
            dx.replace(with: dx1, where: take1); dy.replace(with: dy1, where: take1); m.replace(with: m1, where: take1)
            let (dx2, dy2, m2) = sobel8(channels.2)
            let take2 = m2 .> m
            dx.replace(with: dx2, where: take2); dy.replace(with: dy2, where: take2); m.replace(with: m2, where: take2)
        }
        UnsafeMutableRawPointer(out.2 + i).storeBytes(of: m, as: SIMD8<Float>.self)
        UnsafeMutableRawPointer(out.0 + i).storeBytes(of: dx / 4, as: SIMD8<Float>.self)
        UnsafeMutableRawPointer(out.1 + i).storeBytes(of: dy / 4, as: SIMD8<Float>.self)
    }

    /// [1 2 1] smoothing, `passes` times, both directions (edges repeat the border pixel).
    static func smooth(_ a: [Float], w: Int, h: Int, passes: Int) -> [Float] {
        var out = a
        smooth(&out, w: w, h: h, passes: passes)
        return out
    }

    /// `smooth` in place. The horizontal pass of a row goes into a ring of three rows just before
    /// the vertical pass needs it, so no second plane is allocated.
    static func smooth(_ a: inout [Float], w: Int, h: Int, passes: Int) {
        guard w >= 2, h >= 2 else { return }
        var ring = [Float](repeating: 0, count: 3 * w)
        a.withUnsafeMutableBufferPointer { cb in
            ring.withUnsafeMutableBufferPointer { rb in
                guard let c = cb.baseAddress, let t = rb.baseAddress else { return }
                func horizontal(_ y: Int) {
                    let r = c + y * w, o = t + (y % 3) * w
                    o[0] = (r[0] + 2 * r[0] + r[1]) * 0.25
                    for x in 1..<(w - 1) { o[x] = (r[x - 1] + 2 * r[x] + r[x + 1]) * 0.25 }
                    o[w - 1] = (r[w - 2] + 2 * r[w - 1] + r[w - 1]) * 0.25
                }
                for _ in 0..<passes {
                    horizontal(0)
                    for y in 0..<h {
                        // Row y + 1 is still unsmoothed in `a`: only rows up to y - 1 were written.
                        if y + 1 < h { horizontal(y + 1) }
                        let up = t + (max(0, y - 1) % 3) * w, row = t + (y % 3) * w, down = t + (min(h - 1, y + 1) % 3) * w
                        let o = c + y * w
                        for x in 0..<w { o[x] = (up[x] + 2 * row[x] + down[x]) * 0.25 }
                    }
                }
            }
        }
    }

    /// The value below which `fraction` of `values` lie (by a 1-unit histogram up to 1024).
    static func percentile(_ values: [Float], _ fraction: Double) -> Float {
        var hist = [Int](repeating: 0, count: 1025)
        // Clamped before the conversion, the same bin as converting first (truncation toward zero).
        values.withUnsafeBufferPointer { v in hist.withUnsafeMutableBufferPointer { hist in
            for x in v { hist[Int(min(1024, max(0, x)))] += 1 }
        } }
        let target = Int(Double(values.count) * fraction)
        var acc = 0
        for (i, c) in hist.enumerated() {
            acc += c
            if acc > target { return Float(i) }
        }
        return 1024
    }

    /// Gradient projected on the unit normal (nx, ny) at the nearest pixel; 0 outside.
    @inline(__always) func projected(_ x: Float, _ y: Float, _ nx: Float, _ ny: Float) -> Float {
        let xi = Int(x + 0.5), yi = Int(y + 0.5)
        guard xi >= 0, yi >= 0, xi < width, yi < height else { return 0 }
        let i = yi * width + xi
        return abs(gx[i] * nx + gy[i] * ny)
    }

    /// The smoothed colour (brightness, red-green, yellow-blue) at the nearest pixel; nil outside.
    @inline(__always) func colour(_ x: Float, _ y: Float) -> (Float, Float, Float)? {
        let xi = Int(x + 0.5), yi = Int(y + 0.5)
        guard xi >= 0, yi >= 0, xi < width, yi < height else { return nil }
        let i = yi * width + xi
        return (channels[0][i], channels[1][i], channels[2][i])
    }
}
