import CJPEGShim

/// Writes a `PixelImage` as a baseline JPEG through libjpeg-turbo: the pixels and a bare JFIF
/// header, nothing else (no EXIF, no comment, no thumbnail).
public enum JPEGEncoder {
    /// The JPEG bytes of `image` (gray or RGB) at `quality` 1-100.
    /// - Throws: `IngestError` (`.encodeFailed`) when libjpeg refuses the image.
    /// `maxLength`: the most bytes the JPEG may take (default: twice the pixels' bytes and 64 KB,
    /// more than any quality makes).
    public static func encode(_ image: PixelImage, quality: Int = 80, maxLength: Int? = nil, source: String) throws(IngestError) -> [UInt8] {
        guard image.channels == 1 || image.channels == 3 else {
            throw IngestError(.encodeFailed, source: source, reason: "a JPEG holds gray or RGB pixels, not \(image.channels) channels")
        }
        var out: UnsafeMutablePointer<UInt8>?
        var length: UInt = 0
        var message = [CChar](repeating: 0, count: 200)
        let rc = image.pixels.withUnsafeBufferPointer { px in
            cs_jpeg_encode(px.baseAddress, Int32(image.width), Int32(image.height), Int32(image.channels), Int32(quality),
                           max(1024, maxLength ?? image.pixels.count * 2 + 65536), &out, &length, &message, message.count)
        }
        defer { cs_jpeg_free(out) }
        guard rc == 0, let out, length > 0 else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw IngestError(.encodeFailed, source: source,
                              reason: "libjpeg could not encode the \(image.width)x\(image.height) image" + (reason.isEmpty ? "" : ": " + reason))
        }
        return Array(UnsafeBufferPointer(start: out, count: Int(length)))
    }
}
