import CPNG

/// Writes a `PixelImage` as a PNG: image chunks only (IHDR, IDAT, IEND), so nothing but the
/// pixels leaves through it: no text, time, colour-profile or physical-size chunks.
public enum PNGEncoder {
    /// The PNG bytes of `image`.
    /// - Throws: `IngestError` (`.encodeFailed`) when libpng refuses the image.
    public static func encode(_ image: PixelImage, source: String) throws(IngestError) -> [UInt8] {
        var png = png_image()
        png.version = png_uint_32(PNG_IMAGE_VERSION)
        png.width = png_uint_32(image.width)
        png.height = png_uint_32(image.height)
        png.format = image.channels == 3 ? PNG_FORMAT_FLAG_COLOR : png_uint_32(PNG_FORMAT_GRAY)  // RGB or gray, 8-bit
        var size: png_alloc_size_t = 0
        let stride = png_int_32(image.width * image.channels)
        // First pass: the size libpng needs; second: the bytes.
        let sized = image.pixels.withUnsafeBytes { raw in
            png_image_write_to_memory(&png, nil, &size, 0, raw.baseAddress, stride, nil)
        }
        guard sized != 0, size > 0 else {
            png_image_free(&png)
            throw IngestError(.encodeFailed, source: source, reason: "libpng could not encode the \(image.width)x\(image.height) image")
        }
        var out = [UInt8](repeating: 0, count: Int(size))
        let written = out.withUnsafeMutableBytes { dst in
            image.pixels.withUnsafeBytes { raw in
                png_image_write_to_memory(&png, dst.baseAddress, &size, 0, raw.baseAddress, stride, nil)
            }
        }
        png_image_free(&png)
        guard written != 0 else {
            throw IngestError(.encodeFailed, source: source, reason: "libpng could not encode the \(image.width)x\(image.height) image")
        }
        return Array(out.prefix(Int(size)))
    }
}
