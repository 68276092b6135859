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

    /// Decodes in colour at `scaleNum`/8, row by row, into a gray image of the decoded size and a
    /// colour copy resized to `smallLongSide`; nil when the decoded long side is not over 1.5
    /// times `smallLongSide`.
    static func decodeGrayAndSmall(_ bytes: [UInt8], scaleNum: Int, smallLongSide: Int, source: String)
        throws(IngestError) -> (gray: PixelImage, small: PixelImage, warnings: Int, grayMs: Double, smallMs: Double)?
    {
        var message = [CChar](repeating: 0, count: 200)
        var info = cs_jpeg_info()
        let sizeRC = bytes.withUnsafeBufferPointer { buf in
            cs_jpeg_read_info(buf.baseAddress, buf.count, Int32(scaleNum), 0, &info, &message, message.count)
        }
        let (w, h) = (Int(info.outputWidth), Int(info.outputHeight))
        guard sizeRC == 0, w > 0, h > 0, info.outputChannels == 3 else {
            throw IngestError(.corrupt, source: source, reason: "the JPEG cannot be decoded (\(Self.text(message)))")
        }
        guard max(w, h) > smallLongSide * 3 / 2 else { return nil }
        let sink = RowSink(width: w, height: h, smallLongSide: smallLongSide)
        var warnings: Int32 = 0, rows: Int32 = 0, grayNanoseconds: Int64 = 0
        var row = [UInt8](repeating: 0, count: w * 3)
        var rc: Int32 = 0
        let gray = [UInt8](unsafeUninitializedCapacity: w * h) { grayBuffer, initialized in
            rc = withExtendedLifetime(sink) { bytes.withUnsafeBufferPointer { buf in
                row.withUnsafeMutableBufferPointer { rowBuffer in
                    cs_jpeg_decode_rows(buf.baseAddress, buf.count, Int32(scaleNum), rowBuffer.baseAddress, rowBuffer.count,
                                        grayBuffer.baseAddress, grayBuffer.count, RowSink.onRow,
                                        Unmanaged.passUnretained(sink).toOpaque(), &grayNanoseconds, &warnings, &rows,
                                        &message, message.count)
                }
            } }
            // After an error (thrown below) the buffer is still left defined.
            if rc != 0 { grayBuffer.initialize(repeating: 0) }
            initialized = w * h
        }
        guard rc == 0 else {
            throw IngestError(.corrupt, source: source,
                              reason: "the JPEG data is corrupt (\(Self.text(message))); re-export or re-take the photo")
        }
        return (PixelImage(width: w, height: h, channels: 1, pixels: gray), sink.small.image, Int(warnings),
                Double(grayNanoseconds) / 1e6, sink.smallTime.milliseconds)
    }

    /// Where `decodeGrayAndSmall`'s colour rows go as they are decoded: into the preview's resize.
    private final class RowSink {
        var small: RowResizer
        var smallTime = Duration.zero
        let clock = ContinuousClock()

        init(width: Int, height: Int, smallLongSide: Int) {
            let size = PixelImage.size(width: width, height: height, longSide: smallLongSide)
            small = RowResizer(width: width, height: height, channels: 3, newWidth: size.width, newHeight: size.height)
        }

        /// The shim's callback: the sink is the context, kept alive by the caller for the whole decode.
        static let onRow: cs_jpeg_row_fn = { context, _, row in
            guard let context, let row else { return }
            Unmanaged<RowSink>.fromOpaque(context).takeUnretainedValue().take(row)
        }

        func take(_ row: UnsafePointer<UInt8>) {
            let start = clock.now
            small.add(row: row)
            smallTime += clock.now - start
        }
    }

    static func text(_ message: [CChar]) -> String {
        let bytes = message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        let s = String(decoding: bytes, as: UTF8.self)
        return s.isEmpty ? "unknown libjpeg error" : s
    }
}
