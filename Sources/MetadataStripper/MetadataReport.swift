import Foundation
import ImageIngest

/// Kinds of metadata a photo can carry. Only the kind is ever reported, never a value.
public enum MetadataKind: String, Sendable, CaseIterable, Codable, Comparable {
    case exif = "EXIF", gps = "GPS", xmp = "XMP", iptc = "IPTC", icc = "ICC", comment = "COM"
    case thumbnail = "Thumbnail", makerNote = "MakerNote", mpf = "MPF", trailer = "Trailer", text = "Text"

    public static func < (a: MetadataKind, b: MetadataKind) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// What metadata a file carried. Values are not kept.
public struct MetadataReport: Sendable, Equatable {
    /// The kinds present, in a fixed order.
    public let kinds: [MetadataKind]
    /// True when the file said where it was taken (EXIF GPS or XMP/IPTC location).
    public var hadLocation: Bool { kinds.contains(.gps) }

    public init(kinds: Set<MetadataKind>) { self.kinds = kinds.sorted() }

    /// Reads the report from a file's bytes (JPEG by segment walk, PNG by chunk walk).
    public static func read(_ bytes: [UInt8]) -> MetadataReport {
        switch ImageFormat.detect(bytes) {
        case .jpeg?: return readJPEG(bytes)
        case .png?: return readPNG(bytes)
        default: return MetadataReport(kinds: [])
        }
    }

    static func readJPEG(_ bytes: [UInt8]) -> MetadataReport {
        guard let structure = JPEGStructure(bytes) else { return MetadataReport(kinds: []) }
        var kinds = Set<MetadataKind>()
        for segment in structure.segments {
            let p = segment.payload
            func payloadStarts(with prefix: String) -> Bool {
                let magic = Array(prefix.utf8)
                return p.count >= magic.count && Array(bytes[p.lowerBound..<p.lowerBound + magic.count]) == magic
            }
            switch (segment.kind, segment.marker) {
            case (.trailer, _): kinds.insert(.trailer)
            case (.marker, 0xE1?):
                if payloadStarts(with: "Exif") {
                    kinds.insert(.exif)
                    kinds.formUnion(exifContents(bytes, (p.lowerBound + 6)..<p.upperBound))
                } else if payloadStarts(with: "http://ns.adobe.com/xap/1.0/") || payloadStarts(with: "http://ns.adobe.com/xmp/extension/") {
                    kinds.insert(.xmp)
                    if let text = String(bytes: bytes[p], encoding: .utf8), text.contains("GPSLatitude") || text.contains("exif:GPS") {
                        kinds.insert(.gps)
                    }
                } else {
                    kinds.insert(.exif)
                }
            case (.marker, 0xE2?):
                if payloadStarts(with: "ICC_PROFILE") { kinds.insert(.icc) }
                else if payloadStarts(with: "MPF") { kinds.insert(.mpf) }
                else { kinds.insert(.exif) }  // FlashPix and other camera data
            case (.marker, 0xED?): kinds.insert(.iptc)
            case (.marker, 0xFE?): kinds.insert(.comment)
            case (.marker, let m?) where (0xE3...0xEF).contains(m): kinds.insert(.exif)
            default: break
            }
        }
        return MetadataReport(kinds: kinds)
    }

    /// GPS, MakerNote and thumbnail inside an EXIF block.
    static func exifContents(_ bytes: [UInt8], _ range: Range<Int>) -> Set<MetadataKind> {
        guard let tiff = TIFFReader(bytes, range: range) else { return [] }
        var kinds = Set<MetadataKind>()
        let ifd0 = tiff.firstIFD
        let entries = tiff.entries(ofIFDAt: ifd0)
        if entries.contains(where: { $0.tag == 0x8825 }) { kinds.insert(.gps) }
        if let exifIFD = tiff.integer(tag: 0x8769, inIFDAt: ifd0),
           tiff.entries(ofIFDAt: exifIFD).contains(where: { $0.tag == 0x927C }) {
            kinds.insert(.makerNote)
        }
        if let ifd1 = tiff.nextIFD(after: ifd0),
           tiff.entries(ofIFDAt: ifd1).contains(where: { $0.tag == 0x0201 || $0.tag == 0x0111 }) {
            kinds.insert(.thumbnail)
        }
        return kinds
    }

    static func readPNG(_ bytes: [UInt8]) -> MetadataReport {
        var kinds = Set<MetadataKind>()
        var i = 8
        while i + 8 <= bytes.count {
            let length = Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            let type = String(decoding: bytes[(i + 4)..<(i + 8)], as: UTF8.self)
            switch type {
            case "eXIf":
                kinds.insert(.exif)
                let start = i + 8, end = min(bytes.count, start + length)
                if start < end { kinds.formUnion(exifContents(bytes, start..<end)) }
            case "tEXt", "zTXt", "iTXt":
                kinds.insert(.text)
                let start = i + 8, end = min(bytes.count, start + length)
                if start < end, let s = String(bytes: bytes[start..<end], encoding: .isoLatin1) {
                    if s.hasPrefix("XML:com.adobe.xmp") { kinds.insert(.xmp) }
                    if s.hasPrefix("Raw profile type exif") || s.hasPrefix("Raw profile type APP1") { kinds.insert(.exif) }
                    if s.hasPrefix("Raw profile type iptc") { kinds.insert(.iptc) }
                }
            case "iCCP": kinds.insert(.icc)
            case "tIME": kinds.insert(.text)
            case "IEND":
                if i + 12 < bytes.count { kinds.insert(.trailer) }
                return MetadataReport(kinds: kinds)
            default: break
            }
            guard length >= 0, length < Int(Int32.max) else { break }
            i += 12 + length
        }
        return MetadataReport(kinds: kinds)
    }
}
