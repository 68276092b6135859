import CHeif
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

    static func readJPEG(_ bytes: [UInt8], values wantValues: Bool) -> MetadataReport {
        guard let structure = JPEGStructure(bytes) else { return MetadataReport(kinds: []) }
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

    /// HEIF keeps EXIF and XMP as metadata items; libheif lists them.
    static func readHEIF(_ bytes: [UInt8], values wantValues: Bool) -> MetadataReport {
        guard let context = heif_context_alloc() else { return MetadataReport(kinds: []) }
        defer { heif_context_free(context) }
        let readError = bytes.withUnsafeBufferPointer { heif_context_read_from_memory_without_copy(context, $0.baseAddress, $0.count, nil) }
        var handle: OpaquePointer?
        guard readError.code == heif_error_Ok, heif_context_get_primary_image_handle(context, &handle).code == heif_error_Ok,
              let handle else { return MetadataReport(kinds: []) }
        defer { heif_image_handle_release(handle) }
        var kinds = Set<MetadataKind>()
        var values: [MetadataValue] = []
        let count = Int(heif_image_handle_get_number_of_metadata_blocks(handle, nil))
        var ids = [heif_item_id](repeating: 0, count: count)
        _ = heif_image_handle_get_list_of_metadata_block_IDs(handle, nil, &ids, Int32(count))
        for id in ids {
            let type = heif_image_handle_get_metadata_type(handle, id).map { String(cString: $0) } ?? ""
            let size = heif_image_handle_get_metadata_size(handle, id)
            var block = [UInt8](repeating: 0, count: size)
            guard heif_image_handle_get_metadata(handle, id, &block).code == heif_error_Ok else { continue }
            if type == "Exif", block.count > 4 {
                // A 4-byte offset to the TIFF header comes first.
                let skip = 4 + (Int(block[0]) << 24 | Int(block[1]) << 16 | Int(block[2]) << 8 | Int(block[3]))
                if skip < block.count {
                    let exif = ExifBlock(tiff: block[skip...], values: wantValues)
                    kinds.formUnion(exif.kinds)
                    values += exif.tags.map { MetadataValue(group: $0.ifd, name: $0.name, value: $0.value) }
                }
            } else if type == "mime" {
                kinds.insert(.xmp)
                let text = String(decoding: block, as: UTF8.self)
                if text.contains("GPSLatitude") { kinds.insert(.gps) }
            }
        }
        if heif_image_handle_get_color_profile_type(handle) != heif_color_profile_type_not_present { kinds.insert(.icc) }
        if heif_image_handle_get_number_of_thumbnails(handle) > 0 { kinds.insert(.thumbnail) }
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

/// The chunks of a PNG file, walked without decoding; stops at IEND or at damage.
struct PNGChunks: Sequence, IteratorProtocol {
    struct Chunk {
        let type: String
        /// The whole chunk: length, type, data, CRC.
        let range: Range<Int>
        let data: Range<Int>
    }

    private let bytes: [UInt8]
    private var offset = 8
    private var done = false
    /// True when the walk stopped at a chunk running past the end (or a bad length).
    private(set) var damaged = false

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        done = !(bytes.count >= 8 && bytes[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    }

    mutating func next() -> Chunk? {
        guard !done else { return nil }
        guard offset + 12 <= bytes.count else { done = true; damaged = offset < bytes.count; return nil }
        let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
        let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
        let end = offset + 12 + length
        guard length >= 0, length <= 0x7FFF_FFFF, end <= bytes.count,
              type.utf8.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else {
            done = true
            damaged = true
            return nil
        }
        let chunk = Chunk(type: type, range: offset..<end, data: (offset + 8)..<(offset + 8 + length))
        offset = end
        if type == "IEND" { done = true }
        return chunk
    }

    /// Where IEND ends, when the walk reaches it.
    var endOffset: Int? {
        var walk = self
        while let chunk = walk.next() {
            if chunk.type == "IEND" { return chunk.range.upperBound }
        }
        return nil
    }
}
