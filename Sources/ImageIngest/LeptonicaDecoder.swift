import CLeptonica
import CTIFF

/// PNG, TIFF, WebP, GIF and BMP through leptonica's in-memory readers.
enum LeptonicaDecoder {
    /// Leptonica prints its own errors to stderr unless told not to; done once per process.
    private static let silenced: Bool = {
        _ = setMsgSeverity(Int32(L_SEVERITY_NONE))
        // libtiff, which leptonica calls for TIFF, prints warnings and errors to stderr by default.
        _ = TIFFSetWarningHandler(nil)
        _ = TIFFSetErrorHandler(nil)
        return true
    }()

    static func readHeader(_ bytes: [UInt8], format: ImageFormat, source: String) throws(IngestError) -> (width: Int, height: Int, bitsPerPixel: Int) {
        _ = silenced
        var fmt: Int32 = 0, w: Int32 = 0, h: Int32 = 0, bps: Int32 = 0, spp: Int32 = 0, cmap: Int32 = 0
        let rc = bytes.withUnsafeBufferPointer { buf in
            pixReadHeaderMem(buf.baseAddress, buf.count, &fmt, &w, &h, &bps, &spp, &cmap)
        }
        guard rc == 0, w > 0, h > 0 else {
            throw IngestError(.corrupt, source: source,
                              reason: "the \(format.rawValue.uppercased()) header cannot be read; the file is damaged or truncated")
        }
        // Leptonica holds RGB as 32 bits a pixel, other depths as stored (colormaps expand later).
        let bits = spp >= 3 ? 32 : Int(bps) * Int(max(spp, 1))
        return (Int(w), Int(h), cmap != 0 ? max(bits, 8) : bits)
    }

    /// The image at `size` (its own or smaller, resized as its rows are read). A 32-bit image is
    /// read in place; other depths through one 32-bit copy (counted in `EncodedImage.decodeCost`).
    static func decode(_ bytes: [UInt8], format: ImageFormat, grayscale: Bool, size: ((Int, Int) -> (width: Int, height: Int)),
                       source: String) throws(IngestError) -> PixelImage {
        _ = silenced
        let read: UnsafeMutablePointer<PIX>? = bytes.withUnsafeBufferPointer { buf in
            pixReadMem(buf.baseAddress, buf.count)
        }
        var owned = read
        defer { pixDestroy(&owned) }
        guard let pix = read else {
            throw IngestError(.corrupt, source: source,
                              reason: "the \(format.rawValue.uppercased()) data cannot be decoded; the file is damaged or truncated")
        }
        var converted: UnsafeMutablePointer<PIX>? = pixGetDepth(pix) == 32 ? nil : pixConvertTo32(pix)
        defer { pixDestroy(&converted) }
        if pixGetDepth(pix) != 32 { pixDestroy(&owned) }  // the copy is what is read from now on
        guard let rgba = converted ?? owned else {
            throw IngestError(.corrupt, source: source, reason: "the image's pixel format cannot be converted to RGB")
        }
        let w = Int(pixGetWidth(rgba)), h = Int(pixGetHeight(rgba))
        let wpl = Int(pixGetWpl(rgba))
        guard w > 0, h > 0, let data = pixGetData(rgba) else {
            throw IngestError(.corrupt, source: source, reason: "the image has no pixel data")
        }
        var sink = RowSink(width: w, height: h, grayscale: grayscale, size: size(w, h))
        var row = [UInt8](repeating: 0, count: w * 3)
        row.withUnsafeMutableBufferPointer { rgb in
            for y in 0..<h {
                let words = data + y * wpl
                for x in 0..<w {
                    let v = words[x]
                    (rgb[3 * x], rgb[3 * x + 1], rgb[3 * x + 2]) = (UInt8((v >> 24) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF))
                }
                sink.add(rgb: rgb.baseAddress!)
            }
        }
        return sink.image
    }
}
