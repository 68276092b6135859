/// Uncompressed BMP and TIFF read straight from the file's bytes, a row at a time, into the image
/// the caller wants (gray or RGB, resized as the rows come): no full-size copy of the pixels is
/// ever made. Through leptonica a 5000 x 5000 RGB TIFF took its 75 MB of bytes, a 100 MB 32-bit
/// image and its 100 MB copy, then a 75 MB RGB image: 402 MB at its peak. Other BMP and TIFF
/// variants (compressed, tiled, 16-bit, palettes) still go through leptonica.
struct RawLayout: Sendable {
    enum Order: Sendable { case bgr, rgb, gray, grayInverted }
    let width: Int
    let height: Int
    let order: Order
    /// Bytes per pixel in the file (an alpha channel after the colours is skipped).
    let bytesPerPixel: Int
    /// Where each row starts, top row first.
    let rowStarts: [Int]

    /// The layout of an uncompressed 24/32-bit BMP or an uncompressed, stripped, 8-bit gray or
    /// RGB(A) TIFF whose rows all lie inside `bytes`; nil otherwise.
    static func of(_ bytes: [UInt8], format: ImageFormat) -> RawLayout? {
        switch format {
        case .bmp: return bmp(bytes)
        case .tiff: return tiff(bytes)
        default: return nil
        }
    }

    /// A BMP's size and depth from its BITMAPINFOHEADER (or a later one); nil for other headers.
    static func bmpHeader(_ b: [UInt8]) -> (width: Int, height: Int, rawHeight: Int, bits: Int, compression: Int, offset: Int, header: Int)? {
        guard b.count >= 54, b[0] == 0x42, b[1] == 0x4D else { return nil }
        func u32(_ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 | Int(b[i + 2]) << 16 | Int(b[i + 3]) << 24 }
        func u16(_ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
        let width = Int(Int32(truncatingIfNeeded: u32(18))), rawHeight = Int(Int32(truncatingIfNeeded: u32(22)))
        guard u32(14) >= 40, width > 0, rawHeight != 0, rawHeight != Int(Int32.min), u16(26) == 1 else { return nil }
        return (width, abs(rawHeight), rawHeight, u16(28), u32(30), u32(10), u32(14))
    }

    static func bmp(_ b: [UInt8]) -> RawLayout? {
        guard let (width, height, rawHeight, bits, compression, offset, header) = bmpHeader(b),
              bits == 24 || bits == 32, compression == 0 else { return nil }
        let stride = (width * bits + 31) / 32 * 4
        guard width <= 1 << 20, height <= 1 << 20, offset >= 14 + header, offset + stride * height <= b.count else { return nil }
        // Bottom-up unless the height is negative.
        let starts = (0..<height).map { y in offset + stride * (rawHeight > 0 ? height - 1 - y : y) }
        return RawLayout(width: width, height: height, order: .bgr, bytesPerPixel: bits / 8, rowStarts: starts)
    }

    static func tiff(_ b: [UInt8]) -> RawLayout? {
        guard let t = TIFFReader(b, range: 0..<b.count) else { return nil }
        let ifd = t.firstIFD
        func tag(_ id: Int) -> Int? { t.integer(tag: id, inIFDAt: ifd) }
        let spp = tag(277) ?? 1, bits = t.integers(tag: 258, inIFDAt: ifd)
        guard let width = tag(256), let height = tag(257), width > 0, height > 0, width <= 1 << 20, height <= 1 << 20,
              (tag(259) ?? 1) == 1, (tag(284) ?? 1) == 1, tag(322) == nil, tag(324) == nil, (1...4).contains(spp),
              !bits.isEmpty, bits.allSatisfy({ $0 == 8 }), let photometric = tag(262) else { return nil }
        let order: Order
        switch (photometric, spp) {
        case (0, 1...2): order = .grayInverted
        case (1, 1...2): order = .gray
        case (2, 3...4): order = .rgb
        default: return nil
        }
        let offsets = t.integers(tag: 273, inIFDAt: ifd)
        let rowsPerStrip = min(max(tag(278) ?? height, 1), height)
        let stride = width * spp
        guard offsets.count == (height + rowsPerStrip - 1) / rowsPerStrip else { return nil }
        var starts: [Int] = []
        starts.reserveCapacity(height)
        for y in 0..<height {
            let start = offsets[y / rowsPerStrip] + (y % rowsPerStrip) * stride
            guard start >= 0, start + stride <= b.count else { return nil }
            starts.append(start)
        }
        return RawLayout(width: width, height: height, order: order, bytesPerPixel: spp, rowStarts: starts)
    }

    /// The image at `size` (the file's own, or smaller: area-averaged as the rows come).
    func decode(_ bytes: [UInt8], grayscale: Bool, size: (width: Int, height: Int)) -> PixelImage {
        var sink = RowSink(width: width, height: height, grayscale: grayscale, size: size)
        var rgb = [UInt8](repeating: 0, count: width * 3)
        bytes.withUnsafeBufferPointer { src in
            rgb.withUnsafeMutableBufferPointer { row in
                for y in 0..<height {
                    let p = src.baseAddress! + rowStarts[y]
                    for x in 0..<width {
                        let q = p + x * bytesPerPixel
                        switch order {
                        case .bgr: (row[3 * x], row[3 * x + 1], row[3 * x + 2]) = (q[2], q[1], q[0])
                        case .rgb: (row[3 * x], row[3 * x + 1], row[3 * x + 2]) = (q[0], q[1], q[2])
                        case .gray: (row[3 * x], row[3 * x + 1], row[3 * x + 2]) = (q[0], q[0], q[0])
                        case .grayInverted: (row[3 * x], row[3 * x + 1], row[3 * x + 2]) = (255 - q[0], 255 - q[0], 255 - q[0])
                        }
                    }
                    sink.add(rgb: row.baseAddress!)
                }
            }
        }
        return sink.image
    }
}

/// A decoder's rows, top to bottom, as RGB (3 bytes a pixel), made into a gray or RGB image of
/// `size`: kept as they are at the file's size, or resized as they come (`RowResizer`: the same
/// bytes as decoding whole and then `resized(width:height:)`).
struct RowSink {
    private let width: Int, grayscale: Bool
    private var resizer: RowResizer?
    private var whole: [UInt8] = []
    private var row: [UInt8]
    private var rows = 0
    private let size: (width: Int, height: Int)

    init(width: Int, height: Int, grayscale: Bool, size: (width: Int, height: Int)) {
        self.width = width
        self.grayscale = grayscale
        self.size = size
        let channels = grayscale ? 1 : 3
        row = [UInt8](repeating: 0, count: width * channels)
        if size.width == width && size.height == height {
            whole = [UInt8](repeating: 0, count: width * height * channels)
        } else {
            resizer = RowResizer(width: width, height: height, channels: channels, newWidth: size.width, newHeight: size.height)
        }
    }

    mutating func add(rgb: UnsafePointer<UInt8>) {
        let c = grayscale ? 1 : 3
        row.withUnsafeMutableBufferPointer { out in
            if grayscale {
                for x in 0..<width {
                    out[x] = UInt8((UInt32(rgb[3 * x]) * 77 + UInt32(rgb[3 * x + 1]) * 150 + UInt32(rgb[3 * x + 2]) * 29) >> 8)
                }
            } else {
                out.baseAddress!.update(from: rgb, count: width * 3)
            }
        }
        if resizer != nil {
            row.withUnsafeBufferPointer { resizer!.add(row: $0.baseAddress!) }
        } else {
            let start = rows * width * c
            whole.withUnsafeMutableBufferPointer { dst in
                row.withUnsafeBufferPointer { (dst.baseAddress! + start).update(from: $0.baseAddress!, count: width * c) }
            }
        }
        rows += 1
    }

    var image: PixelImage {
        resizer?.image ?? PixelImage(width: size.width, height: size.height, channels: grayscale ? 1 : 3, pixels: whole)
    }
}

extension TIFFReader {
    /// Every value of a SHORT or LONG tag in the IFD at `offset` (at most 1 << 20); empty when absent.
    func integers(tag: Int, inIFDAt offset: Int) -> [Int] {
        guard let e = entries(ofIFDAt: offset).first(where: { $0.tag == tag }), e.type == 3 || e.type == 4,
              (1...(1 << 20)).contains(e.count) else { return [] }
        let size = e.type == 3 ? 2 : 4
        let at = e.count * size <= 4 ? e.valueOffset : u32(e.valueOffset)
        guard at >= 0 else { return [] }
        return (0..<e.count).map { k in size == 2 ? u16(at + k * size) : u32(at + k * size) }
    }
}
