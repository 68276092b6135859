/// An image file's bytes with what its header says, checked against the limits; nothing decoded yet.
public struct EncodedImage: Sendable {
    /// The input's name as the user gave it ("-" for stdin).
    public let source: String
    public let bytes: [UInt8]
    public let format: ImageFormat
    /// Size as stored in the file, before orientation.
    public let storedWidth: Int
    public let storedHeight: Int
    /// The EXIF orientation (`up` when the file has none).
    public let orientation: ImageOrientation
    /// The limits the image was checked against, applied again while decoding.
    public let limits: ImageLimits
    /// Bits per stored pixel (all channels), as the header says: what a full-size decoder holds.
    let storedBitsPerPixel: Int
    /// A progressive JPEG: libjpeg keeps every coefficient of the frame until the last scan.
    let progressive: Bool
    /// An uncompressed BMP or TIFF, read from its bytes in place (`RawLayout`).
    let rawRows: Bool
    /// A JPEG's segments as the one walk over them found them (the metadata report, the
    /// stripper and the decoder's warnings use it, rather than walk again).
    public let jpegStructure: JPEGStructure?

    /// True when the decoder can scale while decoding (JPEG's DCT scaling), so asking for a small
    /// size is cheap; other formats decode at full size and are resized afterwards.
    public var supportsScaledDecode: Bool { format == .jpeg }

    /// Size as a viewer shows it, after orientation.
    public var uprightWidth: Int { orientation.swapsAxes ? storedHeight : storedWidth }
    public var uprightHeight: Int { orientation.swapsAxes ? storedWidth : storedHeight }

    /// Detects the format and reads the header.
    /// - Throws: `IngestError` when the bytes are empty, too large, not an image, or the header is damaged.
    public init(bytes: [UInt8], source: String, limits: ImageLimits = ImageLimits()) throws(IngestError) {
        guard !bytes.isEmpty else {
            throw IngestError(.empty, source: source, reason: "the input is empty (0 bytes)")
        }
        guard bytes.count <= limits.maxBytes else {
            throw IngestError(.tooLarge, source: source,
                              reason: "the input is \(bytes.count) bytes, over the limit of \(limits.maxBytes) bytes; raise --max-megabytes if the file is genuine")
        }
        guard let format = ImageFormat.detect(bytes) else {
            throw IngestError(.notAnImage, source: source,
                              reason: "not a JPEG, PNG, TIFF, WebP, GIF, BMP or HEIC image (starts with \(ImageFormat.describeStart(bytes)))")
        }
        self.source = source
        self.bytes = bytes
        self.limits = limits
        self.format = format
        let header = try Self.readHeader(bytes, format: format, source: source, limits: limits)
        try Self.checkSize(header.width, header.height, format: format, source: source)
        (storedWidth, storedHeight) = (header.width, header.height)
        orientation = ImageOrientation(exif: header.orientation)
        storedBitsPerPixel = header.bitsPerPixel
        progressive = header.progressive
        jpegStructure = header.jpegStructure
        rawRows = (format == .bmp || format == .tiff) && RawLayout.of(bytes, format: format) != nil
        try Self.checkPixels(storedWidth, storedHeight, limits: limits, source: source)
        let cost = decodeCost(minimumLongSide: 1024)
        guard cost <= limits.maxDecodeBytes else {
            throw IngestError(.tooLarge, source: source,
                              reason: "decoding this \(storedWidth) x \(storedHeight) \(format.rawValue.uppercased()) would take about \(cost >> 20) MB of memory (its \(bytes.count >> 20) MB of data included), over the limit of \(limits.maxDecodeBytes >> 20) MB; raise --max-decode-megabytes if the photo is genuine")
        }
    }

    /// What the header of each format says, with the EXIF orientation where the format carries one.
    private struct Header {
        var width = 0, height = 0
        var orientation = 1
        var bitsPerPixel = 24
        var progressive = false
        var jpegStructure: JPEGStructure?
    }

    private static func readHeader(_ bytes: [UInt8], format: ImageFormat, source: String,
                                   limits: ImageLimits) throws(IngestError) -> Header {
        var header = Header()
        switch format {
        case .jpeg:
            // The frame size from our own segment walk first: a bomb is refused before libjpeg
            // allocates anything for it.
            let structure = JPEGStructure(bytes)
            header.jpegStructure = structure
            if let size = structure?.frameSize(in: bytes) {
                try checkPixels(size.width, size.height, limits: limits, source: source)
            }
            let jpeg = try JPEGDecoder.readHeader(bytes, source: source)
            (header.width, header.height) = (jpeg.width, jpeg.height)
            header.progressive = structure?.isProgressive ?? false
            if let structure, let exif = structure.exifPayload(in: bytes),
               let tiff = TIFFReader(bytes, range: exif), let o = tiff.orientation {
                header.orientation = o
            }
        case .heic:
            // libheif applies the container's rotation and mirroring itself: the size is upright.
            (header.width, header.height) = try HEIFDecoder.readHeader(bytes, source: source)
        case .png:
            (header.width, header.height) = try PNGDecoder.readHeader(bytes, source: source)
            try checkPixels(header.width, header.height, limits: limits, source: source)
            if let o = PNGDecoder.exifOrientation(bytes) { header.orientation = o }
        case .bmp where RawLayout.bmpHeader(bytes) != nil:
            // Leptonica reads a whole BMP to give its header: 100 MB for a 5000 x 5000 one, before
            // any limit was checked. Its header is read here.
            let bmp = RawLayout.bmpHeader(bytes)!
            (header.width, header.height, header.bitsPerPixel) = (bmp.width, bmp.height, bmp.bits >= 24 ? 32 : max(bmp.bits, 8))
        default:
            let lept = try LeptonicaDecoder.readHeader(bytes, format: format, source: source)
            (header.width, header.height) = (lept.width, lept.height)
            header.bitsPerPixel = lept.bitsPerPixel
            if format == .tiff, let tiff = TIFFReader(bytes, range: 0..<bytes.count), let o = tiff.orientation {
                header.orientation = o
            }
        }
        return header
    }

    /// About how many bytes scanning the image holds at its peak when the card is read at
    /// `minimumLongSide` pixels: its encoded bytes (the file, or the image the stream assembler
    /// cut out), the decoder's own buffers (a progressive JPEG's coefficients, leptonica's
    /// 32-bit image and, for other depths, its 32-bit copy, libheif's planes) and ours (a colour
    /// working copy, a gray one, a gray decode at the card's size when the card is small in the
    /// frame). Uncompressed BMP and TIFF are read in place, row by row (`RawLayout`).
    public func decodeCost(minimumLongSide: Int) -> Int {
        let pixels = storedWidth * storedHeight
        switch format {
        case .jpeg:
            var m = 8
            let long = max(storedWidth, storedHeight)
            for k in 1...8 where (long * k + 7) / 8 >= minimumLongSide { m = k; break }
            let scaled = pixels * m * m / 64
            return bytes.count + scaled * 4 + pixels + (progressive ? pixels * 4 : 0)
        case .png: return bytes.count + pixels * 7
        case .heic: return bytes.count + pixels * 8
        default:
            // Ours: the working colour image (at most 3/4 of a byte a pixel once resized) and a
            // full-size gray one; leptonica's: its image, and a 32-bit copy of other depths.
            let ours = pixels * 2
            if rawRows { return bytes.count + ours }
            let source = pixels * max(storedBitsPerPixel, 1) / 8
            return bytes.count + source + (storedBitsPerPixel == 32 ? 0 : pixels * 4) + ours
        }
    }

    /// Refuses a header that gives no pixels, saying so (a 0 x 0 image is not "over the limit").
    static func checkSize(_ width: Int, _ height: Int, format: ImageFormat, source: String) throws(IngestError) {
        guard width <= 0 || height <= 0 else { return }
        throw IngestError(.corrupt, source: source,
                          reason: "the \(format.rawValue.uppercased()) header gives \(width) x \(height) pixels: no image; the file is damaged")
    }

    static func checkPixels(_ width: Int, _ height: Int, limits: ImageLimits, source: String) throws(IngestError) {
        let pixels = width.multipliedReportingOverflow(by: height)
        guard !pixels.overflow, pixels.partialValue <= limits.maxPixels else {
            throw IngestError(.tooLarge, source: source,
                              reason: "the image claims \(width) x \(height) pixels, over the limit of \(limits.maxPixels / 1_000_000) megapixels; raise --max-megapixels if the photo is genuine")
        }
    }

    /// Decodes the image (upright, EXIF orientation applied, unless `applyOrientation` is false), at the smallest size whose long side
    /// is still at least `minimumLongSide` (never larger than the file; nil decodes at full size).
    /// JPEG uses libjpeg-turbo's DCT-domain scaling, so a small request is fast.
    /// - Throws: `IngestError` when the data is corrupt.
    /// With `applyOrientation` false the pixels stay as stored; `orientation` says how to turn them.
    public func decode(minimumLongSide: Int? = nil, grayscale: Bool = false,
                       applyOrientation: Bool = true) throws(IngestError) -> DecodedImage {
        let storedLong = max(storedWidth, storedHeight)
        var warnings: [String] = []
        var image: PixelImage
        switch format {
        case .jpeg:
            let scaleNum = minimumLongSide.map { Self.jpegScale(storedLong: storedLong, minimumLongSide: $0) } ?? 8
            let (decoded, warningCount) = try JPEGDecoder.decode(bytes, scaleNum: scaleNum, grayscale: grayscale, source: source)
            image = decoded
            warnings += jpegWarnings(warningCount)
        case .png:
            image = try PNGDecoder.decode(bytes, grayscale: grayscale, source: source)
        case .heic:
            image = try HEIFDecoder.decode(bytes, grayscale: grayscale, limits: limits, source: source)
        default:
            // Read and resized row by row: the file's pixels are never whole in memory a second time.
            let size = { (w: Int, h: Int) in Self.decodedSize(width: w, height: h, minimumLongSide: minimumLongSide) }
            if let raw = RawLayout.of(bytes, format: format) {
                image = raw.decode(bytes, grayscale: grayscale, size: size(raw.width, raw.height))
            } else {
                image = try LeptonicaDecoder.decode(bytes, format: format, grayscale: grayscale, size: size, source: source)
            }
        }
        if format == .png || format == .heic {
            let size = Self.decodedSize(width: image.width, height: image.height, minimumLongSide: minimumLongSide)
            if size != (image.width, image.height) { image = image.resized(width: size.width, height: size.height) }
        }
        if applyOrientation { image = image.applyingOrientation(orientation) }
        return DecodedImage(image: image, warnings: warnings)
    }
}

extension EncodedImage {
    /// The size a decoder without DCT scaling gives: its own, or an integer factor smaller when
    /// it is at least twice `minimumLongSide` (the factor that keeps the long side above it).
    static func decodedSize(width: Int, height: Int, minimumLongSide: Int?) -> (width: Int, height: Int) {
        let long = max(width, height)
        guard let minimumLongSide, minimumLongSide > 0, long >= 2 * minimumLongSide else { return (width, height) }
        let factor = long / minimumLongSide
        return (max(1, width / factor), max(1, height / factor))
    }

    /// The smallest DCT scale (n/8) at which the long side is at least `minimumLongSide`.
    static func jpegScale(storedLong: Int, minimumLongSide: Int) -> Int {
        (1...8).first { (storedLong * $0 + 7) / 8 >= minimumLongSide } ?? 8
    }

    /// What libjpeg's recoverable errors mean for the record.
    func jpegWarnings(_ count: Int) -> [String] {
        guard count > 0 else { return [] }
        if jpegStructure?.sawEndOfImage == false {
            return ["truncated: the JPEG data ends early; the missing part is filled in"]
        }
        return ["corrupt-data: libjpeg reported \(count) recoverable error(s) in the image data"]
    }

    /// A JPEG decoded once, in colour, at the smallest DCT scale whose long side is at least
    /// `minimumLongSide`, in stored orientation, and made row by row, as the decoder hands the rows
    /// over, into the two images card detection and OCR use: the gray image at that size and a
    /// colour copy resized to `smallLongSide` (as `resized(longSide:)` makes it, byte for byte).
    /// The colour image itself is never whole in memory. Nil when the photo is not a JPEG, or
    /// when at that scale it is not more than 1.5 times `smallLongSide` (no resize is then wanted).
    /// - Throws: `IngestError` when the data is corrupt.
    public func decodeGrayAndSmall(minimumLongSide: Int, smallLongSide: Int) throws(IngestError) -> GrayAndSmall? {
        guard format == .jpeg else { return nil }
        let scaleNum = Self.jpegScale(storedLong: max(storedWidth, storedHeight), minimumLongSide: minimumLongSide)
        return try JPEGDecoder.decodeGrayAndSmall(bytes, scaleNum: scaleNum, smallLongSide: smallLongSide, source: source)
            .map { GrayAndSmall(gray: DecodedImage(image: $0.gray, warnings: jpegWarnings($0.warnings)), small: $0.small,
                                grayMilliseconds: $0.grayMs, smallMilliseconds: $0.smallMs) }
    }
}

/// What `decodeGrayAndSmall` makes, and the time spent making each image from the decoded rows
/// (the rest of the call is decoding).
public struct GrayAndSmall: Sendable {
    public let gray: DecodedImage
    public let small: PixelImage
    public let grayMilliseconds: Double
    public let smallMilliseconds: Double
}

/// A decoded image (upright unless asked to stay as stored) and the decoder's warnings (truncation, recoverable corruption).
public struct DecodedImage: Sendable {
    public let image: PixelImage
    public let warnings: [String]

    public init(image: PixelImage, warnings: [String]) {
        self.image = image
        self.warnings = warnings
    }
}
