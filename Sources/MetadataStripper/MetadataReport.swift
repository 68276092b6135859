import Foundation
import ImageIngest

/// Kinds of metadata a photo can carry. Only the kind is ever reported, never a value.
public enum MetadataKind: String, Sendable, CaseIterable, Codable, Comparable {
    case exif = "EXIF", gps = "GPS", xmp = "XMP", iptc = "IPTC", icc = "ICC", comment = "COM"
    case thumbnail = "Thumbnail", makerNote = "MakerNote", mpf = "MPF", trailer = "Trailer", text = "Text"

    public static func < (a: MetadataKind, b: MetadataKind) -> Bool {
        (allCases.firstIndex(of: a) ?? 0) < (allCases.firstIndex(of: b) ?? 0)
    }
}

/// What metadata a file carried, from the segment (or chunk, or box) walk and libexif.
public struct MetadataReport: Sendable, Equatable {
    /// The kinds present, in a fixed order.
    public let kinds: [MetadataKind]
    /// True when the file said where it was taken (EXIF GPS, or GPS in XMP).
    public var hadLocation: Bool { kinds.contains(.gps) }
    /// Values, only when asked for (`cardscan inspect --show-values`): (group, name, value).
    public let values: [MetadataValue]

    public init(kinds: Set<MetadataKind>, values: [MetadataValue] = []) {
        self.kinds = kinds.sorted()
        self.values = values
    }

    /// Reads the report from a file's bytes. Values are collected only when `values` is true.
    public static func read(_ bytes: [UInt8], values: Bool = false) -> MetadataReport {
        switch ImageFormat.detect(bytes) {
        case .jpeg?: return readJPEG(bytes, values: values)
        case .png?: return readPNG(bytes, values: values)
        case .heic?: return readHEIF(bytes, values: values)
        default: return MetadataReport(kinds: [])
        }
    }

    /// The report of an image whose header was read: a JPEG's segments are not walked again.
    public static func read(_ image: EncodedImage, values: Bool = false) -> MetadataReport {
        guard image.format == .jpeg else { return read(image.bytes, values: values) }
        return readJPEG(image.bytes, structure: image.jpegStructure, values: values)
    }

    static func readJPEG(_ bytes: [UInt8], structure known: JPEGStructure? = nil, values wantValues: Bool) -> MetadataReport {
        guard let structure = known ?? JPEGStructure(bytes) else { return MetadataReport(kinds: []) }
        var kinds = Set<MetadataKind>()
        var values: [MetadataValue] = []
        for segment in structure.segments {
            let p = segment.payload
            switch (segment.kind, segment.marker) {
            case (.trailer, _):
                kinds.insert(.trailer)
                if wantValues { values.append(MetadataValue(group: "Trailer", name: "Bytes", value: String(p.count))) }
            case (.marker, 0xE0?):
                // JFIF is not metadata; a JFXX extension carries a thumbnail.
                if JPEGSegmentKind.payload(bytes, p, startsWith: "JFXX") { kinds.insert(.thumbnail) }
            case (.marker, 0xE1?):
                if JPEGSegmentKind.payload(bytes, p, startsWith: "Exif\0") {
                    let block = ExifBlock(tiff: bytes[min(p.upperBound, p.lowerBound + 6)..<p.upperBound], values: wantValues)
                    kinds.formUnion(block.kinds)
                    values += block.tags.map { MetadataValue(group: $0.ifd, name: $0.name, value: $0.value) }
                } else if JPEGSegmentKind.isXMP(bytes, p) {
                    kinds.insert(.xmp)
                    let text = String(decoding: bytes[p], as: UTF8.self)
                    if text.contains("GPSLatitude") || text.contains("GPSLongitude") { kinds.insert(.gps) }
                    if wantValues { values.append(MetadataValue(group: "XMP", name: "Packet", value: "\(p.count) bytes")) }
                } else {
                    kinds.insert(.exif)
                }
            case (.marker, 0xE2?):
                if JPEGSegmentKind.payload(bytes, p, startsWith: "ICC_PROFILE") { kinds.insert(.icc) }
                else if JPEGSegmentKind.payload(bytes, p, startsWith: "MPF") { kinds.insert(.mpf) }
                else { kinds.insert(.exif) }  // FlashPix and other camera data
            case (.marker, 0xED?):
                kinds.insert(.iptc)
            case (.marker, 0xEE?) where JPEGSegmentKind.payload(bytes, p, startsWith: "Adobe"):
                break  // colour transform: needed to decode, not metadata
            case (.marker, 0xFE?):
                kinds.insert(.comment)
                if wantValues { values.append(MetadataValue(group: "COM", name: "Comment", value: printable(bytes[p]))) }
            case (.marker, let m?) where (0xE3...0xEF).contains(m):
                kinds.insert(.exif)  // APP3-APP15: maker and application data
            default:
                break
            }
        }
        return MetadataReport(kinds: kinds, values: values)
    }

    static func readPNG(_ bytes: [UInt8], values wantValues: Bool) -> MetadataReport {
        var kinds = Set<MetadataKind>()
        var values: [MetadataValue] = []
        for chunk in PNGChunks(bytes) {
            let data = chunk.data
            switch chunk.type {
            case "eXIf":
                let block = ExifBlock(tiff: bytes[data], values: wantValues)
                kinds.formUnion(block.kinds)
                values += block.tags.map { MetadataValue(group: $0.ifd, name: $0.name, value: $0.value) }
            case "tEXt", "zTXt", "iTXt":
                let keyword = String(decoding: bytes[data].prefix { $0 != 0 }, as: UTF8.self)
                switch keyword {
                case "XML:com.adobe.xmp": kinds.insert(.xmp)
                case "Raw profile type exif", "Raw profile type APP1": kinds.insert(.exif)
                case "Raw profile type iptc": kinds.insert(.iptc)
                case "Raw profile type icc", "Raw profile type icm": kinds.insert(.icc)
                case "Comment": kinds.insert(.comment)
                default: kinds.insert(.text)
                }
                if wantValues { values.append(MetadataValue(group: "PNG-\(chunk.type)", name: keyword, value: "\(data.count) bytes")) }
            case "iCCP": kinds.insert(.icc)
            case "tIME": kinds.insert(.text)
            default: break
            }
        }
        if let end = PNGChunks(bytes).endOffset, end < bytes.count { kinds.insert(.trailer) }
        return MetadataReport(kinds: kinds, values: values)
    }

    /// HEIF keeps EXIF and XMP as metadata items; libheif lists them (through ImageIngest).
    static func readHEIF(_ bytes: [UInt8], values wantValues: Bool) -> MetadataReport {
        guard let container = HEIFContainer.metadata(bytes) else { return MetadataReport(kinds: []) }
        var kinds = Set<MetadataKind>()
        var values: [MetadataValue] = []
        for block in container.blocks {
            if block.type == "Exif", block.bytes.count > 4 {
                // A 4-byte offset to the TIFF header comes first.
                let b = block.bytes
                let skip = 4 + (Int(b[0]) << 24 | Int(b[1]) << 16 | Int(b[2]) << 8 | Int(b[3]))
                if skip < b.count {
                    let exif = ExifBlock(tiff: b[skip...], values: wantValues)
                    kinds.formUnion(exif.kinds)
                    values += exif.tags.map { MetadataValue(group: $0.ifd, name: $0.name, value: $0.value) }
                }
            } else if block.type == "mime" {
                kinds.insert(.xmp)
                let text = String(decoding: block.bytes, as: UTF8.self)
                if text.contains("GPSLatitude") { kinds.insert(.gps) }
            }
        }
        if container.hasColorProfile { kinds.insert(.icc) }
        if container.thumbnails > 0 { kinds.insert(.thumbnail) }
        return MetadataReport(kinds: kinds, values: values)
    }

    static func printable(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.prefix(200), as: UTF8.self).map { $0.isASCII && ($0.isLetter || $0.isNumber || $0.isPunctuation || $0 == " ") ? $0 : "." }
            .reduce(into: "") { $0.append($1) }
    }
}

/// One metadata value, for `inspect --show-values` only.
public struct MetadataValue: Sendable, Equatable {
    public let group: String
    public let name: String
    public let value: String
}

/// Helpers to tell APPn segments apart by their payload's identifier.
enum JPEGSegmentKind {
    static func payload(_ bytes: [UInt8], _ p: Range<Int>, startsWith prefix: String) -> Bool {
        let magic = Array(prefix.utf8)
        return p.count >= magic.count && bytes[p.lowerBound..<p.lowerBound + magic.count].elementsEqual(magic)
    }

    static func isXMP(_ bytes: [UInt8], _ p: Range<Int>) -> Bool {
        payload(bytes, p, startsWith: "http://ns.adobe.com/xap/1.0/") || payload(bytes, p, startsWith: "http://ns.adobe.com/xmp/extension/")
            || payload(bytes, p, startsWith: "XMP\0")
    }
}
