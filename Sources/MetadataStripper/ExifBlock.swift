import CExif

/// An EXIF block read by libexif: what it holds (kinds, for the report) and, only when asked,
/// its tags and values.
struct ExifBlock {
    /// One tag: which IFD, its name, its value as libexif formats it.
    struct Tag {
        let ifd: String
        let name: String
        let value: String
    }

    let kinds: Set<MetadataKind>
    let tags: [Tag]

    /// Parses `tiff` (a TIFF structure: "II*\0" or "MM\0*" ...). Values are read only when `values` is true.
    init(tiff: ArraySlice<UInt8>, values: Bool) {
        var payload = Array("Exif".utf8) + [0, 0]
        payload.append(contentsOf: tiff)
        guard let data = exif_data_new() else {
            kinds = [.exif]
            tags = []
            return
        }
        defer { exif_data_unref(data) }
        // Report what the file holds: libexif would otherwise add the tags the standard requires.
        exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        exif_data_set_option(data, EXIF_DATA_OPTION_DONT_CHANGE_MAKER_NOTE)
        payload.withUnsafeBufferPointer { exif_data_load_data(data, $0.baseAddress, UInt32($0.count)) }
        var kinds: Set<MetadataKind> = [.exif]
        var tags: [Tag] = []
        let ifdNames = ["IFD0", "IFD1", "ExifIFD", "GPS", "InteropIFD"]
        withUnsafePointer(to: data.pointee.ifd) { tuple in
            tuple.withMemoryRebound(to: UnsafeMutablePointer<ExifContent>?.self, capacity: Int(EXIF_IFD_COUNT.rawValue)) { ifds in
                for index in 0..<Int(EXIF_IFD_COUNT.rawValue) {
                    guard let content = ifds[index] else { continue }
                    let count = Int(content.pointee.count)
                    if index == Int(EXIF_IFD_GPS.rawValue), count > 0 { kinds.insert(.gps) }
                    guard count > 0, let entries = content.pointee.entries else { continue }
                    for k in 0..<count {
                        guard let entry = entries[k] else { continue }
                        if entry.pointee.tag == EXIF_TAG_MAKER_NOTE { kinds.insert(.makerNote) }
                        guard values else { continue }
                        let ifd = ExifIfd(rawValue: UInt32(index))
                        let name = exif_tag_get_name_in_ifd(entry.pointee.tag, ifd).map { String(cString: $0) }
                            ?? String(format: "Tag0x%04X", entry.pointee.tag.rawValue)
                        // The value is copied while the buffer it was written to is still lent.
                        var buffer = [CChar](repeating: 0, count: 256)
                        let value = buffer.withUnsafeMutableBufferPointer { out -> String in
                            exif_entry_get_value(entry, out.baseAddress, UInt32(out.count)).map { String(cString: $0) } ?? ""
                        }
                        tags.append(Tag(ifd: ifdNames[index], name: name, value: value))
                    }
                }
            }
        }
        if data.pointee.data != nil && data.pointee.size > 0 { kinds.insert(.thumbnail) }
        self.kinds = kinds
        self.tags = tags
    }
}

#if canImport(Glibc)
import Glibc
#endif
import Foundation
