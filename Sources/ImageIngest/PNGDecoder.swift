import CPNG

/// PNG through libpng's simplified API, which reports problems in a message instead of printing them.
enum PNGDecoder {
    static func readHeader(_ bytes: [UInt8], source: String) throws(IngestError) -> (Int, Int) {
        try reading(bytes, source: source) { (image: inout png_image) throws(IngestError) in (Int(image.width), Int(image.height)) }
    }

    /// Decodes to 8-bit RGB or gray.
    static func decode(_ bytes: [UInt8], grayscale: Bool, source: String) throws(IngestError) -> PixelImage {
        try reading(bytes, source: source) { (image: inout png_image) throws(IngestError) -> PixelImage in
            image.format = grayscale ? 0 : 2  // PNG_FORMAT_GRAY, PNG_FORMAT_RGB (function-like macros in png.h)
            let channels = grayscale ? 1 : 3
            let w = Int(image.width), h = Int(image.height)
            // Transparent pixels are composed onto what the buffer holds: white, like paper.
            var pixels = [UInt8](repeating: 255, count: w * h * channels)
            let finished = pixels.withUnsafeMutableBufferPointer { out in
                png_image_finish_read(&image, nil, out.baseAddress, 0, nil)
            }
            guard finished != 0 else {
                throw IngestError(.corrupt, source: source, reason: "the PNG data cannot be decoded (\(message(image))); the file is damaged or truncated")
            }
            return PixelImage(width: w, height: h, channels: channels, pixels: pixels)
        }
    }

    /// `body` given the image with its header read. libpng keeps a pointer to the bytes from the
    /// first call to the last, so all of them happen inside the closure that lends them.
    private static func reading<T>(_ bytes: [UInt8], source: String,
                                   _ body: (inout png_image) throws(IngestError) -> T) throws(IngestError) -> T {
        try bytes.withUnsafeBufferPointer { (buf: UnsafeBufferPointer<UInt8>) throws(IngestError) -> T in
            var image = png_image()
            image.version = UInt32(PNG_IMAGE_VERSION)
            let begun = png_image_begin_read_from_memory(&image, buf.baseAddress, buf.count)
            // Freed on every way out, after a failure's message is read (a throw's argument comes first).
            defer { png_image_free(&image) }
            guard begun != 0 else {
                throw IngestError(.corrupt, source: source, reason: "the PNG header cannot be read (\(message(image))); the file is damaged")
            }
            return try body(&image)
        }
    }

    private static func message(_ image: png_image) -> String {
        withUnsafeBytes(of: image.message) { raw in
            let text = String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            return text.isEmpty ? "unknown libpng error" : text
        }
    }

    /// The EXIF orientation from an eXIf chunk, if the PNG has one (before the image data).
    static func exifOrientation(_ bytes: [UInt8]) -> Int? {
        for chunk in PNGChunks(bytes) {
            if chunk.type == "eXIf" { return TIFFReader(bytes, range: chunk.data)?.orientation }
            if chunk.type == "IDAT" || chunk.type == "IEND" { return nil }
        }
        return nil
    }
}
