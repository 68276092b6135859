import ImageIngest

/// Cuts the card out of the photo and straightens it to a rectangle of a given long side.
public enum Rectifier {
    /// Warps the quadrilateral `quad` (normalised to `image`) to a rectangle whose long side is
    /// `longSide` pixels, sampling with bilinear interpolation averaged over the source area each
    /// output pixel covers.
    public static func warp(_ image: PixelImage, quad: Quadrilateral, longSide: Int) -> PixelImage? {
        let corners = quad.scaled(width: Double(image.width), height: Double(image.height))
        let top = distance(corners[0], corners[1]), bottom = distance(corners[3], corners[2])
        let left = distance(corners[0], corners[3]), right = distance(corners[1], corners[2])
        let srcW = (top + bottom) / 2, srcH = (left + right) / 2
        guard srcW > 4, srcH > 4 else { return nil }
        let scale = Double(longSide) / max(srcW, srcH)
        let outW = max(1, Int((srcW * scale).rounded())), outH = max(1, Int((srcH * scale).rounded()))
        guard let hom = Homography(rectangleWidth: Double(outW), height: Double(outH), to: corners) else { return nil }
        let samples = max(1, min(4, Int((1 / scale).rounded(.up))))
        let c = image.channels, w = image.width, h = image.height
        var out = [UInt8](repeating: 0, count: outW * outH * c)
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                var acc = [Double](repeating: 0, count: c)
                let step = 1.0 / Double(samples)
                for y in 0..<outH {
                    for x in 0..<outW {
                        for k in 0..<c { acc[k] = 0 }
                        for sy in 0..<samples {
                            for sx in 0..<samples {
                                let (u, v) = hom.apply(Double(x) + (Double(sx) + 0.5) * step,
                                                       Double(y) + (Double(sy) + 0.5) * step)
                                let fx = min(max(u - 0.5, 0), Double(w - 1)), fy = min(max(v - 0.5, 0), Double(h - 1))
                                let x0 = Int(fx), y0 = Int(fy)
                                let x1 = min(x0 + 1, w - 1), y1 = min(y0 + 1, h - 1)
                                let ax = fx - Double(x0), ay = fy - Double(y0)
                                for k in 0..<c {
                                    let p00 = Double(src[(y0 * w + x0) * c + k]), p10 = Double(src[(y0 * w + x1) * c + k])
                                    let p01 = Double(src[(y1 * w + x0) * c + k]), p11 = Double(src[(y1 * w + x1) * c + k])
                                    acc[k] += (p00 * (1 - ax) + p10 * ax) * (1 - ay) + (p01 * (1 - ax) + p11 * ax) * ay
                                }
                            }
                        }
                        let n = Double(samples * samples)
                        for k in 0..<c { dst[(y * outW + x) * c + k] = UInt8(min(255, max(0, acc[k] / n + 0.5))) }
                    }
                }
            }
        }
        return PixelImage(width: outW, height: outH, channels: c, pixels: out)
    }
}
