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

    static func decode(_ bytes: [UInt8], format: ImageFormat, grayscale: Bool, source: String) throws(IngestError) -> PixelImage {
        _ = silenced
        let pix: UnsafeMutablePointer<PIX>? = bytes.withUnsafeBufferPointer { buf in
            pixReadMem(buf.baseAddress, buf.count)
        }
        guard var pix else {
            throw IngestError(.corrupt, source: source,
                              reason: "the \(format.rawValue.uppercased()) data cannot be decoded; the file is damaged or truncated")
        }
        var owned: UnsafeMutablePointer<PIX>? = pix
        defer { pixDestroy(&owned) }
        guard let rgba = pixConvertTo32(pix) else {
            throw IngestError(.corrupt, source: source, reason: "the image's pixel format cannot be converted to RGB")
        }
        pix = rgba
        var converted: UnsafeMutablePointer<PIX>? = rgba
        defer { pixDestroy(&converted) }
        let w = Int(pixGetWidth(rgba)), h = Int(pixGetHeight(rgba))
        let wpl = Int(pixGetWpl(rgba))
        guard let data = pixGetData(rgba) else {
            throw IngestError(.corrupt, source: source, reason: "the image has no pixel data")
        }
        return PixelImage.packing(width: w, height: h, grayscale: grayscale) { x, y in
            let v = data[y * wpl + x]
            return (UInt8((v >> 24) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF))
        }
    }
}
