import CJPEGShim

/// libjpeg-turbo through the project's setjmp shim: errors come back as values, never exit().
enum JPEGDecoder {
    struct Header {
        let width: Int
        let height: Int
        let colorClass: Int
        let progressive: Bool
    }

    static func readHeader(_ bytes: [UInt8], source: String) throws(IngestError) -> Header {
        var info = cs_jpeg_info()
        var message = [CChar](repeating: 0, count: 200)
        let rc = bytes.withUnsafeBufferPointer { buf in
            cs_jpeg_read_info(buf.baseAddress, buf.count, 8, 0, &info, &message, message.count)
        }
        guard rc == 0 else {
            throw IngestError(.corrupt, source: source,
                              reason: "the JPEG header cannot be read (\(Self.text(message))); the file is damaged or not a JPEG")
        }
        return Header(width: Int(info.width), height: Int(info.height), colorClass: Int(info.colorSpace),
                      progressive: info.progressive != 0)
    }

    /// Decodes at `scaleNum`/8, gray or RGB. Returns the image and libjpeg's warning count.
    static func decode(_ bytes: [UInt8], scaleNum: Int, grayscale: Bool, source: String)
        throws(IngestError) -> (PixelImage, warnings: Int)
    {
        var message = [CChar](repeating: 0, count: 200)
        var info = cs_jpeg_info()
        let gray: Int32 = grayscale ? 1 : 0
        let sizeRC = bytes.withUnsafeBufferPointer { buf in
            cs_jpeg_read_info(buf.baseAddress, buf.count, Int32(scaleNum), gray, &info, &message, message.count)
        }
        let (w, h, c) = (info.outputWidth, info.outputHeight, info.outputChannels)
        guard sizeRC == 0, w > 0, h > 0 else {
            throw IngestError(.corrupt, source: source, reason: "the JPEG cannot be decoded (\(Self.text(message)))")
        }
        let count = Int(w) * Int(h) * Int(c)
        var warnings: Int32 = 0, rows: Int32 = 0
        var rc: Int32 = 0
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            rc = bytes.withUnsafeBufferPointer { buf in
                cs_jpeg_decode(buf.baseAddress, buf.count, Int32(scaleNum), gray, out.baseAddress, count,
                               &warnings, &rows, &message, message.count)
            }
            if rc != 0 {
                // Leave a defined buffer behind even on failure.
                out.initialize(repeating: 0)
            }
            initialized = count
        }
        guard rc == 0 else {
            throw IngestError(.corrupt, source: source,
                              reason: "the JPEG data is corrupt (\(Self.text(message))); re-export or re-take the photo")
        }
        return (PixelImage(width: Int(w), height: Int(h), channels: Int(c), pixels: pixels), Int(warnings))
    }

    static func text(_ message: [CChar]) -> String {
        let bytes = message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        let s = String(decoding: bytes, as: UTF8.self)
        return s.isEmpty ? "unknown libjpeg error" : s
    }
}
