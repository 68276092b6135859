import Foundation
import Testing
import TestSupport
@testable import ImageIngest

@Suite struct FormatDetectionTests {
    @Test(arguments: [
        ([0xFF, 0xD8, 0xFF, 0xE1], ImageFormat.jpeg),
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], .png),
        ([0x49, 0x49, 0x2A, 0x00], .tiff),
        ([0x4D, 0x4D, 0x00, 0x2A], .tiff),
        (Array("GIF89a".utf8), .gif),
        (Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8 ".utf8), .webp),
        ([0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0], .heic),
    ] as [([UInt8], ImageFormat)])
    func detectsFromFirstBytes(bytes: [UInt8], format: ImageFormat) {
        let padded = bytes + [UInt8](repeating: 0, count: 32)
        #expect(ImageFormat.detect(padded) == format)
    }

    @Test func htmlIsNotAnImageAndTheErrorNamesFileAndBytes() {
        let html = Array("<html><body>card</body></html>".utf8)
        #expect(throws: IngestError.self) { try EncodedImage(bytes: html, source: "card.jpg") }
        do {
            _ = try EncodedImage(bytes: html, source: "card.jpg")
        } catch {
            #expect(error.code == .notAnImage)
            #expect(error.description.hasPrefix("card.jpg: "))
            #expect(error.description.contains("3C 68 74 6D"))
        }
    }

    @Test func emptyInputIsATypedError() {
        #expect(throws: IngestError(.empty, source: "-", reason: "the input is empty (0 bytes)")) {
            try EncodedImage(bytes: [], source: "-")
        }
    }
}

@Suite struct PixelImageTests {
    /// A 3x2 gray image with distinct values, and what each EXIF orientation must make of it.
    static let source = PixelImage(width: 3, height: 2, channels: 1, pixels: [1, 2, 3, 4, 5, 6])
    // Displayed as:   1 2 3
    //                 4 5 6   (orientation 1)
    static let expected: [Int: (Int, Int, [UInt8])] = [
        1: (3, 2, [1, 2, 3, 4, 5, 6]),
        2: (3, 2, [3, 2, 1, 6, 5, 4]),            // mirrored horizontally
        3: (3, 2, [6, 5, 4, 3, 2, 1]),            // rotated 180
        4: (3, 2, [4, 5, 6, 1, 2, 3]),            // mirrored vertically
        5: (2, 3, [1, 4, 2, 5, 3, 6]),            // transposed
        6: (2, 3, [4, 1, 5, 2, 6, 3]),            // rotated 90 clockwise
        7: (2, 3, [6, 3, 5, 2, 4, 1]),            // transversed
        8: (2, 3, [3, 6, 2, 5, 1, 4]),            // rotated 90 counter-clockwise
    ]

    @Test(arguments: 1...8)
    func appliesEveryExifOrientation(orientation: Int) {
        let out = Self.source.applyingOrientation(ImageOrientation(exif: orientation))
        let (w, h, pixels) = Self.expected[orientation]!
        #expect(out.width == w && out.height == h)
        #expect(out.pixels == pixels)
    }

    @Test func areaAveragingDownscaleAveragesBlocks() {
        let img = PixelImage(width: 4, height: 2, channels: 1, pixels: [0, 100, 200, 200, 100, 200, 0, 0])
        let small = img.resized(width: 2, height: 1)
        #expect(small.pixels == [100, 100])
    }

    /// The resize works one output row at a time (its source rows summed eight values at a time,
    /// then resampled across, RGB two pixels at a time, by `CResizeKernels` with AVX2 where the processor
    /// has it); it must give what the two whole passes (columns into a float plane, then rows) give
    /// to the bit, shrinking and enlarging, gray and colour, at the preview's ratio of about 3.15
    /// (four or five taps a pixel, so neighbours' tap counts differ).
    @Test(arguments: [(3, 37, 23, 11, 7), (1, 37, 23, 11, 7), (3, 20, 15, 51, 33), (1, 9, 40, 30, 9), (3, 64, 48, 20, 15),
                      (3, 403, 302, 128, 96), (1, 403, 302, 128, 96)])
    func rowByRowResizeMatchesTwoWholePasses(channels c: Int, w: Int, h: Int, nw: Int, nh: Int) {
        var state: UInt64 = UInt64(w * 1000 + h * 10 + c)
        let pixels = (0..<(w * h * c)).map { _ -> UInt8 in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        let image = PixelImage(width: w, height: h, channels: c, pixels: pixels)
        let horizontal = ResampleTaps(from: w, to: nw), vertical = ResampleTaps(from: h, to: nh)
        // The vertical pass over the whole image, then the horizontal one, each sum in tap order.
        var plane = [Float](repeating: 0, count: w * c * nh)
        for y in 0..<nh {
            for i in 0..<(w * c) {
                var acc: Float = 0
                var sy = vertical.start[y]
                for t in vertical.offset[y]..<vertical.offset[y + 1] {
                    acc += Float(pixels[sy * w * c + i]) * vertical.weight[t]
                    sy += 1
                }
                plane[y * w * c + i] = acc
            }
        }
        var expected = [UInt8](repeating: 0, count: nw * nh * c)
        for y in 0..<nh {
            for x in 0..<nw {
                for ch in 0..<c {
                    var sum: Float = 0
                    var sx = horizontal.start[x]
                    for t in horizontal.offset[x]..<horizontal.offset[x + 1] {
                        sum += plane[(y * w + sx) * c + ch] * horizontal.weight[t]
                        sx += 1
                    }
                    expected[(y * nw + x) * c + ch] = UInt8(max(0, min(255, sum + 0.5)))
                }
            }
        }
        #expect(image.resized(width: nw, height: nh).pixels == expected)
    }

    @Test func resizeKeepsAspectRatioOnTheLongSide() {
        let img = PixelImage(width: 4032, height: 3024, channels: 1, fill: 7)
        let out = img.resized(longSide: 1024)
        #expect(out.width == 1024 && out.height == 768)
        #expect(out.pixels.allSatisfy { $0 == 7 })
    }
}

@Suite struct JPEGDecodingTests {
    static func fixture(_ name: String) throws -> [UInt8] {
        try TestPaths.bytes(TestPaths.cards.appendingPathComponent(name))
    }

    /// Offset of the main image's SOF0 (not the EXIF thumbnail's).
    static func frameHeader(_ bytes: [UInt8]) -> Int? {
        JPEGStructure(bytes)?.segments.first { $0.marker == 0xC0 }?.range.lowerBound
    }

    @Test func readsOrientationAndSizeFromTheHeader() throws {
        for card in try ExpectedCard.all() {
            let image = try EncodedImage(bytes: try Self.fixture(card.file), source: card.file)
            #expect(image.format == .jpeg)
            #expect(image.orientation.rawValue == card.orientation, "\(card.file)")
            #expect(image.uprightWidth == 2000 && image.uprightHeight == 1500, "\(card.file) should be upright landscape")
        }
    }

    @Test func scaledDecodeIsTheSmallestScaleThatIsLargeEnough() throws {
        let image = try EncodedImage(bytes: try Self.fixture("card-us-plain.jpg"), source: "a")
        let small = try image.decode(minimumLongSide: 480, grayscale: true)
        #expect(small.image.longSide == 500)  // 2000 * 2/8
        #expect(small.image.channels == 1)
        let full = try image.decode(minimumLongSide: nil, grayscale: false)
        #expect(full.image.longSide == 2000 && full.image.channels == 3)
    }

    @Test func decodedImageIsUpright() throws {
        // The fixture with orientation 6 stores pixels rotated; after decoding it must be landscape
        // with the card's dark text band in the same place as the upright original.
        let image = try EncodedImage(bytes: try Self.fixture("card-gb-dark.jpg"), source: "gb")
        #expect(image.orientation == .right)
        let decoded = try image.decode(minimumLongSide: 400)
        #expect(decoded.image.width > decoded.image.height)
    }

    @Test func truncatedJPEGDecodesWithAWarning() throws {
        let bytes = try Self.fixture("card-us-plain.jpg")
        let cut = Array(bytes.prefix(bytes.count * 2 / 3))
        let image = try EncodedImage(bytes: cut, source: "cut.jpg")
        let decoded = try image.decode(minimumLongSide: 400)
        #expect(decoded.warnings.contains { $0.hasPrefix("truncated") })
    }

    @Test func corruptJPEGIsATypedErrorNotACrash() throws {
        var bytes = try Self.fixture("card-us-plain.jpg")
        // Destroy the frame's component table: libjpeg's default handler would call exit().
        let sof = try #require(Self.frameHeader(bytes))
        for i in (sof + 9)..<(sof + 19) { bytes[i] = 0xEE }
        #expect(throws: IngestError.self) {
            let image = try EncodedImage(bytes: bytes, source: "bad.jpg")
            _ = try image.decode()
        }
    }

    @Test func decompressionBombIsRefusedFromTheHeader() throws {
        // A valid JPEG header claiming 60000 x 60000 pixels and no data behind it.
        var bytes = try Self.fixture("card-us-plain.jpg")
        let sof = try #require(Self.frameHeader(bytes))
        bytes[sof + 5] = 0xEA; bytes[sof + 6] = 0x60  // height 60000
        bytes[sof + 7] = 0xEA; bytes[sof + 8] = 0x60  // width 60000
        bytes = Array(bytes.prefix(sof + 400))
        let clock = ContinuousClock()
        let start = clock.now
        #expect(throws: IngestError.self) { try EncodedImage(bytes: bytes, source: "bomb.jpg") }
        do { _ = try EncodedImage(bytes: bytes, source: "bomb.jpg") } catch { #expect(error.code == .tooLarge) }
        #expect(clock.now - start < .seconds(1))
    }
}

@Suite struct JPEGStructureTests {
    @Test func walksSegmentsAndFindsExif() throws {
        let bytes = try TestPaths.bytes(TestPaths.cards.appendingPathComponent("card-us-plain.jpg"))
        let structure = try #require(JPEGStructure(bytes))
        #expect(structure.sawEndOfImage)
        #expect(!structure.truncated)
        #expect(structure.segments.contains { $0.kind == .entropyCoded })
        #expect(structure.exifPayload(in: bytes) != nil)
        // Segments tile the file without gaps.
        var position = 0
        for s in structure.segments {
            #expect(s.range.lowerBound == position)
            position = s.range.upperBound
        }
        #expect(position == bytes.count)
    }
}
