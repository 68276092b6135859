import ImageIngest

/// Makes every part of a card dark text on white paper before OCR: light text on a dark card or
/// on a coloured band is inverted, and uneven light is evened out.
///
/// Block statistics (16 px blocks, each looking at its 5 x 5 neighbourhood) estimate the local
/// paper and ink levels: where the local mean lies nearer the darkest pixels, the background is
/// dark and the text light. Each pixel is then mapped so that paper becomes white and ink black,
/// with paper and ink levels interpolated between block centres so no block edges show.
public enum CardNormalizer {
    static let block = 16
    static let reach = 2          // neighbourhood radius in blocks
    static let flatContrast = 28  // below this range a neighbourhood holds no text

    public static func normalize(_ image: PixelImage) -> PixelImage {
        let gray = image.grayscale()
        let w = gray.width, h = gray.height
        let bw = (w + block - 1) / block, bh = (h + block - 1) / block
        guard bw >= 2, bh >= 2 else { return gray }
        var bmin = [Int](repeating: 255, count: bw * bh), bmax = [Int](repeating: 0, count: bw * bh)
        var bsum = [Int](repeating: 0, count: bw * bh), bcount = [Int](repeating: 0, count: bw * bh)
        gray.pixels.withUnsafeBufferPointer { px in
            for y in 0..<h {
                let by = y / block
                for x in 0..<w {
                    let v = Int(px[y * w + x]), b = by * bw + x / block
                    if v < bmin[b] { bmin[b] = v }
                    if v > bmax[b] { bmax[b] = v }
                    bsum[b] += v
                    bcount[b] += 1
                }
            }
        }
        // Paper and ink level per block, from its neighbourhood.
        var paper = [Float](repeating: 255, count: bw * bh), ink = [Float](repeating: 0, count: bw * bh)
        for by in 0..<bh {
            for bx in 0..<bw {
                var lo = 255, hi = 0, sum = 0, n = 0
                for ny in max(0, by - reach)...min(bh - 1, by + reach) {
                    for nx in max(0, bx - reach)...min(bw - 1, bx + reach) {
                        let b = ny * bw + nx
                        lo = min(lo, bmin[b]); hi = max(hi, bmax[b]); sum += bsum[b]; n += bcount[b]
                    }
                }
                let mean = n > 0 ? sum / n : 128
                let b = by * bw + bx
                if hi - lo < flatContrast {
                    // No text nearby: whatever the level, it is paper.
                    paper[b] = Float(mean)
                    ink[b] = Float(mean) + (mean >= 128 ? -128 : 128)
                } else if mean - lo >= hi - mean {
                    paper[b] = Float(hi); ink[b] = Float(lo)        // light paper, dark ink
                } else {
                    paper[b] = Float(lo); ink[b] = Float(hi)        // dark background, light text
                }
            }
        }
        let out = [UInt8](unsafeUninitializedCapacity: w * h) { dst, initialized in
            gray.pixels.withUnsafeBufferPointer { px in
                for y in 0..<h {
                    // Bilinear weights between block centres.
                    let fy = max(0, min(Float(bh - 1), (Float(y) + 0.5) / Float(block) - 0.5))
                    let y0 = Int(fy), y1 = min(bh - 1, y0 + 1), ay = fy - Float(y0)
                    for x in 0..<w {
                        let fx = max(0, min(Float(bw - 1), (Float(x) + 0.5) / Float(block) - 0.5))
                        let x0 = Int(fx), x1 = min(bw - 1, x0 + 1), ax = fx - Float(x0)
                        let i00 = y0 * bw + x0, i10 = y0 * bw + x1, i01 = y1 * bw + x0, i11 = y1 * bw + x1
                        let p = (paper[i00] * (1 - ax) + paper[i10] * ax) * (1 - ay) + (paper[i01] * (1 - ax) + paper[i11] * ax) * ay
                        let k = (ink[i00] * (1 - ax) + ink[i10] * ax) * (1 - ay) + (ink[i01] * (1 - ax) + ink[i11] * ax) * ay
                        let span = p - k
                        var v: Float = 255
                        if abs(span) > 1 { v = 255 * (Float(px[y * w + x]) - k) / span }
                        dst[y * w + x] = UInt8(max(0, min(255, v)))
                    }
                }
            }
            initialized = w * h
        }
        return PixelImage(width: w, height: h, channels: 1, pixels: out)
    }
}
