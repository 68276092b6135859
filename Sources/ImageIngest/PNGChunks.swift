/// The chunks of a PNG file, walked without decoding; stops at IEND or at damage.
public struct PNGChunks: Sequence, IteratorProtocol {
    public struct Chunk: Sendable {
        public let type: String
        /// The whole chunk: length, type, data, CRC.
        public let range: Range<Int>
        public let data: Range<Int>
    }

    private let bytes: [UInt8]
    private var offset = 8
    private var done = false
    /// True when the walk stopped at a chunk running past the end (or a bad length).
    public private(set) var damaged = false

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        done = !(bytes.count >= 8 && bytes[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    }

    public mutating func next() -> Chunk? {
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
    public var endOffset: Int? {
        var walk = self
        while let chunk = walk.next() {
            if chunk.type == "IEND" { return chunk.range.upperBound }
        }
        return nil
    }
}
