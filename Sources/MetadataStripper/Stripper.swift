import ImageIngest

/// Why a file could not be stripped. Messages name the file and say what to do.
public struct StripError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        case unsupportedFormat = "unsupported-format"
        case damaged = "corrupt-image"
        case notAnImage = "not-an-image"
    }
    public let code: Code
    public let source: String
    public let reason: String
    public init(_ code: Code, source: String, reason: String) {
        self.code = code; self.source = source; self.reason = reason
    }
    public var description: String { "\(source): \(reason)" }
}

/// What to keep when stripping.
public struct StripOptions: Sendable, Equatable {
    /// Write a minimal EXIF block holding only the orientation, so the copy still displays upright.
    public var keepOrientation = true
    /// Keep ICC colour profiles (APP2 ICC_PROFILE, PNG iCCP).
    public var keepICC = false
    public init(keepOrientation: Bool = true, keepICC: Bool = false) {
        self.keepOrientation = keepOrientation
        self.keepICC = keepICC
    }
}

/// Lossless metadata removal: JPEG by segments, PNG by chunks. The image data is copied byte for
/// byte; nothing is decoded or re-encoded.
public enum Stripper {
    /// Returns the sanitized file.
    /// - Throws: `StripError` for formats other than JPEG and PNG, and for files whose structure
    ///   is damaged (they are left as they are).
    public static func strip(_ bytes: [UInt8], source: String, options: StripOptions = StripOptions()) throws(StripError) -> [UInt8] {
        switch ImageFormat.detect(bytes) {
        case .jpeg?: return try stripJPEG(bytes, source: source, options: options)
        case .png?: return try stripPNG(bytes, source: source, options: options)
        case let format?:
            throw StripError(.unsupportedFormat, source: source,
                             reason: "\(format.rawValue.uppercased()) files cannot be stripped losslessly here; convert to JPEG or PNG, or use exiftool")
        case nil:
            throw StripError(.notAnImage, source: source,
                             reason: "not a JPEG or PNG image (starts with \(ImageFormat.describeStart(bytes)))")
        }
    }

    /// The sanitized file of an image whose header was read (a JPEG's segments are not walked again).
    public static func strip(_ image: EncodedImage, options: StripOptions = StripOptions()) throws(StripError) -> [UInt8] {
        guard image.format == .jpeg, let structure = image.jpegStructure else {
            return try strip(image.bytes, source: image.source, options: options)
        }
        return try stripJPEG(image.bytes, structure: structure, source: image.source, options: options)
    }

    /// Markers a decoder needs: frame headers, tables, restart interval, scans, end of image.
    static func keepsMarker(_ marker: UInt8) -> Bool {
        switch marker {
        case 0xC0...0xCF: return true   // SOFn, DHT (C4), JPG (C8), DAC (CC)
        case 0xDA...0xDF: return true   // SOS, DQT, DNL, DRI, DHP, EXP
        case 0xD9: return true          // EOI
        default: return false
        }
    }

    static func stripJPEG(_ bytes: [UInt8], structure known: JPEGStructure? = nil, source: String,
                          options: StripOptions) throws(StripError) -> [UInt8] {
        guard let structure = known ?? JPEGStructure(bytes) else {
            throw StripError(.damaged, source: source, reason: "the JPEG does not start with a start-of-image marker")
        }
        guard structure.segments.contains(where: { $0.marker == 0xDA }) else {
            throw StripError(.damaged, source: source, reason: "the JPEG has no image data (no start-of-scan marker); left untouched")
        }
        if !structure.sawEndOfImage, let junk = structure.segments.first(where: { $0.kind == .trailer }) {
            throw StripError(.damaged, source: source,
                             reason: "the JPEG structure is damaged at byte \(junk.range.lowerBound) (not a marker); left untouched rather than risk cutting image data")
        }
        var orientation: Int?
        if let exif = structure.exifPayload(in: bytes), let tiff = TIFFReader(bytes, range: exif) {
            orientation = tiff.orientation
        }
        var out: [UInt8] = [0xFF, 0xD8]
        out.reserveCapacity(bytes.count)
        if options.keepOrientation, let orientation, orientation != 1 {
            out += minimalExifSegment(orientation: orientation)
        }
        for segment in structure.segments.dropFirst() {
            switch segment.kind {
            case .trailer, .garbage:
                continue  // after EOI: MPF secondary images, vendor trailers; between segments: junk
            case .entropyCoded:
                out += bytes[segment.range]
            case .marker:
                if let marker = segment.marker, keeps(marker, payload: segment.payload, of: bytes, options: options) {
                    out += bytes[segment.range]
                }
            }
        }
        // Junk between segments was dropped: make sure the copy still decodes to the same pixels.
        if structure.segments.contains(where: { $0.kind == .garbage }) {
            let before = try? EncodedImage(bytes: bytes, source: source).decode(applyOrientation: false).image
            let after = try? EncodedImage(bytes: out, source: source).decode(applyOrientation: false).image
            guard let before, before == after else {
                throw StripError(.damaged, source: source,
                                 reason: "the JPEG has damaged bytes between its segments and no clean copy decodes to the same pixels; left untouched")
            }
        }
        return out
    }

    /// Whether a marker segment goes into the stripped copy: what decoding needs, Adobe's colour
    /// transform, and the ICC profile when asked to keep it.
    static func keeps(_ marker: UInt8, payload: Range<Int>, of bytes: [UInt8], options: StripOptions) -> Bool {
        switch marker {
        case 0xEE: return JPEGSegmentKind.payload(bytes, payload, startsWith: "Adobe")   // colour transform
        case 0xE2: return options.keepICC && JPEGSegmentKind.payload(bytes, payload, startsWith: "ICC_PROFILE")
        case 0xD0...0xD7, 0x01: return true
        default: return keepsMarker(marker)
        }
    }

    /// "Exif\0\0" + a big-endian TIFF header + IFD0 with the one Orientation tag.
    public static func minimalExifSegment(orientation: Int) -> [UInt8] {
        let payload: [UInt8] = Array("Exif".utf8) + [0, 0,
            0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08,   // MM, 42, IFD0 at 8
            0x00, 0x01,                                       // one entry
            0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01,   // Orientation, SHORT, count 1
            0x00, UInt8(orientation), 0x00, 0x00,             // value
            0x00, 0x00, 0x00, 0x00]                           // no next IFD
        let length = payload.count + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// Chunks kept: the critical ones and those that say how to show the colours.
    static func keepsChunk(_ type: String, options: StripOptions) -> Bool {
        switch type {
        case "IHDR", "PLTE", "IDAT", "IEND", "tRNS", "gAMA", "cHRM", "sRGB", "sBIT": return true
        case "iCCP": return options.keepICC
        default: return false
        }
    }

    static func stripPNG(_ bytes: [UInt8], source: String, options: StripOptions) throws(StripError) -> [UInt8] {
        var out: [UInt8] = Array(bytes[0..<8])
        var walk = PNGChunks(bytes)
        var sawEnd = false
        while let chunk = walk.next() {
            if keepsChunk(chunk.type, options: options) { out += bytes[chunk.range] }
            if chunk.type == "IEND" { sawEnd = true }
        }
        guard sawEnd, !walk.damaged else {
            throw StripError(.damaged, source: source, reason: "the PNG chunk structure is damaged or truncated; left untouched")
        }
        return out
    }
}
