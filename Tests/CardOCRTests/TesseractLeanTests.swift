import CLeptonica
import CTesseractLean
import ImageIngest
import Testing
import TestSupport
@testable import CardOCR

/// The work `CTesseractLean` leaves out of libtesseract: its own calls reach the shim, the line
/// images come back pixel for pixel, and every reading is the same as Tesseract's own way's.
@Suite struct TesseractLeanTests {
    /// A small gray test pattern as a Leptonica image.
    static func pattern() -> UnsafeMutablePointer<PIX>? {
        let pix = pixCreate(37, 11, 8)
        for y in 0..<11 { for x in 0..<37 { pixSetPixel(pix, Int32(x), Int32(y), UInt32((x * 7 + y * 13) % 256)) } }
        return pix
    }

    static func written(_ pix: UnsafeMutablePointer<PIX>?) -> [UInt8] {
        var data: UnsafeMutablePointer<UInt8>?
        var size = 0
        guard pixWriteMem(&data, &size, pix, Int32(IFF_PNG)) == 0, let data else { return [] }
        defer { lept_free(data) }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    @Test func onlyInsideTheWindowIsAPNGKeptUncompressed() throws {
        var pix = Self.pattern()
        try #require(pix != nil)
        defer { pixDestroy(&pix) }
        let before = cs_tesseract_lines_served()
        let png = Self.written(pix)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "outside the window Leptonica writes a PNG")
        cs_tesseract_lines_begin()
        let kept = Self.written(pix)
        cs_tesseract_lines_end()
        #expect(cs_tesseract_lines_served() == before + 1)
        #expect(kept.starts(with: Array("spix".utf8)))
        #expect(Self.written(pix).starts(with: [0x89, 0x50, 0x4E, 0x47]), "the window is closed again")
        // Both read back, pixel for pixel, through the reader Tesseract uses.
        for bytes in [png, kept] {
            var back = bytes.withUnsafeBufferPointer { pixReadMem($0.baseAddress, $0.count) }
            defer { pixDestroy(&back) }
            var same: Int32 = 0
            #expect(pixEqual(pix, back, &same) == 0 && same == 1)
        }
    }

    @Test(arguments: ["card-us-plain.jpg", "card-de-band.jpg", "card-ca-split.jpg"])
    func readingsAreTheSameAsTesseractsOwnWays(file: String) throws {
        let card = try OCREngineTests.prepared(file)
        let (linesBefore, skippedBefore) = (cs_tesseract_lines_served(), cs_tesseract_ambigs_skipped())
        let lean = try OCREngine()
        #expect(cs_tesseract_ambigs_skipped() == skippedBefore + 1, "the English engine skips the table")
        let leanPage = try lean.recognize(card.image)
        let served = cs_tesseract_lines_served() - linesBefore
        // libtesseract's own calls reach the shim: at least one image per line read.
        #expect(served >= UInt(leanPage.lines.count) && leanPage.lines.count > 3, "\(served) images")

        let stock = try OCREngine(compressLineImages: true, loadUniversalAmbiguities: true)
        #expect(cs_tesseract_ambigs_skipped() == skippedBefore + 1, "Tesseract's own initialisation is left alone")
        let servedBefore = cs_tesseract_lines_served()
        let stockPage = try stock.recognize(card.image)
        #expect(cs_tesseract_lines_served() == servedBefore, "Tesseract's PNG way is left alone")
        #expect(leanPage == stockPage)
        // A process-wide setting of Tesseract's: off from the first English engine on, for every engine.
        #expect(lean.setting("textord_disable_pitch_test") == true && stock.setting("textord_disable_pitch_test") == true)
    }

    @Test func onlyLanguageDataWithoutALegacyRecogniserSkipsTheTable() throws {
        let dir = try OCREngine.locateTessdata(languages: .english, explicit: nil)
        // Debian's data is tessdata_fast: the LSTM network alone.
        #expect(TrainedData.isLSTMOnly(at: "\(dir)/eng.traineddata"))
        // The orientation data is the legacy recogniser's alone.
        let osd = try #require(TrainedData.components(at: "\(dir)/osd.traineddata"))
        #expect(osd.contains(TrainedData.legacyTemplates) && !osd.contains(TrainedData.lstmNetwork))
        #expect(!TrainedData.isLSTMOnly(at: "\(dir)/osd.traineddata"))
        // Not language data at all, or no file: never skipped.
        let photo = TestPaths.cards.appendingPathComponent("card-us-plain.jpg").path
        #expect(TrainedData.components(at: photo) == nil)
        #expect(!TrainedData.isLSTMOnly(at: photo))
        #expect(!TrainedData.isLSTMOnly(at: "\(dir)/no-such-language.traineddata"))
    }
}
