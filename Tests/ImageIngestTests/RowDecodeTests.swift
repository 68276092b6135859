import Foundation
import Testing
import TestSupport
import CJPEGShim
@testable import ImageIngest

/// A JPEG made row by row into its gray image and a small colour copy as it decodes gives what
/// decoding it whole, graying and resizing it give, byte for byte, with the same warnings, and
/// fails where the whole decode fails.
@Suite struct RowDecodeTests {
    static func jpegs() throws -> [URL] {
        var dirs = [TestPaths.cards, TestPaths.conditions]
        if let corpus = TestPaths.shared?.appendingPathComponent("corpora/metadata") { dirs.append(corpus) }
        var files: [URL] = []
        for dir in dirs {
            guard let walk = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walk where ["jpg", "jpeg"].contains(url.pathExtension.lowercased()) { files.append(url) }
        }
        return files.sorted { $0.path < $1.path }
    }

    @Test func rowByRowEqualsWholeDecodeGrayAndResize() throws {
        let files = try Self.jpegs()
        #expect(files.count >= 17)
        var compared = 0, failedAlike = 0
        for url in files {
            guard let bytes = try? TestPaths.bytes(url),
                  let encoded = try? EncodedImage(bytes: bytes, source: url.lastPathComponent) else { continue }
            // Fixtures at the working size and preview cardscan uses; the corpus's small files smaller.
            let (minimum, small) = max(encoded.storedWidth, encoded.storedHeight) >= 1536 ? (1536, 640) : (64, 24)
            let whole: DecodedImage
            do {
                whole = try encoded.decode(minimumLongSide: minimum, grayscale: false, applyOrientation: false)
            } catch {
                #expect(throws: IngestError.self, "\(url.lastPathComponent)") {
                    _ = try encoded.decodeGrayAndSmall(minimumLongSide: minimum, smallLongSide: small)
                }
                failedAlike += 1
                continue
            }
            guard whole.image.longSide > small * 3 / 2 else {
                // Too small to want a preview: left to the whole decode.
                #expect(try encoded.decodeGrayAndSmall(minimumLongSide: minimum, smallLongSide: small) == nil)
                continue
            }
            let rows = try #require(try encoded.decodeGrayAndSmall(minimumLongSide: minimum, smallLongSide: small),
                                    "\(url.lastPathComponent)")
            #expect(rows.gray.image == whole.image.grayscale(), "\(url.lastPathComponent)")
            #expect(rows.small == whole.image.resized(longSide: small), "\(url.lastPathComponent)")
            #expect(rows.gray.warnings == whole.warnings, "\(url.lastPathComponent)")
            compared += 1
        }
        #expect(compared >= 17)
        print("row decode: \(compared) JPEGs compared, \(failedAlike) failing both ways")
    }

    @Test func notAJPEGOrAlreadySmallIsLeftToTheWholeDecode() throws {
        let photo = try EncodedImage(bytes: TestPaths.bytes(TestPaths.cards.appendingPathComponent("card-us-plain.jpg")), source: "card")
        // Asked for a preview almost as large as the decoded photo: no resize wanted.
        #expect(try photo.decodeGrayAndSmall(minimumLongSide: 64, smallLongSide: 5000) == nil)
        let image = PixelImage(width: 40, height: 30, channels: 3, pixels: [UInt8](repeating: 90, count: 40 * 30 * 3))
        let png = try EncodedImage(bytes: PNGEncoder.encode(image, source: "probe"), source: "probe")
        #expect(try png.decodeGrayAndSmall(minimumLongSide: 8, smallLongSide: 2) == nil)
    }

    /// The gray row the decoder makes with AVX2 is the portable loop's, byte for byte, at widths
    /// that leave every kind of tail.
    @Test func grayRowsAreTheSameEitherWay() throws {
        guard TestProcessor.hasAVX2 else { try Test.cancel("this processor has no AVX2: the AVX2 gray row is not compared") }
        var state: UInt64 = 12345
        for width in [1, 7, 31, 32, 33, 100, 2016, 4033] {
            let rgb = (0..<(3 * width)).map { _ -> UInt8 in
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return UInt8(truncatingIfNeeded: state >> 56)
            }
            var plain = [UInt8](repeating: 0, count: width), chosen = [UInt8](repeating: 1, count: width)
            let usedAVX2 = cs_gray_rows_agree(rgb, &plain, &chosen, width)
            // Both paths ran: where this processor has AVX2 the chosen one was it.
            #expect(usedAVX2 == (TestProcessor.hasAVX2 ? 1 : 0))
            #expect(plain == chosen, "width \(width)")
            #expect(plain[width - 1] == UInt8((Int(rgb[3 * width - 3]) * 77 + Int(rgb[3 * width - 2]) * 150 + Int(rgb[3 * width - 1]) * 29) >> 8))
        }
    }
}

/// jpeg_mem_dest frees the buffer it handed out when it grows it, so an error path freeing that
/// pointer after a growth would free it twice. The shim owns and grows its buffer; an error after
/// growths (here: the output passing its limit) frees it once (make sanitize runs this under
/// ASan), and the encoder goes on working.
@Suite struct JPEGEncoderTests {
    @Test func anErrorAfterTheBufferGrewFreesItOnceAndTheEncoderGoesOn() throws {
        var g = SeededGenerator(state: 77)
        let noise = PixelImage(width: 600, height: 400, channels: 3, pixels: (0..<(600 * 400 * 3)).map { _ in UInt8.random(in: 0...255, using: &g) })
        let whole = try JPEGEncoder.encode(noise, quality: 95, source: "noise")
        #expect(whole.count > 4 * 65536, "the output grew its buffer more than twice (\(whole.count) bytes)")
        for limit in [70_000, 150_000, whole.count - 1] {
            #expect(throws: IngestError.self) { _ = try JPEGEncoder.encode(noise, quality: 95, maxLength: limit, source: "noise") }
            do { _ = try JPEGEncoder.encode(noise, quality: 95, maxLength: limit, source: "noise") } catch {
                #expect(error.code == .encodeFailed && error.reason.contains("over its limit of \(limit) bytes"), "\(error)")
            }
        }
        #expect(try JPEGEncoder.encode(noise, quality: 95, maxLength: whole.count, source: "noise") == whole)
        let decoded = try EncodedImage(bytes: whole, source: "noise").decode()
        #expect(decoded.image.width == 600 && decoded.image.height == 400)
    }
}
