import Foundation
import ImageIngest
import Testing
import TestSupport
@testable import CardCodes

/// libzbar on real pixels: a generated card photo with a vCard QR code, and one without.
@Suite struct CodeReaderTests {
    func photo(_ name: String) throws -> PixelImage {
        let url = TestPaths.conditions.appendingPathComponent(name)
        let encoded = try EncodedImage(bytes: try TestPaths.bytes(url), source: name)
        return try encoded.decode(minimumLongSide: 100_000, grayscale: true, applyOrientation: true).image
    }

    @Test func readsTheVCardInAPhotograph() throws {
        let codes = CodeReader.read(try photo("cond-qr-vcard.jpg"), options: .init(qrOnly: true, density: 1))
        let code = try #require(codes.first)
        #expect(code.symbology == "QR-Code")
        let text = try #require(code.text)
        let held = try #require(try CodePayload.parse(text, region: "SE"))
        #expect(held.kind == .vcard)
        #expect(held.contact.phones.count == 2)
    }

    @Test func findsNothingOnACardWithoutACode() throws {
        #expect(CodeReader.read(try photo("cond-small.jpg"), options: .init(qrOnly: false, density: 1)).isEmpty)
    }

    @Test func tinyAndColourImagesAreHandled() {
        #expect(CodeReader.read(PixelImage(width: 4, height: 4, channels: 1, fill: 255)).isEmpty)
        #expect(CodeReader.read(PixelImage(width: 64, height: 64, channels: 3, fill: 128)).isEmpty)
    }
}
