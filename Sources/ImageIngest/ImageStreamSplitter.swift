import Foundation

/// Splits a stream of concatenated images (`cat *.jpg | cardscan scan --stream -`, or MJPEG frames
/// from a camera tool) on image boundaries, reading as it goes: only the image being assembled is
/// held in memory, never the whole stream.
///
/// JPEG images run from SOI to EOI (segments walked, scan data searched for the next marker);
/// PNG images from the signature to the IEND chunk. Bytes between images that start neither are
/// skipped and counted.
public final class ImageStreamSplitter: IteratorProtocol, Sequence {
    /// One image cut out of the stream, or a problem with one.
    public enum Item: Sendable {
        case image([UInt8])
        /// An image larger than the limit, or the stream ended inside one: its bytes were dropped.
        case failure(IngestError)
    }

    private let read: (Int) -> [UInt8]?
    private let maxBytes: Int
    private var buffer: [UInt8] = []
    private var eof = false
    private var index = 0
    /// Bytes skipped because they did not start an image.
    public private(set) var skippedBytes = 0

    /// - Parameters:
    ///   - read: returns up to n more bytes, an empty array or nil at the end of the stream.
    ///   - maxBytes: the largest image accepted; a larger one is skipped with an error.
    public init(maxBytes: Int, read: @escaping (Int) -> [UInt8]?) {
        self.read = read
        self.maxBytes = maxBytes
    }

    /// Reads from a file handle (standard input).
    public convenience init(handle: FileHandle, maxBytes: Int) {
        self.init(maxBytes: maxBytes) { n in
            guard let data = try? handle.read(upToCount: n), !data.isEmpty else { return nil }
            return [UInt8](data)
        }
    }

    /// The 1-based position of the last image returned, for naming it ("-#2").
    public var position: Int { index }

    private func fill(_ minimum: Int) -> Bool {
        while buffer.count < minimum {
            guard !eof, let chunk = read(1 << 20), !chunk.isEmpty else { eof = true; return false }
            buffer.append(contentsOf: chunk)
        }
        return true
    }

    public func next() -> Item? {
        // Find the start of the next image.
        while true {
            guard fill(8) else {
                skippedBytes += buffer.count
                buffer.removeAll()
                return nil
            }
            if buffer[0] == 0xFF && buffer[1] == 0xD8 && buffer[2] == 0xFF { break }
            if Array(buffer[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] { break }
            // Drop everything up to the next 0xFF or 0x89.
            var k = 1
            while k < buffer.count && buffer[k] != 0xFF && buffer[k] != 0x89 { k += 1 }
            skippedBytes += k
            buffer.removeFirst(k)
        }
        index += 1
        let isJPEG = buffer[0] == 0xFF
        let end = isJPEG ? jpegEnd() : pngEnd()
        switch end {
        case .complete(let n):
            let image = Array(buffer[0..<n])
            buffer.removeFirst(n)
            return .image(image)
        case .tooLarge:
            return .failure(IngestError(.tooLarge, source: "-#\(index)",
                                        reason: "the image in the stream is over the limit of \(maxBytes) bytes; it was skipped"))
        case .truncated:
            let partial = buffer
            buffer.removeAll()
            if isJPEG && partial.count > 1024 {
                // A JPEG cut off at the end of the stream still decodes (with a warning).
                return .image(partial)
            }
            return .failure(IngestError(.corrupt, source: "-#\(index)",
                                        reason: "the stream ended inside an image (\(partial.count) bytes)"))
        }
    }

    private enum End { case complete(Int), tooLarge, truncated }

    /// Drops bytes of an oversized image up to the next image start, so the stream goes on.
    private func discardOversized(from offset: Int) -> End {
        buffer.removeAll()
        // Skip until something that starts an image, reading on.
        while fill(3) {
            if let k = (0..<(buffer.count - 2)).first(where: { buffer[$0] == 0xFF && buffer[$0 + 1] == 0xD8 && buffer[$0 + 2] == 0xFF }) {
                buffer.removeFirst(k)
                return .tooLarge
            }
            buffer.removeFirst(buffer.count - 2)
        }
        buffer.removeAll()
        return .tooLarge
    }

    private func jpegEnd() -> End {
        var i = 2
        while true {
            if i > maxBytes { return discardOversized(from: i) }
            guard fill(i + 4) else { return .truncated }
            guard buffer[i] == 0xFF else { i += 1; continue }  // tolerate stray bytes between segments
            let marker = buffer[i + 1]
            if marker == 0xFF { i += 1; continue }
            if marker == 0xD9 { return .complete(i + 2) }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) || marker == 0x00 { i += 2; continue }
            let length = Int(buffer[i + 2]) << 8 | Int(buffer[i + 3])
            i += 2 + length
            if marker == 0xDA {
                // Scan data: runs to the next marker that is not stuffing or a restart.
                while true {
                    if i > maxBytes { return discardOversized(from: i) }
                    guard fill(i + 2) else { return .truncated }
                    if buffer[i] == 0xFF {
                        let next = buffer[i + 1]
                        if next == 0x00 || (0xD0...0xD7).contains(next) { i += 2; continue }
                        if next == 0xFF { i += 1; continue }
                        break
                    }
                    i += 1
                }
            }
        }
    }

    private func pngEnd() -> End {
        var i = 8
        while true {
            if i > maxBytes { return discardOversized(from: i) }
            guard fill(i + 8) else { return .truncated }
            let length = Int(buffer[i]) << 24 | Int(buffer[i + 1]) << 16 | Int(buffer[i + 2]) << 8 | Int(buffer[i + 3])
            let isEnd = buffer[i + 4] == 0x49 && buffer[i + 5] == 0x45 && buffer[i + 6] == 0x4E && buffer[i + 7] == 0x44
            i += 12 + length
            if i > maxBytes { return discardOversized(from: i) }
            if isEnd {
                guard fill(i) else { return .truncated }
                return .complete(i)
            }
        }
    }
}
