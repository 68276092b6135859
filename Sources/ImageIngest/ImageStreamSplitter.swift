import Foundation

/// Splits a stream of concatenated images (`cat *.jpg | cardscan scan --stream -`, or MJPEG frames
/// from a camera tool) on image boundaries, reading as it goes: only the image being assembled is
/// held in memory, never the whole stream.
///
/// JPEG images run from SOI to EOI (segments walked, scan data searched for the next marker);
/// PNG images from the signature to the IEND chunk. Bytes between images that start neither are
/// skipped and counted; a stream that holds no image at all (empty, text, a HEIC file) gives one
/// failure saying so, and more than `maxBytes` of such bytes in a row end the stream with one.
/// The images of a multi-picture JPEG (MPO: a photo and its depth map or preview, each with an
/// MPF segment, back to back) stay together as one image.
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
    private var ended = false
    /// The stream's first bytes, to say what it was when it held no image.
    private var head: [UInt8] = []
    /// Bytes skipped because they did not start an image.
    public private(set) var skippedBytes = 0

    /// - Parameters:
    ///   - read: returns up to n more bytes, an empty array or nil at the end of the stream.
    ///   - maxBytes: the largest image accepted; a larger one is skipped with an error.
    public init(maxBytes: Int, read: @escaping (Int) -> [UInt8]?) {
        self.read = read
        self.maxBytes = maxBytes
        renewBuffer()
    }

    /// The largest read, and so how far past `maxBytes` the buffer can go.
    static let chunk = 1 << 20

    /// A new, empty buffer with room for the largest image and one more read, so that it never
    /// grows by reallocation: growing an array copies it into one twice the size, and a stream
    /// of zeros after a JPEG marker took 570 MB for a 256 MB limit. The room is address space;
    /// only the bytes written are memory.
    private func renewBuffer(keeping rest: ArraySlice<UInt8> = []) {
        var fresh: [UInt8] = []
        fresh.reserveCapacity(maxBytes + Self.chunk + 16)
        fresh.append(contentsOf: rest)
        buffer = fresh
    }

    /// The first `n` bytes as an image, handed over without a copy (a copy out of the buffer would
    /// hold a large image twice); the bytes after it start a new buffer.
    private func takeImage(_ n: Int) -> [UInt8] {
        var image: [UInt8] = []
        swap(&image, &buffer)
        renewBuffer(keeping: image[n...])
        image.removeLast(image.count - n)  // in place: `image` is the buffer's only owner
        return image
    }

    /// The 1-based position of the last image returned, for naming it ("-#2").
    public var position: Int { index }

    private func fill(_ minimum: Int) -> Bool {
        while buffer.count < minimum {
            guard !eof, let chunk = read(Self.chunk), !chunk.isEmpty else { eof = true; return false }
            if head.count < 16 { head += chunk.prefix(16 - head.count) }
            buffer.append(contentsOf: chunk)
        }
        return true
    }

    public func next() -> Item? {
        guard !ended else { return nil }
        if case .end(let item) = seekImageStart() { return item }
        index += 1
        let isJPEG = buffer[0] == 0xFF
        switch isJPEG ? jpegEnd() : pngEnd() {
        case .complete(let n):
            let end = isJPEG ? extendOverMPOPictures(from: n) : n
            return .image(takeImage(end))
        case .tooLarge:
            return .failure(IngestError(.tooLarge, source: "-#\(index)",
                                        reason: "the image in the stream is over the limit of \(maxBytes) bytes (--max-megabytes, or --max-decode-megabytes: its bytes are held while it is decoded); it was skipped"))
        case .truncated:
            let partial = buffer
            renewBuffer()
            if isJPEG && partial.count > 1024 {
                // A JPEG cut off at the end of the stream still decodes (with a warning).
                return .image(partial)
            }
            return .failure(IngestError(.corrupt, source: "-#\(index)",
                                        reason: "the stream ended inside an image (\(partial.count) bytes)"))
        }
    }

    private enum Seek { case found, end(Item?) }

    /// Drops bytes until the buffer starts a JPEG or PNG; at the stream's end (or after more than
    /// `maxBytes` of bytes that start none) the walk ends, with a failure when it found no image.
    private func seekImageStart() -> Seek {
        var skippedHere = 0
        while true {
            guard fill(8) else {
                skippedBytes += buffer.count
                buffer.removeAll(keepingCapacity: true)
                ended = true
                return .end(index == 0 ? noImage() : nil)
            }
            if buffer[0] == 0xFF && buffer[1] == 0xD8 && buffer[2] == 0xFF { return .found }
            if Array(buffer[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] { return .found }
            // Drop everything up to the next 0xFF or 0x89.
            var k = 1
            while k < buffer.count && buffer[k] != 0xFF && buffer[k] != 0x89 { k += 1 }
            skippedBytes += k
            skippedHere += k
            buffer.removeFirst(k)
            if skippedHere > maxBytes {
                ended = true
                return .end(.failure(IngestError(.notAnImage, source: "-#\(index + 1)",
                                                 reason: "over \(maxBytes) bytes of standard input in a row start no JPEG or PNG image; the rest of the stream was not read")))
            }
        }
    }

    /// A multi-picture JPEG: the pictures after the first follow at once, each with an MPF
    /// segment; returns where the last of them ends (`n` when the JPEG is a single picture).
    private func extendOverMPOPictures(from n: Int) -> Int {
        guard Self.hasMPF(buffer, from: 0) else { return n }
        var end = n
        while fill(end + 4), buffer[end] == 0xFF, buffer[end + 1] == 0xD8, buffer[end + 2] == 0xFF {
            let start = end
            guard fillSegments(from: start), Self.hasMPF(buffer, from: start),
                  case .complete(let m) = jpegEnd(from: start), m > start else { break }
            end = m
        }
        return end
    }

    private enum End { case complete(Int), tooLarge, truncated }

    /// Drops bytes of an oversized image up to the next image start, so the stream goes on.
    private func discardOversized(from offset: Int) -> End {
        buffer.removeAll(keepingCapacity: true)
        // Skip until something that starts an image, reading on.
        while fill(3) {
            if let k = (0..<(buffer.count - 2)).first(where: { buffer[$0] == 0xFF && buffer[$0 + 1] == 0xD8 && buffer[$0 + 2] == 0xFF }) {
                buffer.removeFirst(k)
                return .tooLarge
            }
            buffer.removeFirst(buffer.count - 2)
        }
        buffer.removeAll(keepingCapacity: true)
        return .tooLarge
    }

    /// The failure for a stream that held no image: empty, or what its first bytes say it was.
    private func noImage() -> Item {
        if skippedBytes == 0 {
            return .failure(IngestError(.empty, source: "-", reason: "standard input was empty; nothing to scan"))
        }
        if let format = ImageFormat.detect(head), format != .jpeg, format != .png {
            return .failure(IngestError(.unsupportedFormat, source: "-",
                                        reason: "--stream splits JPEG and PNG images only; scan one \(format.rawValue.uppercased()) image without --stream"))
        }
        return .failure(IngestError(.notAnImage, source: "-",
                                    reason: "standard input held no JPEG or PNG image (\(skippedBytes) bytes read)"))
    }

    /// Reads on until the segments of the JPEG at `start` up to its scan data are in the buffer.
    private func fillSegments(from start: Int) -> Bool {
        var i = start + 2
        while i - start < 1 << 20 {
            guard fill(i + 4), buffer[i] == 0xFF else { return false }
            let marker = buffer[i + 1]
            if marker == 0xDA || marker == 0xD9 { return true }
            i += 2 + (Int(buffer[i + 2]) << 8 | Int(buffer[i + 3]))
        }
        return false
    }

    /// True when the JPEG at `start` has an APP2 "MPF" segment before its scan data.
    static func hasMPF(_ b: [UInt8], from start: Int) -> Bool {
        var i = start + 2
        while i + 8 <= b.count, b[i] == 0xFF {
            let marker = b[i + 1]
            if marker == 0xDA || marker == 0xD9 { return false }
            if marker == 0xE2 && b[i + 4] == 0x4D && b[i + 5] == 0x50 && b[i + 6] == 0x46 && b[i + 7] == 0 { return true }
            i += 2 + (Int(b[i + 2]) << 8 | Int(b[i + 3]))
        }
        return false
    }

    /// Where the JPEG at `start` ends. For a further picture of an MPO (`start` > 0) a picture
    /// that is cut off or too large is left out: the photo ends where that picture starts.
    private func jpegEnd(from start: Int = 0) -> End {
        var i = start + 2
        func overLimit() -> End { start == 0 ? discardOversized(from: i) : .complete(start) }
        func cutOff() -> End { start == 0 ? .truncated : .complete(start) }
        while true {
            if i > maxBytes { return overLimit() }
            // Two bytes first: an EOI at the end of what has arrived completes the image at once.
            guard fill(i + 2) else { return cutOff() }
            guard buffer[i] == 0xFF else { i += 1; continue }  // tolerate stray bytes between segments
            let marker = buffer[i + 1]
            if marker == 0xFF { i += 1; continue }
            if marker == 0xD9 { return .complete(i + 2) }
            guard fill(i + 4) else { return cutOff() }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) || marker == 0x00 { i += 2; continue }
            let length = Int(buffer[i + 2]) << 8 | Int(buffer[i + 3])
            i += 2 + length
            if marker == 0xDA {
                // Scan data: runs to the next marker that is not stuffing or a restart.
                while true {
                    if i > maxBytes { return overLimit() }
                    guard fill(i + 2) else { return cutOff() }
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
