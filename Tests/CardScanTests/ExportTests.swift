import CardFormats
import ContactParser
import Foundation
import Testing
import TestSupport
@testable import CardScan

@Suite struct ExportTests {
    static var sample: Contact {
        var c = Contact()
        c.name = PersonName(full: "Zoë O'Neill-Brontë", given: "Zoë", family: "O'Neill-Brontë")
        c.title = "Head of Research, Europe; Special Projects"
        c.organization = "Smith, Jones & Partners"
        c.phones = [Phone(type: .work, number: "+44 20 7946 0321", e164: "+442079460321"),
                    Phone(type: .mobile, number: "07700 900461", e164: "+447700900461"),
                    Phone(type: .fax, number: "020 7946 0999", e164: nil)]
        c.emails = ["zoe@smithjones.co.uk"]
        c.urls = ["www.smithjones.co.uk"]
        c.address = PostalAddress(lines: ["Flat 2, 14 Wharf Road", "London N1 7GR"], street: "Flat 2, 14 Wharf Road",
                                  city: "London", postalCode: "N1 7GR", country: "United Kingdom")
        return c
    }

    /// Reads our CSV back with Python's csv module (RFC 4180 dialect).
    @Test func csvRoundTripsThroughARealParser() throws {
        let record = ScanRecord.scanned("cards/a,b.jpg", Self.sample)
        let bad = ScanRecord.failure("notes.txt", ScanError(.notAnImage, "notes.txt: not an image"))
        var exporter = RecordExporter(format: .csv)
        let text = exporter.header() + exporter.text(for: record) + exporter.text(for: bad)
        #expect(text.components(separatedBy: "\r\n").count == 4)
        let script = "import sys, csv, json; print(json.dumps(list(csv.DictReader(sys.stdin, dialect='excel'))))"
        let result = try runProcess(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script], stdin: Data(text.utf8))
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: String]])
        #expect(rows.count == 2)
        #expect(rows[0]["source"] == "cards/a,b.jpg")
        #expect(rows[0]["organization"] == "Smith, Jones & Partners")
        // An E.164 number is no formula: it is written as it is.
        #expect(rows[0]["phone_work"] == "+442079460321")
        #expect(rows[0]["phone_fax"] == "020 7946 0999")
        #expect(rows[0]["address"] == "Flat 2, 14 Wharf Road; London N1 7GR")
        #expect(rows[1]["status"] == "error" && rows[1]["error"] == "not-an-image")
    }

    /// The address-book formats hold contacts only: no error records, no empty contacts.
    @Test func addressBookFormatsHoldContactsOnly() {
        let records = [ScanRecord.scanned("a.jpg", Self.sample), ScanRecord.failure("b.txt", ScanError(.notAnImage, "b.txt: not an image")),
                       ScanRecord.scanned("c.jpg", Contact())]
        for format in ExportFormat.allCases where format.holdsContactsOnly {
            var exporter = RecordExporter(format: format)
            let texts = records.map { exporter.text(for: $0) }
            #expect(!texts[0].isEmpty && texts[1].isEmpty && texts[2].isEmpty, "\(format)")
        }
    }

    /// Numbers keep the precision they mean: confidence 0.85 is 0.85, not 0.9.
    @Test func jsonNumbersKeepTheirPrecision() {
        #expect(JSONValue.number(0.85).serialized() == "0.85")
        #expect(JSONValue.number(12.0).serialized() == "12.0")
        var c = Contact()
        c.confidence = [.name: 0.856]
        var record = ScanRecord.scanned("a.jpg", c)
        record.timings[.ocr] = 101.26
        let text = record.json().serialized()
        #expect(text.contains("\"name\":0.86"))
        #expect(text.contains("\"ocr\":101.3"))
    }
}
