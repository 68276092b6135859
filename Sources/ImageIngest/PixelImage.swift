import CResizeKernels

/// An 8-bit image in memory: 1 channel (gray) or 3 (RGB), rows packed without padding.
public struct PixelImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let channels: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, channels: Int, pixels: [UInt8]) {
        precondition(channels == 1 || channels == 3, "PixelImage holds gray or RGB")
        precondition(pixels.count == width * height * channels, "pixel buffer does not match the size")
        self.width = width
        self.height = height
        self.channels = channels
        self.pixels = pixels
    }

    /// A blank image filled with one value.
    public init(width: Int, height: Int, channels: Int, fill: UInt8 = 0) {
        self.init(width: width, height: height, channels: channels,
                  pixels: [UInt8](repeating: fill, count: width * height * channels))
    }

    public var longSide: Int { max(width, height) }

    /// Builds a gray or RGB image from a decoder's pixels, read through `rgbAt(x, y)`.
    static func packing(width w: Int, height h: Int, grayscale: Bool,
                        _ rgbAt: (Int, Int) -> (UInt8, UInt8, UInt8)) -> PixelImage {
        let channels = grayscale ? 1 : 3
        var out = [UInt8](repeating: 0, count: w * h * channels)
        out.withUnsafeMutableBufferPointer { dst in
            for y in 0..<h {
                for x in 0..<w {
                    let (r, g, b) = rgbAt(x, y)
                    if grayscale {
                        dst[y * w + x] = UInt8((UInt32(r) * 77 + UInt32(g) * 150 + UInt32(b) * 29) >> 8)
                    } else {
                        let i = (y * w + x) * 3
                        dst[i] = r; dst[i + 1] = g; dst[i + 2] = b
                    }
                }
            }
        }
        return PixelImage(width: w, height: h, channels: channels, pixels: out)
    }

    /// The image as gray (ITU-R BT.601 luma); itself when already gray.
    public func grayscale() -> PixelImage {
        if channels == 1 { return self }
        let count = width * height
        let out = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            pixels.withUnsafeBufferPointer { src in
                for i in 0..<count {
                    let r = UInt32(src[3 * i]), g = UInt32(src[3 * i + 1]), b = UInt32(src[3 * i + 2])
                    buffer[i] = UInt8((r * 77 + g * 150 + b * 29) >> 8)
                }
            }
            initialized = count
        }
        return PixelImage(width: width, height: height, channels: 1, pixels: out)
    }

    /// Applies an EXIF orientation so that the result is upright as a viewer shows it.
    public func applyingOrientation(_ orientation: ImageOrientation) -> PixelImage {
        let w = width, h = height, c = channels
        let ow = orientation.swapsAxes ? h : w, oh = orientation.swapsAxes ? w : h
        // Source pixel for output (x, y) is a linear function of x and y: index = origin + x*dx + y*dy.
        let (origin, dx, dy): (Int, Int, Int)
        switch orientation {
        case .up: return self
        case .upMirrored: (origin, dx, dy) = (w - 1, -1, w)                         // (w-1-x, y)
        case .down: (origin, dx, dy) = ((h - 1) * w + w - 1, -1, -w)                // (w-1-x, h-1-y)
        case .downMirrored: (origin, dx, dy) = ((h - 1) * w, 1, -w)                 // (x, h-1-y)
        case .leftMirrored: (origin, dx, dy) = (0, w, 1)                            // (y, x)
        case .right: (origin, dx, dy) = ((h - 1) * w, -w, 1)                        // (y, h-1-x)
        case .rightMirrored: (origin, dx, dy) = ((h - 1) * w + w - 1, -w, -1)       // (w-1-y, h-1-x)
        case .left: (origin, dx, dy) = (w - 1, w, -1)                               // (w-1-y, x)
        }
        let out = [UInt8](unsafeUninitializedCapacity: ow * oh * c) { dst, initialized in
            pixels.withUnsafeBufferPointer { srcBuffer in
                guard let src = srcBuffer.baseAddress, let d = dst.baseAddress else { return }
                var di = 0
                for y in 0..<oh {
                    var si = origin + y * dy
                    if c == 1 {
                        for _ in 0..<ow { d[di] = src[si]; di += 1; si += dx }
                    } else {
                        for _ in 0..<ow {
                            let s3 = si * 3
                            d[di] = src[s3]; d[di + 1] = src[s3 + 1]; d[di + 2] = src[s3 + 2]
                            di += 3; si += dx
                        }
                    }
                }
            }
            initialized = ow * oh * c
        }
        return PixelImage(width: ow, height: oh, channels: c, pixels: out)
    }

    /// Where a point of the upright image (normalised 0...1) lies in the stored image.
    public static func storedPoint(fromUpright p: (x: Double, y: Double), orientation: ImageOrientation) -> (x: Double, y: Double) {
        let (u, v) = p
        switch orientation {
        case .up: return (u, v)
        case .upMirrored: return (1 - u, v)
        case .down: return (1 - u, 1 - v)
        case .downMirrored: return (u, 1 - v)
        case .leftMirrored: return (v, u)
        case .right: return (v, 1 - u)
        case .rightMirrored: return (1 - v, 1 - u)
        case .left: return (1 - v, u)
        }
    }

    /// Where a point of the stored image (normalised 0...1) appears in the upright image.
    public static func uprightPoint(fromStored p: (x: Double, y: Double), orientation: ImageOrientation) -> (x: Double, y: Double) {
        let (s, t) = p
        switch orientation {
        case .up: return (s, t)
        case .upMirrored: return (1 - s, t)
        case .down: return (1 - s, 1 - t)
        case .downMirrored: return (s, 1 - t)
        case .leftMirrored: return (t, s)
        case .right: return (1 - t, s)
        case .rightMirrored: return (1 - t, 1 - s)
        case .left: return (t, 1 - s)
        }
    }

    /// Rotates clockwise by quarter turns.
    public func rotated(clockwise turn: QuarterTurn) -> PixelImage {
        turn == .none ? self : applyingOrientation(turn.orientation)
    }

    /// Resizes with an area-averaging filter (each output pixel is the mean of the input area it
    /// covers, with fractional edge weights); enlarging falls back to bilinear interpolation.
    ///
    /// One output row at a time (`RowResizer`): its source rows, read in place, are summed with
    /// their vertical weights, and that one row of sums is resampled across; no image of floats.
    public func resized(width newWidth: Int, height newHeight: Int) -> PixelImage {
        precondition(newWidth > 0 && newHeight > 0)
        if newWidth == width && newHeight == height { return self }
        var resizer = RowResizer(width: width, height: height, channels: channels, newWidth: newWidth, newHeight: newHeight,
                                 keepingRows: false)
        pixels.withUnsafeBufferPointer { src in
            guard let src = src.baseAddress else { return }
            let length = width * channels
            for y in 0..<newHeight { resizer.makeRow(y) { src + $0 * length } }
        }
        return resizer.image
    }

    /// The horizontal pass for one row of vertical sums (`length` values): `taps.start.count`
    /// pixels, rounded to bytes, into `rowOut` (`cs_resample_row`: RGB two pixels at a time with AVX2).
    fileprivate static func resampleRow(_ rowIn: UnsafePointer<Float>, length: Int, channels c: Int, taps horizontal: ResampleTaps,
                                    into rowOut: UnsafeMutablePointer<UInt8>) {
        horizontal.start.withUnsafeBufferPointer { starts in
            horizontal.offset.withUnsafeBufferPointer { offsets in
                horizontal.weight.withUnsafeBufferPointer { weights in
                    _ = cs_resample_row(rowIn, length, Int32(c), starts.baseAddress, offsets.baseAddress, weights.baseAddress,
                                        starts.count, rowOut, 1)
                }
            }
        }
    }

    /// Shrinks by an integer factor, each output pixel the mean of a k x k block (fast; the last
    /// partial row and column of blocks are dropped).
    public func downsampled(by k: Int) -> PixelImage {
        guard k > 1 else { return self }
        let ow = width / k, oh = height / k, c = channels
        guard ow > 0, oh > 0 else { return self }
        let out = [UInt8](unsafeUninitializedCapacity: ow * oh * c) { dst, initialized in
            pixels.withUnsafeBufferPointer { src in
                var sums = [Int](repeating: 0, count: ow * c)
                for oy in 0..<oh {
                    for i in 0..<(ow * c) { sums[i] = 0 }
                    for y in (oy * k)..<(oy * k + k) {
                        let row = y * width * c
                        for ox in 0..<ow {
                            var base = row + ox * k * c
                            for _ in 0..<k {
                                for ch in 0..<c { sums[ox * c + ch] += Int(src[base + ch]) }
                                base += c
                            }
                        }
                    }
                    let n = k * k
                    for i in 0..<(ow * c) { dst[oy * ow * c + i] = UInt8(sums[i] / n) }
                }
            }
            initialized = ow * oh * c
        }
        return PixelImage(width: ow, height: oh, channels: c, pixels: out)
    }

    /// Resizes so that the long side is `longSide` pixels, keeping the aspect ratio.
    public func resized(longSide target: Int) -> PixelImage {
        let (w, h) = Self.size(width: width, height: height, longSide: target)
        return resized(width: w, height: h)
    }

    /// The size `resized(longSide:)` gives a `width` x `height` image: the aspect kept, rounded.
    static func size(width: Int, height: Int, longSide target: Int) -> (width: Int, height: Int) {
        let scale = Double(target) / Double(max(width, height))
        return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }
}

extension Duration {
    /// The duration in milliseconds as a Double.
    public var milliseconds: Double {
        let (s, atto) = components
        return Double(s) * 1000 + Double(atto) / 1e15
    }
}

/// The area-averaging resize fed one source row at a time, top to bottom (from an image in memory,
/// or from a decoder as it decodes, so that the source never has to be whole in memory): the last
/// few source rows are kept in a ring, and when the last source row of an output row has come,
/// that output row's source rows are summed with their vertical weights (eight values at a time)
/// and the sum resampled across.
public struct RowResizer {
    public let newWidth: Int, newHeight: Int
    let channels: Int, sourceLength: Int
    let horizontal: ResampleTaps, vertical: ResampleTaps
    /// The source rows still needed, by source row number modulo their count.
    private var ring: [UInt8]
    private let ringRows: Int
    private var sums: [Float]
    private var output: [UInt8]
    /// Source rows added so far, and output rows made.
    private var added = 0, made = 0

    /// `keepingRows` false: the source is whole in memory, and `makeRow` is given its rows (no ring).
    public init(width: Int, height: Int, channels: Int, newWidth: Int, newHeight: Int, keepingRows: Bool = true) {
        precondition(width > 0 && height > 0 && newWidth > 0 && newHeight > 0)
        self.newWidth = newWidth
        self.newHeight = newHeight
        self.channels = channels
        sourceLength = width * channels
        horizontal = ResampleTaps(from: width, to: newWidth)
        vertical = ResampleTaps(from: height, to: newHeight)
        let v = vertical
        // The most source rows one output row reads (and one more while the next arrives).
        ringRows = ((0..<newHeight).map { v.offset[$0 + 1] - v.offset[$0] }.max() ?? 1) + 1
        ring = keepingRows ? [UInt8](repeating: 0, count: ringRows * sourceLength) : []
        sums = [Float](repeating: 0, count: sourceLength)
        output = [UInt8](repeating: 0, count: newWidth * newHeight * channels)
    }

    /// Adds the next source row (`width * channels` bytes) and makes every output row it completes.
    public mutating func add(row: UnsafePointer<UInt8>) {
        let slot = added % ringRows
        ring.withUnsafeMutableBufferPointer { ring in
            guard let base = ring.baseAddress else { return }
            (base + slot * sourceLength).update(from: row, count: sourceLength)
        }
        added += 1
        while made < newHeight && lastSourceRow(of: made) < added {
            ring.withUnsafeBufferPointer { ring in
                guard let ring = ring.baseAddress else { return }
                let (length, rows) = (sourceLength, ringRows)
                makeRow(made) { ring + ($0 % rows) * length }
            }
            made += 1
        }
    }

    /// The resized image (complete once every source row has been added).
    public var image: PixelImage {
        PixelImage(width: newWidth, height: newHeight, channels: channels, pixels: output)
    }

    private func lastSourceRow(of y: Int) -> Int {
        vertical.start[y] + (vertical.offset[y + 1] - vertical.offset[y]) - 1
    }

    /// Output row `y` from its source rows, which `sourceRow` gives by number: the rows' weighted
    /// sums (`cs_weighted_rows`, eight at a time with AVX2), resampled across.
    @inline(__always)
    mutating func makeRow(_ y: Int, sourceRow: (Int) -> UnsafePointer<UInt8>) {
        let length = sourceLength, c = channels
        let rowLength = newWidth * c
        let (start, lo, hi) = (vertical.start[y], vertical.offset[y], vertical.offset[y + 1])
        let taps = horizontal
        withUnsafeTemporaryAllocation(of: UnsafePointer<UInt8>?.self, capacity: max(1, hi - lo)) { rows in
            for t in lo..<hi { rows[t - lo] = sourceRow(start + t - lo) }
            vertical.weight.withUnsafeBufferPointer { weights in
                sums.withUnsafeMutableBufferPointer { sumsBuffer in
                    output.withUnsafeMutableBufferPointer { out in
                        guard let sums = sumsBuffer.baseAddress, let out = out.baseAddress, let w = weights.baseAddress else { return }
                        _ = cs_weighted_rows(rows.baseAddress, w + lo, Int32(hi - lo), sums, length, 1)
                        PixelImage.resampleRow(sums, length: length, channels: c, taps: taps, into: out + y * rowLength)
                    }
                }
            }
        }
    }
}

/// Weights of a 1-D resample: output i reads inputs start[i] ..< start[i] + (offset[i+1] - offset[i])
/// with weights weight[offset[i] ..< offset[i+1]].
struct ResampleTaps {
    var start: [Int] = []
    var offset: [Int] = [0]
    var weight: [Float] = []

    init(from n: Int, to m: Int) {
        let scale = Double(n) / Double(m)
        start.reserveCapacity(m)
        if scale >= 1 {
            for o in 0..<m {
                let lo = Double(o) * scale, hi = lo + scale
                var i = Int(lo)
                start.append(i)
                while Double(i) < hi && i < n {
                    let a = max(lo, Double(i)), b = min(hi, Double(i + 1))
                    weight.append(Float(max(0, b - a) / scale))
                    i += 1
                }
                offset.append(weight.count)
            }
        } else {
            for o in 0..<m {
                let center = (Double(o) + 0.5) * scale - 0.5
                let i0 = max(0, min(n - 1, Int(center.rounded(.down))))
                start.append(i0)
                if i0 + 1 < n {
                    let f = Float(max(0, min(1, center - Double(i0))))
                    weight.append(1 - f)
                    weight.append(f)
                } else {
                    weight.append(1)
                }
                offset.append(weight.count)
            }
        }
    }
}
