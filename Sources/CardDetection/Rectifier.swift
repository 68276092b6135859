import CDetectionKernels
import ImageIngest

/// Cuts the card out of the photo and straightens it to a rectangle of a given long side.
public enum Rectifier {
    /// The card's long side in pixels of `image`: the mean of its opposite edges, the longer pair.
    public static func longSide(of quad: Quadrilateral, in image: PixelImage) -> Double {
        let c = quad.scaled(width: Double(image.width), height: Double(image.height))
        let w = (distance(c[0], c[1]) + distance(c[3], c[2])) / 2
        let h = (distance(c[0], c[3]) + distance(c[1], c[2])) / 2
        return max(w, h)
    }

    /// Warps the quadrilateral `quad` (normalised to `image`) to a rectangle whose long side is
    /// `longSide` pixels, sampling with bilinear interpolation averaged over the source area each
    /// output pixel covers.
    /// `fastGray` false samples a gray image the way an RGB one is (the same bytes; for the tests).
    public static func warp(_ image: PixelImage, quad: Quadrilateral, longSide: Int, fastGray: Bool = true) -> PixelImage? {
        warp(image, quad: quad, longSide: longSide, gray: fastGray ? .best : .general)
    }

    /// How a gray image is warped: as an RGB one is, in Swift's eight lanes, or with the AVX2
    /// kernel where the processor has it (the same bytes each way; the tests compare them).
    enum GrayKernel { case general, lanes, best }

    /// The output's size, the homography from it to the quad's corners in `image`, and the
    /// samples per side; nil for a degenerate or non-finite quad (Swift's samplers trap on NaN,
    /// and the AVX2 kernel's gather read far outside the image before it clamped NaN too).
    static func mapping(_ image: PixelImage, quad: Quadrilateral, longSide: Int) -> (hom: Homography, outW: Int, outH: Int, samples: Int)? {
        let corners = quad.scaled(width: Double(image.width), height: Double(image.height))
        guard corners.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return nil }
        let top = distance(corners[0], corners[1]), bottom = distance(corners[3], corners[2])
        let left = distance(corners[0], corners[3]), right = distance(corners[1], corners[2])
        let srcW = (top + bottom) / 2, srcH = (left + right) / 2
        guard srcW > 4, srcH > 4, srcW.isFinite, srcH.isFinite else { return nil }
        let scale = Double(longSide) / max(srcW, srcH)
        let outW = max(1, Int((srcW * scale).rounded())), outH = max(1, Int((srcH * scale).rounded()))
        guard let hom = Homography(rectangleWidth: Double(outW), height: Double(outH), to: corners),
              hom.m.allSatisfy({ $0.isFinite && Float($0).isFinite }) else { return nil }
        // Supersampling: about one sample per source pixel covered, at most 3 x 3.
        return (hom, outW, outH, max(1, min(3, Int((1 / scale).rounded()))))
    }

    static func warp(_ image: PixelImage, quad: Quadrilateral, longSide: Int, gray kernel: GrayKernel) -> PixelImage? {
        guard let (hom, outW, outH, samples) = mapping(image, quad: quad, longSide: longSide) else { return nil }
        let c = image.channels
        let m0 = Float(hom.m[0]), m1 = Float(hom.m[1]), m2 = Float(hom.m[2]), m3 = Float(hom.m[3])
        let m4 = Float(hom.m[4]), m5 = Float(hom.m[5]), m6 = Float(hom.m[6]), m7 = Float(hom.m[7]), m8 = Float(hom.m[8])
        let step = 1 / Float(samples)
        let norm = 1 / Float(samples * samples)
        let out = [UInt8](unsafeUninitializedCapacity: outW * outH * c) { dstBuffer, initialized in
            image.pixels.withUnsafeBufferPointer { srcBuffer in
                guard let src = srcBuffer.baseAddress, let dst = dstBuffer.baseAddress else { return }
                let sampler = Sampler(src: src, width: image.width, height: image.height, channels: c)
                if c == 1 && kernel != .general {
                    let m = (m0, m1, m2, m3, m4, m5, m6, m7, m8)
                    warpGray(sampler, into: dst, width: outW, height: outH, m: m, samples: samples, norm: norm, avx2: kernel == .best)
                    return
                }
                for y in 0..<outH {
                    for x in 0..<outW {
                        var sum: (Float, Float, Float) = (0, 0, 0)
                        for sy in 0..<samples {
                            let dy = Float(y) + (Float(sy) + 0.5) * step
                            for sx in 0..<samples {
                                let dx = Float(x) + (Float(sx) + 0.5) * step
                                let inv = 1 / (m6 * dx + m7 * dy + m8)
                                sampler.add(x: (m0 * dx + m1 * dy + m2) * inv - 0.5, y: (m3 * dx + m4 * dy + m5) * inv - 0.5,
                                            to: &sum)
                            }
                        }
                        let o = (y * outW + x) * c
                        dst[o] = UInt8(sum.0 * norm + 0.5)
                        if c == 3 {
                            dst[o + 1] = UInt8(sum.1 * norm + 0.5)
                            dst[o + 2] = UInt8(sum.2 * norm + 0.5)
                        }
                    }
                }
            }
            initialized = outW * outH * c
        }
        return PixelImage(width: outW, height: outH, channels: c, pixels: out)
    }

    /// The gray warp: `warp`'s arithmetic in the same order (so the same bytes), eight output
    /// pixels at a time (each lane's operations are the one-pixel loop's), the products of a sample
    /// row's y out of the innermost loop; the row's last few pixels one at a time.
    /// `avx2` false keeps to Swift's eight lanes (for the tests); true lets `CDetectionKernels` do the
    /// eight-pixel blocks with AVX2 where the processor has it (the same arithmetic, the same bytes).
    static func warpGray(_ sampler: Sampler, into dst: UnsafeMutablePointer<UInt8>, width outW: Int, height outH: Int,
                         m: (Float, Float, Float, Float, Float, Float, Float, Float, Float), samples: Int, norm: Float,
                         avx2: Bool = true) {
        let (m0, m1, m2, m3, m4, m5, m6, m7, m8) = m
        let step = 1 / Float(samples)
        let offsets = (0..<samples).map { (Float($0) + 0.5) * step }
        // Eight at a time where coordinates stay below 2^23 (see `gray8`): any photo within the limits.
        let lanes = max(sampler.width, sampler.height) < 1 << 23 ? outW / 8 * 8 : 0
        let laneX = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7)
        let blocksDone = avx2 && lanes > 0 && avx2Blocks(sampler, into: dst, width: outW, height: outH, m: m, offsets: offsets, norm: norm)
        offsets.withUnsafeBufferPointer { offsets in
            for y in 0..<outH {
                let row = dst + y * outW
                for x in stride(from: 0, to: blocksDone ? 0 : lanes, by: 8) {
                    var sum = SIMD8<Float>(repeating: 0)
                    for oy in offsets {
                        let dy = Float(y) + oy
                        let m1dy = m1 * dy, m4dy = m4 * dy, m7dy = m7 * dy
                        for ox in offsets {
                            let dx = SIMD8<Float>(repeating: Float(x)) + laneX + ox
                            let inv = 1 / (m6 * dx + m7dy + m8)
                            let sample = sampler.gray8(x: (m0 * dx + m1dy + m2) * inv - 0.5, y: (m3 * dx + m4dy + m5) * inv - 0.5)
                            sum += sample
                        }
                    }
                    let value = sum * norm + 0.5
                    for l in 0..<8 { row[x + l] = UInt8(value[l]) }
                }
                for x in lanes..<outW {
                    var sum: Float = 0
                    for oy in offsets {
                        let dy = Float(y) + oy
                        let m1dy = m1 * dy, m4dy = m4 * dy, m7dy = m7 * dy
                        for ox in offsets {
                            let dx = Float(x) + ox
                            let inv = 1 / (m6 * dx + m7dy + m8)
                            let sample = sampler.gray(x: (m0 * dx + m1dy + m2) * inv - 0.5, y: (m3 * dx + m4dy + m5) * inv - 0.5)
                            sum += sample
                        }
                    }
                    row[x] = UInt8(sum * norm + 0.5)
                }
            }
        }
    }

    /// `warpGray`'s eight-pixel blocks by `CDetectionKernels` (false: no AVX2 here, or an image too large
    /// for the kernel's 32-bit pixel indices).
    static func avx2Blocks(_ sampler: Sampler, into dst: UnsafeMutablePointer<UInt8>, width outW: Int, height outH: Int,
                           m: (Float, Float, Float, Float, Float, Float, Float, Float, Float), offsets: [Float], norm: Float) -> Bool {
        guard sampler.width * sampler.height < Int(Int32.max) - 8 else { return false }
        let (m0, m1, m2, m3, m4, m5, m6, m7, m8) = m
        return offsets.withUnsafeBufferPointer { o in
            [m0, m1, m2, m3, m4, m5, m6, m7, m8].withUnsafeBufferPointer { mp in
                cs_warp_gray_blocks(sampler.src, Int32(sampler.width), Int32(sampler.height), dst, Int32(outW), Int32(outH),
                                    mp.baseAddress, o.baseAddress, Int32(offsets.count), norm) == 1
            }
        }
    }

    /// Bilinear samples of a gray or RGB image, clamped to its edges.
    struct Sampler {
        let src: UnsafePointer<UInt8>
        let width: Int, height: Int, channels: Int
        let maxX: Float, maxY: Float

        init(src: UnsafePointer<UInt8>, width: Int, height: Int, channels: Int) {
            self.src = src
            self.width = width
            self.height = height
            self.channels = channels
            maxX = Float(width - 1)
            maxY = Float(height - 1)
        }

        /// The gray value at (x, y).
        @inline(__always)
        func gray(x: Float, y: Float) -> Float {
            let (x0, x1, y0, y1, ax, ay) = corners(x, y)
            let r0 = y0 * width, r1 = y1 * width
            let top = Float(src[r0 + x0]) + (Float(src[r0 + x1]) - Float(src[r0 + x0])) * ax
            let bottom = Float(src[r1 + x0]) + (Float(src[r1 + x1]) - Float(src[r1 + x0])) * ax
            return top + (bottom - top) * ay
        }

        /// `gray` at eight points: each lane's arithmetic is the one-point sample's (the clamped
        /// coordinates' integer parts by `Lanes.floor`: any coordinate within the limits is below 2^23).
        @inline(__always)
        func gray8(x: SIMD8<Float>, y: SIMD8<Float>) -> SIMD8<Float> {
            var fx = x, fy = y
            fx.replace(with: 0, where: fx .< 0); fx.replace(with: maxX, where: fx .> maxX)
            fy.replace(with: 0, where: fy .< 0); fy.replace(with: maxY, where: fy .> maxY)
            let x0 = Lanes.floor(fx), y0 = Lanes.floor(fy)
            let (p00, p10, p01, p11) = Lanes.gather { l -> (Float, Float, Float, Float) in
                let xi = Int(x0[l]), yi = Int(y0[l])
                let x1 = xi + 1 < width ? xi + 1 : xi, y1 = yi + 1 < height ? yi + 1 : yi
                let r0 = src + yi * width, r1 = src + y1 * width
                return (Float(r0[xi]), Float(r0[x1]), Float(r1[xi]), Float(r1[x1]))
            }
            let ax = fx - x0, ay = fy - y0
            let top = p00 + (p10 - p00) * ax
            let bottom = p01 + (p11 - p01) * ax
            return top + (bottom - top) * ay
        }

        /// The four pixels around (x, y), clamped to the image, and the weights between them.
        @inline(__always)
        func corners(_ x: Float, _ y: Float) -> (x0: Int, x1: Int, y0: Int, y1: Int, ax: Float, ay: Float) {
            let fx = x < 0 ? 0 : (x > maxX ? maxX : x)
            let fy = y < 0 ? 0 : (y > maxY ? maxY : y)
            let x0 = Int(fx), y0 = Int(fy)
            let x1 = x0 + 1 < width ? x0 + 1 : x0, y1 = y0 + 1 < height ? y0 + 1 : y0
            return (x0, x1, y0, y1, fx - Float(x0), fy - Float(y0))
        }

        /// Adds the value at (x, y) (per channel) to `sum`.
        @inline(__always)
        func add(x: Float, y: Float, to sum: inout (Float, Float, Float)) {
            if channels == 1 {
                sum.0 += gray(x: x, y: y)
                return
            }
            let (x0, x1, y0, y1, ax, ay) = corners(x, y)
            let r0 = y0 * width, r1 = y1 * width
            let i00 = (r0 + x0) * 3, i10 = (r0 + x1) * 3, i01 = (r1 + x0) * 3, i11 = (r1 + x1) * 3
            for k in 0..<3 {
                let top = Float(src[i00 + k]) + (Float(src[i10 + k]) - Float(src[i00 + k])) * ax
                let bottom = Float(src[i01 + k]) + (Float(src[i11 + k]) - Float(src[i01 + k])) * ax
                let v = top + (bottom - top) * ay
                if k == 0 { sum.0 += v } else if k == 1 { sum.1 += v } else { sum.2 += v }
            }
        }
    }
}
