import CHeifShim
import CLeptonica
import Foundation
import Testing
import TestSupport
@testable import ImageIngest

/// Encodes test images in every format cardscan reads, with the real encoders (leptonica's
/// libpng/libtiff/giflib/libwebp writers, libheif with x265): fixtures the project generates.
enum FormatFixtures {
    /// A small RGB image with structure: gradients and a dark bar, so orientation and colour show.
    static func sample(width: Int = 120, height: Int = 80) -> PixelImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                let bar = (x > width / 4 && x < width / 3) || y < height / 8
                pixels[i] = bar ? 20 : UInt8(x * 255 / width)
                pixels[i + 1] = bar ? 20 : UInt8(y * 255 / height)
                pixels[i + 2] = bar ? 20 : 180
            }
        }
        return PixelImage(width: width, height: height, channels: 3, pixels: pixels)
    }

    static func leptonicaEncode(_ image: PixelImage, format: Int32) -> [UInt8]? {
        guard let pix = pixCreate(Int32(image.width), Int32(image.height), 32), let data = pixGetData(pix) else { return nil }
        var owned: UnsafeMutablePointer<PIX>? = pix
        defer { pixDestroy(&owned) }
        let wpl = Int(pixGetWpl(pix))
        for y in 0..<image.height {
            for x in 0..<image.width {
                let i = (y * image.width + x) * 3
                data[y * wpl + x] = UInt32(image.pixels[i]) << 24 | UInt32(image.pixels[i + 1]) << 16 | UInt32(image.pixels[i + 2]) << 8
            }
        }
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        guard pixWriteMem(&out, &size, pix, format) == 0, let out else { return nil }
        defer { free(out) }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }

    final class Sink { var bytes: [UInt8] = [] }

    /// HEIC through libheif's HEVC encoder; nil when this libheif has no encoder.
    static func heicEncode(_ image: PixelImage) -> [UInt8]? {
        guard heif_have_encoder_for_format(heif_compression_HEVC) != 0, let ctx = heif_context_alloc() else { return nil }
        defer { heif_context_free(ctx) }
        var img: OpaquePointer?
        guard heif_image_create(Int32(image.width), Int32(image.height), heif_colorspace_RGB, heif_chroma_interleaved_RGB, &img).code == heif_error_Ok,
              let img else { return nil }
        defer { heif_image_release(img) }
        guard heif_image_add_plane(img, heif_channel_interleaved, Int32(image.width), Int32(image.height), 8).code == heif_error_Ok else { return nil }
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane(img, heif_channel_interleaved, &stride) else { return nil }
        for y in 0..<image.height {
            for x in 0..<(image.width * 3) { plane[y * Int(stride) + x] = image.pixels[y * image.width * 3 + x] }
        }
        var encoder: OpaquePointer?
        guard heif_context_get_encoder_for_format(ctx, heif_compression_HEVC, &encoder).code == heif_error_Ok, let encoder else { return nil }
        defer { heif_encoder_release(encoder) }
        _ = heif_encoder_set_lossy_quality(encoder, 95)
        guard heif_context_encode_image(ctx, img, encoder, nil, nil).code == heif_error_Ok else { return nil }
        let sink = Sink()
        var writer = heif_writer()
        writer.writer_api_version = 1
        writer.write = { _, data, size, userdata in
            let sink = Unmanaged<Sink>.fromOpaque(userdata!).takeUnretainedValue()
            if let data { sink.bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: size)) }
            return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: nil)
        }
        let userdata = Unmanaged.passUnretained(sink).toOpaque()
        guard heif_context_write(ctx, &writer, userdata).code == heif_error_Ok else { return nil }
        return sink.bytes
    }

    static func meanDifference(_ a: PixelImage, _ b: PixelImage) -> Double {
        guard a.width == b.width, a.height == b.height, a.channels == b.channels else { return .infinity }
        var sum = 0
        for i in a.pixels.indices { sum += abs(Int(a.pixels[i]) - Int(b.pixels[i])) }
        return Double(sum) / Double(a.pixels.count)
    }
}

@Suite struct EveryFormatTests {
    @Test(arguments: [
        (Int32(IFF_PNG), ImageFormat.png, 0.0), (Int32(IFF_TIFF_ZIP), .tiff, 0.0), (Int32(IFF_BMP), .bmp, 0.0),
        (Int32(IFF_WEBP), .webp, 6.0), (Int32(IFF_GIF), .gif, 12.0),
    ] as [(Int32, ImageFormat, Double)])
    func decodesWhatTheRealEncoderWrote(leptonicaFormat: Int32, format: ImageFormat, tolerance: Double) throws {
        let original = FormatFixtures.sample()
        let bytes = try #require(FormatFixtures.leptonicaEncode(original, format: leptonicaFormat), "encoder for \(format)")
        let encoded = try EncodedImage(bytes: bytes, source: "sample.\(format.rawValue)")
        #expect(encoded.format == format)
        #expect(encoded.storedWidth == 120 && encoded.storedHeight == 80)
        let decoded = try encoded.decode()
        #expect(FormatFixtures.meanDifference(decoded.image, original) <= tolerance)
    }

    @Test func decodesHEICWrittenByLibheif() throws {
        guard let bytes = FormatFixtures.heicEncode(FormatFixtures.sample(width: 128, height: 96)) else {
            try Test.cancel("this libheif has no HEVC encoder to write a HEIC fixture")
        }
        let encoded = try EncodedImage(bytes: bytes, source: "sample.heic")
        #expect(encoded.format == .heic)
        let decoded = try encoded.decode()
        #expect(decoded.image.width == 128 && decoded.image.height == 96)
        #expect(FormatFixtures.meanDifference(decoded.image, FormatFixtures.sample(width: 128, height: 96)) < 8)
    }

    /// A HEIC whose `ispe` box says 0 x 0 is a damaged file (corrupt-image), not one "over the
    /// limit", said so by the binary as by the library.
    @Test func aHEICOfZeroByZeroPixelsIsDamagedNotTooLarge() throws {
        guard var bytes = FormatFixtures.heicEncode(FormatFixtures.sample(width: 128, height: 96)) else {
            try Test.cancel("this libheif has no HEVC encoder to write a HEIC fixture")
        }
        let ispe = try #require(bytes.indices.dropLast(16).first { Array(bytes[$0..<$0 + 4]) == Array("ispe".utf8) })
        for i in ispe + 8..<ispe + 16 { bytes[i] = 0 }  // after version and flags: width, height
        #expect(throws: IngestError.self) { _ = try EncodedImage(bytes: bytes, source: "zero.heic") }
        do { _ = try EncodedImage(bytes: bytes, source: "zero.heic") } catch {
            #expect(error.code == .corrupt, "\(error)")
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-zero-\(getpid()).heic")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try runProcess(TestPaths.binary, ["scan", file.path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("\"code\":\"corrupt-image\""), "\(result.stdout)")
        #expect(result.stderr.contains("gives 0 x 0 pixels: no image; the file is damaged") && !result.stderr.contains("over the limit"),
                "\(result.stderr)")
    }

    @Test func truncatedPNGIsATypedError() throws {
        let bytes = try #require(FormatFixtures.leptonicaEncode(FormatFixtures.sample(), format: Int32(IFF_PNG)))
        let cut = Array(bytes.prefix(bytes.count / 2))
        #expect(throws: IngestError.self) { _ = try EncodedImage(bytes: cut, source: "cut.png").decode() }
    }
}

/// The eight-orientation sample photos of ../shared/corpora/metadata/exif-orientation-examples.
@Suite struct OrientationSampleTests {
    static var folder: URL? {
        TestPaths.shared?.appendingPathComponent("corpora/metadata/exif-orientation-examples")
    }

    @Test(arguments: ["Landscape", "Portrait"])
    func everyOrientationDecodesToTheSameUprightImage(kind: String) throws {
        guard let folder = Self.folder else { try Test.cancel("../shared is not beside the checkout") }
        let reference = try EncodedImage(bytes: TestPaths.bytes(folder.appendingPathComponent("\(kind)_1.jpg")), source: "1")
            .decode(grayscale: true).image.resized(longSide: 200)
        for n in 2...8 {
            let encoded = try EncodedImage(bytes: TestPaths.bytes(folder.appendingPathComponent("\(kind)_\(n).jpg")), source: "\(n)")
            #expect(encoded.orientation.rawValue == n)
            let upright = try encoded.decode(grayscale: true).image.resized(longSide: 200)
            let diff = FormatFixtures.meanDifference(upright, reference)
            #expect(diff < 6, "\(kind)_\(n): mean difference \(diff)")
        }
    }
}

/// Every file of ../shared/corpora/metadata, malformed ones included, gives a decoded image, a
/// warning or a typed error: never a crash.
@Suite struct MalformedCorpusTests {
    @Test func everyCorpusFileDecodesOrFailsWithATypedError() throws {
        guard let root = TestPaths.shared?.appendingPathComponent("corpora/metadata") else {
            try Test.cancel("../shared is not beside the checkout")
        }
        let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
        var decoded = 0, refused = 0
        for name in files.sorted() {
            let url = root.appendingPathComponent(name)
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir), !isDir.boolValue else { continue }
            let bytes = try TestPaths.bytes(url)
            guard ImageFormat.detect(bytes) != nil else { continue }
            do {
                let image = try EncodedImage(bytes: bytes, source: name)
                _ = try image.decode(minimumLongSide: 256, grayscale: true)
                decoded += 1
            } catch {
                #expect(error.description.hasPrefix(name + ": "))
                refused += 1
            }
        }
        print("corpus: \(decoded) decoded, \(refused) refused with a typed error")
        #expect(decoded > 100)
    }
}

@Suite struct StreamSplitterTests {
    static func splitter(_ data: [UInt8], chunk: Int = 4096, maxBytes: Int = 1 << 24) -> ImageStreamSplitter {
        var offset = 0
        return ImageStreamSplitter(maxBytes: maxBytes) { n in
            guard offset < data.count else { return nil }
            let end = min(data.count, offset + min(n, chunk))
            defer { offset = end }
            return Array(data[offset..<end])
        }
    }

    static func images(_ splitter: ImageStreamSplitter) -> [[UInt8]] {
        var out: [[UInt8]] = []
        while let item = splitter.next() {
            if case .image(let b) = item { out.append(b) }
        }
        return out
    }

    @Test func splitsConcatenatedJPEGsAndPNGsExactly() throws {
        let jpegs = try ["card-us-plain.jpg", "card-ca-split.jpg"].map { try TestPaths.bytes(TestPaths.cards.appendingPathComponent($0)) }
        let png = try #require(FormatFixtures.leptonicaEncode(FormatFixtures.sample(), format: Int32(IFF_PNG)))
        let stream = jpegs[0] + Array("garbage between".utf8) + png + jpegs[1]
        let parts = Self.images(Self.splitter(stream))
        #expect(parts == [jpegs[0], png, jpegs[1]])
    }

    @Test func aJPEGCutOffAtTheEndIsStillHandedOn() throws {
        let jpeg = try TestPaths.bytes(TestPaths.cards.appendingPathComponent("card-us-plain.jpg"))
        let stream = jpeg + Array(jpeg.prefix(jpeg.count / 2))
        let parts = Self.images(Self.splitter(stream))
        #expect(parts.count == 2)
        #expect(parts[1].count == jpeg.count / 2)
    }

    @Test func anOversizedImageIsSkippedAndTheStreamGoesOn() throws {
        let big = try TestPaths.bytes(TestPaths.cards.appendingPathComponent("card-us-plain.jpg"))
        let small = try #require(FormatFixtures.leptonicaEncode(FormatFixtures.sample(), format: Int32(IFF_PNG)))
        let splitter = Self.splitter(small + big + small, maxBytes: 100_000)
        var kinds: [String] = []
        while let item = splitter.next() {
            switch item {
            case .image: kinds.append("image")
            case .failure(let e): kinds.append(e.code.rawValue)
            }
        }
        // The PNG after the oversized JPEG is found again only if it starts an image on a JPEG
        // boundary; the splitter resynchronises on the next JPEG start.
        #expect(kinds.first == "image")
        #expect(kinds.contains("too-large"))
    }
}

/// Uncompressed BMP and TIFF are read row by row from the file's bytes (RawLayout)
/// instead of through leptonica's full-size images; the pixels are leptonica's, at full size and
/// resized as the rows come.
@Suite struct RawRowTests {
    /// An uncompressed TIFF (one strip per `rowsPerStrip` rows) of `image`, gray or RGB(A).
    static func tiff(_ image: PixelImage, alpha: Bool = false, rowsPerStrip: Int) -> [UInt8] {
        let spp = image.channels == 1 ? 1 : (alpha ? 4 : 3)
        var data: [UInt8] = []
        for i in 0..<(image.width * image.height) {
            data += image.pixels[(i * image.channels)..<(i * image.channels + image.channels)]
            if alpha { data.append(255) }
        }
        let strips = (image.height + rowsPerStrip - 1) / rowsPerStrip, stripBytes = rowsPerStrip * image.width * spp
        var entries: [(Int, Int, Int, Int)] = [(256, 4, 1, image.width), (257, 4, 1, image.height), (258, 3, spp, 0), (259, 3, 1, 1),
                                               (262, 3, 1, spp == 1 ? 1 : 2), (273, 4, strips, 0), (277, 3, 1, spp), (278, 4, 1, rowsPerStrip),
                                               (279, 4, strips, 0)]
        if alpha { entries.append((338, 3, 1, 2)) }
        let ifd = 8 + data.count, after = ifd + 2 + 12 * entries.count + 4
        var out: [UInt8] = Array("II*\0".utf8) + le32(ifd) + data + le16(entries.count)
        var extra: [UInt8] = []
        for (tag, type, count, value) in entries {
            out += le16(tag) + le16(type) + le32(count)
            if tag == 258 && spp > 1 { out += le32(after + extra.count); for _ in 0..<spp { extra += le16(8) } }
            else if tag == 273 && strips > 1 { out += le32(after + extra.count); for s in 0..<strips { extra += le32(8 + s * stripBytes) } }
            else if tag == 273 { out += le32(8) }
            else if tag == 279 && strips > 1 {
                out += le32(after + extra.count)
                for s in 0..<strips { extra += le32(min(stripBytes, data.count - s * stripBytes)) }
            } else if tag == 279 { out += le32(data.count) }
            else if type == 3 { out += le16(tag == 258 ? 8 : value) + [0, 0] }
            else { out += le32(value) }
        }
        return out + le32(0) + extra
    }

    /// A 24-bit BMP of `image` (RGB), bottom-up or top-down.
    static func bmp(_ image: PixelImage, topDown: Bool) -> [UInt8] {
        let stride = (image.width * 3 + 3) / 4 * 4
        var rows: [UInt8] = []
        for r in 0..<image.height {
            let y = topDown ? r : image.height - 1 - r
            var row: [UInt8] = []
            for x in 0..<image.width { let i = (y * image.width + x) * 3; row += [image.pixels[i + 2], image.pixels[i + 1], image.pixels[i]] }
            rows += row + [UInt8](repeating: 0, count: stride - row.count)
        }
        return Array("BM".utf8) + le32(54 + rows.count) + le32(0) + le32(54) + le32(40) + le32(image.width)
            + le32(topDown ? -image.height : image.height) + le16(1) + le16(24) + le32(0) + le32(rows.count) + le32(2835) + le32(2835)
            + le32(0) + le32(0) + rows
    }

    static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
    static func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }

    @Test func uncompressedTIFFAndBMPAreReadInPlaceAsLeptonicaReadsThem() throws {
        let rgb = FormatFixtures.sample(width: 61, height: 37), gray = rgb.grayscale()
        let files: [(String, ImageFormat, [UInt8])] = [
            ("RGB TIFF, one strip", .tiff, Self.tiff(rgb, rowsPerStrip: 37)), ("RGBA TIFF, strips of 5", .tiff, Self.tiff(rgb, alpha: true, rowsPerStrip: 5)),
            ("gray TIFF", .tiff, Self.tiff(gray, rowsPerStrip: 8)), ("BMP", .bmp, Self.bmp(rgb, topDown: false)),
            ("top-down BMP", .bmp, Self.bmp(rgb, topDown: true)),
        ]
        for (what, format, bytes) in files {
            let layout = try #require(RawLayout.of(bytes, format: format), "\(what)")
            for grayscale in [false, true] {
                for size in [(61, 37), (30, 18)] {
                    let raw = layout.decode(bytes, grayscale: grayscale, size: size)
                    let lept = try LeptonicaDecoder.decode(bytes, format: format, grayscale: grayscale, size: { _, _ in size }, source: what)
                    #expect(raw == lept, "\(what), gray \(grayscale), \(size)")
                }
            }
            #expect(try EncodedImage(bytes: bytes, source: what).decode().image == LeptonicaDecoder.decode(
                bytes, format: format, grayscale: false, size: { ($0, $1) }, source: what), "\(what)")
        }
        // Compressed, or cut short: not read in place (leptonica reads or refuses them).
        var cut = Self.tiff(rgb, rowsPerStrip: 37)
        cut.removeLast(cut.count / 2)
        #expect(RawLayout.of(Array(Self.bmp(rgb, topDown: false).prefix(2000)), format: .bmp) == nil)
        #expect(RawLayout.of(cut, format: .tiff) == nil)
    }
}
