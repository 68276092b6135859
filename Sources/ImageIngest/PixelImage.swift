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

    /// Applies an EXIF orientation (1-8) so that the result is upright as a viewer shows it.
    public func applyingOrientation(_ orientation: Int) -> PixelImage {
        guard (2...8).contains(orientation) else { return self }
        let w = width, h = height, c = channels
        let swaps = orientation >= 5
        let ow = swaps ? h : w, oh = swaps ? w : h
        var out = [UInt8](repeating: 0, count: ow * oh * c)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<oh {
                    for x in 0..<ow {
                        let sx: Int, sy: Int
                        switch orientation {
                        case 2: (sx, sy) = (w - 1 - x, y)
                        case 3: (sx, sy) = (w - 1 - x, h - 1 - y)
                        case 4: (sx, sy) = (x, h - 1 - y)
                        case 5: (sx, sy) = (y, x)
                        case 6: (sx, sy) = (y, h - 1 - x)
                        case 7: (sx, sy) = (w - 1 - y, h - 1 - x)
                        default: (sx, sy) = (w - 1 - y, x)  // 8
                        }
                        let si = (sy * w + sx) * c, di = (y * ow + x) * c
                        for k in 0..<c { dst[di + k] = src[si + k] }
                    }
                }
            }
        }
        return PixelImage(width: ow, height: oh, channels: c, pixels: out)
    }

    /// Rotates clockwise by a multiple of 90 degrees.
    public func rotated(clockwise degrees: Int) -> PixelImage {
        switch ((degrees % 360) + 360) % 360 {
        case 90: return applyingOrientation(6)
        case 180: return applyingOrientation(3)
        case 270: return applyingOrientation(8)
        default: return self
        }
    }

    /// Resizes with an area-averaging filter (each output pixel is the mean of the input area it
    /// covers, with fractional edge weights); enlarging falls back to bilinear interpolation.
    public func resized(width newWidth: Int, height newHeight: Int) -> PixelImage {
        precondition(newWidth > 0 && newHeight > 0)
        if newWidth == width && newHeight == height { return self }
        let horizontal = Self.resampleWeights(from: width, to: newWidth)
        let vertical = Self.resampleWeights(from: height, to: newHeight)
        let c = channels
        // Horizontal pass into Float rows, then vertical pass.
        var temp = [Float](repeating: 0, count: newWidth * height * c)
        pixels.withUnsafeBufferPointer { src in
            temp.withUnsafeMutableBufferPointer { dst in
                for y in 0..<height {
                    let rowIn = y * width * c, rowOut = y * newWidth * c
                    for x in 0..<newWidth {
                        let taps = horizontal[x]
                        for k in 0..<c {
                            var sum: Float = 0
                            for (i, wgt) in taps { sum += Float(src[rowIn + i * c + k]) * wgt }
                            dst[rowOut + x * c + k] = sum
                        }
                    }
                }
            }
        }
        var out = [UInt8](repeating: 0, count: newWidth * newHeight * c)
        temp.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                let rowLen = newWidth * c
                var acc = [Float](repeating: 0, count: rowLen)
                for y in 0..<newHeight {
                    for i in 0..<rowLen { acc[i] = 0 }
                    for (sy, wgt) in vertical[y] {
                        let base = sy * rowLen
                        for i in 0..<rowLen { acc[i] += src[base + i] * wgt }
                    }
                    let base = y * rowLen
                    for i in 0..<rowLen { dst[base + i] = UInt8(max(0, min(255, acc[i] + 0.5))) }
                }
            }
        }
        return PixelImage(width: newWidth, height: newHeight, channels: c, pixels: out)
    }

    /// Resizes so that the long side is `longSide` pixels, keeping the aspect ratio.
    public func resized(longSide target: Int) -> PixelImage {
        let scale = Double(target) / Double(longSide)
        let w = max(1, Int((Double(width) * scale).rounded()))
        let h = max(1, Int((Double(height) * scale).rounded()))
        return resized(width: w, height: h)
    }

    /// Taps (source index, weight) for each output index of a 1-D resample.
    static func resampleWeights(from n: Int, to m: Int) -> [[(Int, Float)]] {
        let scale = Double(n) / Double(m)
        var result: [[(Int, Float)]] = []
        result.reserveCapacity(m)
        if scale >= 1 {
            for o in 0..<m {
                let start = Double(o) * scale, end = start + scale
                var taps: [(Int, Float)] = []
                var i = Int(start)
                while Double(i) < end && i < n {
                    let lo = max(start, Double(i)), hi = min(end, Double(i + 1))
                    if hi > lo { taps.append((i, Float((hi - lo) / scale))) }
                    i += 1
                }
                result.append(taps)
            }
        } else {
            for o in 0..<m {
                let center = (Double(o) + 0.5) * scale - 0.5
                let i0 = max(0, min(n - 1, Int(center.rounded(.down))))
                let i1 = min(n - 1, i0 + 1)
                let f = Float(max(0, min(1, center - Double(i0))))
                result.append(i0 == i1 ? [(i0, Float(1))] : [(i0, 1 - f), (i1, f)])
            }
        }
        return result
    }
}
