import CardCodes
import ContactParser
import Foundation
import Testing
@testable import CardScan

/// Merging what codes hold into OCR's record: the code wins for its fields, OCR keeps the rest,
/// disagreements are warnings, and a hostile code leaves the OCR record as it was.
@Suite struct CodeMergeTests {
    static let ocr: Contact = {
        var c = ContactParser(fallbackRegion: "US").parse(text: """
            Laura Kimbal
            Director of Engineering
            Northwind Labs Inc
            Tel: (312) 555-0142
            laura.kimball@northwindlabs.com
            """)
        c.urls = []
        // A misreading the parser's cross-checks cannot repair.
        c.name = PersonName(full: "Lavra Kimbal", given: "Lavra", family: "Kimbal")
        return c
    }()

    static func qr(_ text: String) -> (DecodedCode, String) {
        (DecodedCode(symbology: "QR-Code", payload: Array(text.utf8)), "card")
    }

    @Test func theCodesFieldsWinAndOCRFillsTheRest() throws {
        let vcard = "BEGIN:VCARD\nFN:Laura Kimball\nTEL;TYPE=CELL:+1 773 555 0188\nTEL;TYPE=WORK:+1 312 555 0142\nURL:https://northwindlabs.com\nEND:VCARD"
        let merged = CodeMerge.merge(ocr: Self.ocr, found: [Self.qr(vcard)], fallbackRegion: "US")
        #expect(merged.contact.name?.full == "Laura Kimball")
        #expect(merged.contact.phones.map(\.e164) == ["+17735550188", "+13125550142"])
        #expect(merged.contact.title == "Director of Engineering")
        #expect(merged.contact.urls == ["https://northwindlabs.com"])
        #expect(merged.sources[.name] == "qr")
        #expect(merged.sources[.phones] == "qr")
        #expect(merged.sources[.urls] == "qr")
        #expect(merged.sources[.title] == "ocr")
        #expect(merged.sources[.emails] == "ocr")
        #expect(merged.contact.confidence[.phones] == 1)
        // OCR read "Lavra Kimbal" and one number: both disagree with the code; the URL OCR had not.
        #expect(merged.warnings.contains { $0.hasPrefix("qr-conflict (name)") })
        #expect(merged.warnings.contains { $0.hasPrefix("qr-conflict (phones)") })
        #expect(!merged.warnings.contains { $0.hasPrefix("qr-conflict (urls)") })
        #expect(!merged.warnings.joined().contains("Kimbal"))
        #expect(merged.codes == [CodeSummary(symbology: "QR-Code", contact: "vcard", foundIn: "card")])
    }

    @Test(arguments: [
        ("BEGIN:VCARD\n" + String(repeating: "TEL:+14155550100\n", count: 10_000) + "END:VCARD", "code-oversized"),
        ("BEGIN:VCARD\n" + String(repeating: "TEL:+1415555\n", count: 200) + "END:VCARD", "code-too-many-entries"),
        ("BEGIN:VCARD\nFN:A\u{7}\nEND:VCARD", "code-binary"),
        (String(repeating: "BEGIN:VCARD\n", count: 100), "code-nested-too-deep"),
    ])
    func aHostileCodeIsIgnoredWithAWarningAndTheOCRRecordStands(payload: String, code: String) {
        let merged = CodeMerge.merge(ocr: Self.ocr, found: [Self.qr(payload)], fallbackRegion: "US")
        #expect(merged.contact == Self.ocr)
        #expect(merged.warnings.count == 1)
        #expect(merged.warnings.first?.contains(code) == true, "\(merged.warnings)")
        #expect(merged.sources.values.allSatisfy { $0 == "ocr" })
        #expect(merged.codes.first?.contact == nil)
    }

    @Test func bytesThatAreNotUTF8AreReadAsLatin1InAQRCodeAndRefusedElsewhere() {
        // "Försäljningschef" as segno and other generators write it: ISO 8859-1, QR's default.
        let latin1: [UInt8] = Array("BEGIN:VCARD\nTITLE:F".utf8) + [0xF6] + Array("rs".utf8) + [0xE4] + Array("ljningschef\nEND:VCARD".utf8)
        let merged = CodeMerge.merge(ocr: Self.ocr, found: [(DecodedCode(symbology: "QR-Code", payload: latin1), "card")], fallbackRegion: "US")
        #expect(merged.contact.title == "Försäljningschef")
        let other = CodeMerge.merge(ocr: Self.ocr, found: [(DecodedCode(symbology: "CODE-128", payload: [0x41, 0xFF]), "card")], fallbackRegion: "US")
        #expect(other.contact == Self.ocr)
        #expect(other.warnings.first?.contains("code-invalid-text") == true)
        // C1 control bytes are not Latin-1 text either: refused as binary.
        let binary = CodeMerge.merge(ocr: Self.ocr, found: [(DecodedCode(symbology: "QR-Code", payload: [0x42, 0x85, 0x86]), "card")], fallbackRegion: "US")
        #expect(binary.warnings.first?.contains("code-binary") == true)
    }

    @Test func oversizedCodesFromTheReaderAreIgnored() {
        let merged = CodeMerge.merge(ocr: Self.ocr, found: [(DecodedCode(symbology: "QR-Code", payload: [], length: CodeReader.maxPayloadBytes + 1), "card")],
                                     fallbackRegion: "US")
        #expect(merged.contact == Self.ocr)
        #expect(merged.warnings.first?.contains("code-oversized") == true)
    }

    @Test func withCodesOffEveryFieldIsOCRs() {
        let merged = CodeMerge.merge(ocr: Self.ocr, found: [], fallbackRegion: "US")
        #expect(merged.contact == Self.ocr)
        #expect(merged.sources[.name] == "ocr")
        #expect(merged.sources[.urls] == nil)
    }
}
