/// Image container formats cardscan recognises, always from the first bytes, never the name.
public enum ImageFormat: String, Sendable, CaseIterable, Codable {
    case jpeg, png, tiff, webp, gif, bmp, heic

    /// Detects the format from a file's first bytes; nil when none matches.
    public static func detect<Bytes: Collection>(_ bytes: Bytes) -> ImageFormat? where Bytes.Element == UInt8 {
        let head = Array(bytes.prefix(32))
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + magic.count && Array(head[offset..<offset + magic.count]) == magic
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("BM".utf8)) && head.count >= 26 { return .bmp }
        if starts(Array("ftyp".utf8), at: 4) && head.count >= 12 {
            let brand = String(decoding: head[8..<12], as: UTF8.self)
            let heifBrands: Set<String> = ["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1", "avif"]
            if heifBrands.contains(brand) { return .heic }
        }
        return nil
    }

    /// "FF D8 FF E0 ..." for an error message: the first bytes in hex.
    public static func describeStart<Bytes: Collection>(_ bytes: Bytes, count: Int = 8) -> String
    where Bytes.Element == UInt8 {
        let hex = bytes.prefix(count).map { byte -> String in
            let s = String(byte, radix: 16, uppercase: true)
            return s.count == 1 ? "0" + s : s
        }
        return hex.isEmpty ? "nothing" : hex.joined(separator: " ")
    }
}
