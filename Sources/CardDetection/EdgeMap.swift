import CDetectionKernels
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
    /// The magnitudes' histogram in 1-unit bins up to 1024 (`percentile`'s), for their percentiles.
    private var magnitudeBins: [Int] = []

    init(_ image: PixelImage) {
        let w = image.width, h = image.height
        width = w
        height = h
        channels = Self.opponentChannels(image)
        for c in channels.indices { Self.smooth(&channels[c], w: w, h: h, passes: 2) }
        // The gradients' kernel writes every inner pixel: only the border is zeroed beforehand.
        gx = Self.planeWithZeroBorder(w, h)
        gy = Self.planeWithZeroBorder(w, h)
        magnitude = Self.planeWithZeroBorder(w, h)
        strongEdge = 0
        // Per pixel, the Sobel gradient of the channel that changes most.
        strongestGradients(channelCount: image.channels == 3 ? 3 : 1)
        magnitudeBins = Self.histogram(magnitude)
        strongEdge = max(6, magnitudePercentile(0.90))
    }

    /// `percentile(magnitude, fraction)`, from the histogram made once.
    func magnitudePercentile(_ fraction: Double) -> Float {
        Self.percentile(bins: magnitudeBins, count: magnitude.count, fraction)
    }

    /// A w x h plane whose border pixels are 0 and whose inner pixels are for the caller to write
    /// (all zero when there are none).
    static func planeWithZeroBorder(_ w: Int, _ h: Int) -> [Float] {
        [Float](unsafeUninitializedCapacity: w * h) { plane, initialized in
            if w < 3 || h < 3 {
                plane.initialize(repeating: 0)
            } else {
                plane.baseAddress!.initialize(repeating: 0, count: w)
                (plane.baseAddress! + (h - 1) * w).initialize(repeating: 0, count: w)
                for y in 1..<(h - 1) {
                    plane[y * w] = 0
                    plane[y * w + w - 1] = 0
                }
            }
            initialized = w * h
        }
    }

    /// Brightness, red-green and yellow-blue of a colour image; brightness alone of a gray one
    /// (the colour planes zero).
    static func opponentChannels(_ image: PixelImage) -> [[Float]] {
        let n = image.width * image.height
        guard image.channels == 3 else {
            let luma = image.pixels.prefix(n).map { Float($0) }
            let zero = [Float](repeating: 0, count: n)
            return [luma, zero, zero]
        }
        // The kernel writes every value of the three planes.
        var redGreen: [Float] = [], yellowBlue: [Float] = []
        let luma = [Float](unsafeUninitializedCapacity: n) { luma, madeLuma in
            redGreen = [Float](unsafeUninitializedCapacity: n) { rg, madeRG in
                yellowBlue = [Float](unsafeUninitializedCapacity: n) { yb, madeYB in
                    image.pixels.withUnsafeBufferPointer { px in
                        _ = cs_opponent_channels(px.baseAddress, n, luma.baseAddress, rg.baseAddress, yb.baseAddress, 1)
                    }
                    madeYB = n
                }
                madeRG = n
            }
            madeLuma = n
        }
        return [luma, redGreen, yellowBlue]
    }

    /// Per pixel, the Sobel gradient of the first of `channelCount` channels whose gradient is
    /// strongest (none where all are flat): `cs_strongest_gradients`, eight pixels at a time with AVX2.
    private mutating func strongestGradients(channelCount: Int) {
        let (w, h) = (width, height)
        _ = cs_strongest_gradients(channels[0], channels[1], channels[2], Int32(channelCount), Int32(w), Int32(h),
                                   &gx, &gy, &magnitude, 1)
    }

    /// [1 2 1] smoothing, `passes` times, both directions (edges repeat the border pixel).
    static func smooth(_ a: [Float], w: Int, h: Int, passes: Int) -> [Float] {
        var out = a
        smooth(&out, w: w, h: h, passes: passes)
        return out
    }

    /// `smooth` in place (`cs_smooth`, eight values at a time with AVX2): the horizontal pass of a
    /// row goes into a ring of three rows just before the vertical pass needs it, so no second
    /// plane is allocated.
    static func smooth(_ a: inout [Float], w: Int, h: Int, passes: Int, vector: Bool = true) {
        guard w >= 2, h >= 2 else { return }
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 3 * w) { ring in
            _ = cs_smooth(&a, Int32(w), Int32(h), Int32(passes), ring.baseAddress, vector ? 1 : 0)
        }
    }

    /// The value below which `fraction` of `values` lie (by a 1-unit histogram up to 1024).
    static func percentile(_ values: [Float], _ fraction: Double) -> Float {
        percentile(bins: histogram(values), count: values.count, fraction)
    }

    /// The values counted in 1025 bins: each clamped to 0...1024 and truncated (clamped before the
    /// conversion, the same bin as converting first, by truncation toward zero).
    static func histogram(_ values: [Float]) -> [Int] {
        var bins = [Int](repeating: 0, count: 1025)
        cs_histogram(values, values.count, &bins)
        return bins
    }

    static func percentile(bins: [Int], count: Int, _ fraction: Double) -> Float {
        let target = Int(Double(count) * fraction)
        var acc = 0
        for (i, c) in bins.enumerated() {
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
