import ImageIngest

/// A picture of what detection weighed, for `--debug-dir`: the photo's preview, dimmed, with the
/// runners-up as thin yellow outlines and the chosen one thick: green for a card outline, blue for
/// a text region. Nothing is drawn for the whole frame but the runners-up.
public enum DetectionOverlay {
    static let runnerUp: (UInt8, UInt8, UInt8) = (250, 210, 40)
    static let outline: (UInt8, UInt8, UInt8) = (40, 220, 90)
    static let textRegion: (UInt8, UInt8, UInt8) = (60, 150, 255)

    /// The overlay on `preview` (stored orientation); quadrilaterals normalised to it (0...1).
    public static func draw(on preview: PixelImage, alternatives: [Quadrilateral], chosen: Quadrilateral?,
                            method: CardDetector.Method) -> PixelImage {
        var canvas = dimmedRGB(preview)
        let thin = max(1, preview.longSide / 400), thick = max(2, preview.longSide / 160)
        for quad in alternatives.reversed() { stroke(quad, on: &canvas, width: thin, colour: runnerUp) }
        if let chosen {
            stroke(chosen, on: &canvas, width: thick, colour: method == .outline ? outline : textRegion)
        }
        return canvas
    }

    /// The preview in RGB at two thirds of its brightness, so the outlines stand out.
    static func dimmedRGB(_ image: PixelImage) -> PixelImage {
        let n = image.width * image.height
        var out = [UInt8](repeating: 0, count: n * 3)
        for i in 0..<n {
            for c in 0..<3 {
                let v = image.channels == 3 ? image.pixels[3 * i + c] : image.pixels[i]
                out[3 * i + c] = UInt8(UInt16(v) * 2 / 3)
            }
        }
        return PixelImage(width: image.width, height: image.height, channels: 3, pixels: out)
    }

    static func stroke(_ quad: Quadrilateral, on canvas: inout PixelImage, width: Int, colour: (UInt8, UInt8, UInt8)) {
        let points = quad.scaled(width: Double(canvas.width), height: Double(canvas.height))
        for i in 0..<4 {
            let a = points[i], b = points[(i + 1) % 4]
            let steps = max(1, Int(max(abs(b.x - a.x), abs(b.y - a.y)).rounded(.up)))
            for s in 0...steps {
                let t = Double(s) / Double(steps)
                dot(x: Int((a.x + (b.x - a.x) * t).rounded()), y: Int((a.y + (b.y - a.y) * t).rounded()),
                    radius: width / 2, on: &canvas, colour: colour)
            }
        }
    }

    static func dot(x: Int, y: Int, radius: Int, on canvas: inout PixelImage, colour: (UInt8, UInt8, UInt8)) {
        let y0 = max(0, y - radius), y1 = min(canvas.height - 1, y + radius)
        let x0 = max(0, x - radius), x1 = min(canvas.width - 1, x + radius)
        guard y0 <= y1, x0 <= x1 else { return }  // outside the picture (a corner beyond the frame)
        for yy in y0...y1 {
            for xx in x0...x1 {
                let i = (yy * canvas.width + xx) * 3
                canvas.pixels[i] = colour.0
                canvas.pixels[i + 1] = colour.1
                canvas.pixels[i + 2] = colour.2
            }
        }
    }
}
