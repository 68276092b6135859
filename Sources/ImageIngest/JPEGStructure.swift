import Foundation

/// One piece of a JPEG file as the segment walk sees it.
public struct JPEGSegment: Sendable, Equatable {
    /// The marker byte after 0xFF (0xD8 SOI, 0xE1 APP1, 0xDA SOS, ...); nil for entropy-coded data
    /// and for bytes after EOI.
    public let marker: UInt8?
    /// Where the segment starts in the file (at its 0xFF) and how many bytes it spans, all included.
    public let range: Range<Int>
    /// The payload after the two length bytes (empty for markers without a length).
    public let payload: Range<Int>
    public let kind: Kind

    public enum Kind: Sendable, Equatable {
        case marker          // a marker segment (with or without a length field)
        case entropyCoded    // scan data between SOS and the next non-RST marker
        case trailer         // bytes after EOI
        case garbage         // bytes between segments that are no marker (decoders skip them)
    }
}

/// The segment structure of a JPEG file, read without decoding; tolerant of truncation.
public struct JPEGStructure: Sendable {
    public let segments: [JPEGSegment]
    /// True when the walk reached an EOI marker.
    public let sawEndOfImage: Bool
    /// True when a segment's length ran past the end of the file.
    public let truncated: Bool

    /// Walks `bytes` from SOI. Returns nil when the data does not start with SOI.
    public init?(_ bytes: [UInt8]) {
        guard bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var walk = Walk(bytes: bytes)
        while walk.step() {}
        segments = walk.segments
        sawEndOfImage = walk.sawEOI
        truncated = walk.truncated || (!walk.sawEOI && walk.i >= bytes.count)
    }

    /// The walk in progress: where it is, and what it has found.
    private struct Walk {
        let bytes: [UInt8]
        var segments: [JPEGSegment] = [JPEGSegment(marker: 0xD8, range: 0..<2, payload: 2..<2, kind: .marker)]
        var i = 2
        var sawEOI = false
        var truncated = false

        /// Takes the next segment; false when the walk is over.
        mutating func step() -> Bool {
            let n = bytes.count
            guard i < n else { return false }
            // Find the next marker: 0xFF followed by a non-0xFF, non-zero byte; fill bytes allowed.
            guard bytes[i] == 0xFF else {
                // Garbage between segments: skip to the next marker, as libjpeg does; when there is
                // none, the rest is a trailer-like region.
                guard let k = JPEGStructure.nextMarker(in: bytes, after: i) else {
                    segments.append(JPEGSegment(marker: nil, range: i..<n, payload: i..<n, kind: .trailer))
                    return false
                }
                segments.append(JPEGSegment(marker: nil, range: i..<k, payload: i..<k, kind: .garbage))
                i = k
                return true
            }
            var j = i
            while j < n && bytes[j] == 0xFF { j += 1 }
            guard j < n else { truncated = true; return false }
            let marker = bytes[j]
            let start = i
            i = j + 1
            switch marker {
            case 0xD9:
                segments.append(JPEGSegment(marker: marker, range: start..<i, payload: i..<i, kind: .marker))
                sawEOI = true
                if i < n {
                    segments.append(JPEGSegment(marker: nil, range: i..<n, payload: i..<n, kind: .trailer))
                }
                return false
            case 0x01, 0xD0...0xD7:
                segments.append(JPEGSegment(marker: marker, range: start..<i, payload: i..<i, kind: .marker))
                return true
            default:
                return takeSegment(marker, from: start)
            }
        }

        /// A marker segment with a length, and after SOS the entropy-coded data that follows it.
        mutating func takeSegment(_ marker: UInt8, from start: Int) -> Bool {
            let n = bytes.count
            guard i + 2 <= n else { truncated = true; return false }
            let length = Int(bytes[i]) << 8 | Int(bytes[i + 1])
            guard length >= 2 else { truncated = true; return false }
            let end = i + length
            guard end <= n else {
                truncated = true
                segments.append(JPEGSegment(marker: marker, range: start..<n, payload: min(i + 2, n)..<n, kind: .marker))
                return false
            }
            segments.append(JPEGSegment(marker: marker, range: start..<end, payload: (i + 2)..<end, kind: .marker))
            i = end
            if marker == 0xDA {
                var k = JPEGStructure.endOfEntropyCodedData(in: bytes, from: i)
                if k >= n { truncated = true; k = n }
                if k > i {
                    segments.append(JPEGSegment(marker: nil, range: i..<k, payload: i..<k, kind: .entropyCoded))
                }
                i = k
            }
            return true
        }
    }

    /// Where the next marker after `start` is (0xFF then a byte that is neither 0x00 nor 0xFF);
    /// nil when none follows.
    fileprivate static func nextMarker(in bytes: [UInt8], after start: Int) -> Int? {
        var k = start + 1
        while k + 1 < bytes.count && !(bytes[k] == 0xFF && bytes[k + 1] != 0x00 && bytes[k + 1] != 0xFF) { k += 1 }
        return k + 1 < bytes.count ? k : nil
    }

    /// Entropy-coded data runs to the next marker that is not a stuffed 0x00 or an RST; returns
    /// where that marker starts (the end of `bytes` or beyond when none follows).
    fileprivate static func endOfEntropyCodedData(in bytes: [UInt8], from start: Int) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return start }
            let count = buffer.count
            var k = start
            while k < count {
                // The next 0xFF (memchr's vector scan: most of the data has none for hundreds of bytes).
                guard let found = memchr(base + k, 0xFF, count - k) else { return count }
                k = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                guard k + 1 < count else { return count }
                let next = base[k + 1]
                if next == 0x00 || (0xD0...0xD7).contains(next) || next == 0xFF {
                    k += (next == 0xFF) ? 1 : 2
                    continue
                }
                return k
            }
            return k
        }
    }

    /// True when the first frame is progressive (SOF2, SOF6, SOF10, SOF14).
    public var isProgressive: Bool {
        for s in segments where s.kind == .marker {
            guard let m = s.marker, (0xC0...0xCF).contains(m), m != 0xC4, m != 0xC8, m != 0xCC else { continue }
            return m == 0xC2 || m == 0xC6 || m == 0xCA || m == 0xCE
        }
        return false
    }

    /// Width and height from the first frame header (SOF0-SOF15 except DHT, JPG and DAC), if any.
    public func frameSize(in bytes: [UInt8]) -> (width: Int, height: Int)? {
        for s in segments where s.kind == .marker {
            guard let m = s.marker, (0xC0...0xCF).contains(m), m != 0xC4, m != 0xC8, m != 0xCC else { continue }
            let p = s.payload
            guard p.count >= 5 else { return nil }
            let height = Int(bytes[p.lowerBound + 1]) << 8 | Int(bytes[p.lowerBound + 2])
            let width = Int(bytes[p.lowerBound + 3]) << 8 | Int(bytes[p.lowerBound + 4])
            return (width, height)
        }
        return nil
    }

    /// The APP1 segment holding EXIF ("Exif\0\0" + TIFF), if any: its payload range.
    public func exifPayload(in bytes: [UInt8]) -> Range<Int>? {
        for s in segments where s.marker == 0xE1 {
            let p = s.payload
            if p.count >= 6, Array(bytes[p.lowerBound..<p.lowerBound + 6]) == [0x45, 0x78, 0x69, 0x66, 0, 0] {
                return (p.lowerBound + 6)..<p.upperBound
            }
        }
        return nil
    }
}

/// Reads single tags from a TIFF/EXIF block without any C library: bounds-checked, no recursion.
public struct TIFFReader: Sendable {
    let bytes: [UInt8]
    let base: Int
    let end: Int
    let littleEndian: Bool

    /// Nil when the block has no valid TIFF header.
    public init?(_ bytes: [UInt8], range: Range<Int>) {
        guard range.count >= 8, range.upperBound <= bytes.count else { return nil }
        let b = range.lowerBound
        if bytes[b] == 0x49 && bytes[b + 1] == 0x49 { littleEndian = true }
        else if bytes[b] == 0x4D && bytes[b + 1] == 0x4D { littleEndian = false }
        else { return nil }
        self.bytes = bytes
        self.base = b
        self.end = range.upperBound
        guard u16(2) == 42 else { return nil }
    }

    func u16(_ offset: Int) -> Int {
        let i = base + offset
        guard offset >= 0, i + 2 <= end else { return -1 }
        return littleEndian ? Int(bytes[i]) | Int(bytes[i + 1]) << 8 : Int(bytes[i]) << 8 | Int(bytes[i + 1])
    }

    func u32(_ offset: Int) -> Int {
        let i = base + offset
        guard offset >= 0, i + 4 <= end else { return -1 }
        let v = littleEndian
            ? Int(bytes[i]) | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2]) << 16 | Int(bytes[i + 3]) << 24
            : Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
        return v
    }

    /// Entries (tag, type, count, value-or-offset field position) of the IFD at `offset`.
    public func entries(ofIFDAt offset: Int) -> [(tag: Int, type: Int, count: Int, valueOffset: Int)] {
        let count = u16(offset)
        guard count > 0, count < 1000 else { return [] }
        var out: [(Int, Int, Int, Int)] = []
        for k in 0..<count {
            let e = offset + 2 + 12 * k
            let tag = u16(e)
            guard tag >= 0 else { break }
            out.append((tag, u16(e + 2), u32(e + 4), e + 8))
        }
        return out
    }

    /// Offset of IFD0.
    public var firstIFD: Int { u32(4) }

    /// Offset of the IFD that follows the one at `offset` (IFD1 after IFD0), or nil.
    public func nextIFD(after offset: Int) -> Int? {
        let count = u16(offset)
        guard count >= 0 else { return nil }
        let next = u32(offset + 2 + 12 * count)
        return next > 0 ? next : nil
    }

    /// A SHORT or LONG tag's first value in the IFD at `offset`.
    public func integer(tag: Int, inIFDAt offset: Int) -> Int? {
        for e in entries(ofIFDAt: offset) where e.tag == tag {
            switch e.type {
            case 3: return u16(e.valueOffset)
            case 4, 13: return u32(e.valueOffset)
            default: return nil
            }
        }
        return nil
    }

    /// The EXIF orientation (1-8) from IFD0, nil when absent or out of range.
    public var orientation: Int? {
        guard let v = integer(tag: 0x0112, inIFDAt: firstIFD), (1...8).contains(v) else { return nil }
        return v
    }
}
