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

    @Test func vCardLinesAreFoldedAt75OctetsWithCRLF() throws {
        var c = Self.sample
        c.title = String(repeating: "Überlänge ", count: 20)
        let text = try #require(VCardExport.card(c))
        #expect(text.hasSuffix("\r\n"))
        for line in text.components(separatedBy: "\r\n") { #expect(line.utf8.count <= 75) }
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
    }

    /// Parses our vCard with Python's vobject (Debian's python3-vobject), as an address book would.
    @Test func vCardImportsIntoARealParser() throws {
        let card = try #require(VCardExport.card(Self.sample))
        #expect(card.contains("\r\nPRODID:-//cardscan//cardscan//EN\r\n"))
        let script = """
            import sys, vobject, json
            c = vobject.readOne(sys.stdin.read())
            out = {"fn": c.fn.value, "n": [c.n.value.family, c.n.value.given], "org": c.org.value,
                   "title": c.title.value, "tel": [(t.value, t.params.get("TYPE")) for t in c.tel_list],
                   "email": c.email.value, "url": c.url.value,
                   "adr": [c.adr.value.street, c.adr.value.city, c.adr.value.code, c.adr.value.country]}
            print(json.dumps(out))
            """
        let result = try runProcess(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script], stdin: Data(card.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(parsed["fn"] as? String == "Zoë O'Neill-Brontë")
        #expect(parsed["n"] as? [String] == ["O'Neill-Brontë", "Zoë"])
        #expect((parsed["org"] as? [String])?.first == "Smith, Jones & Partners")
        #expect(parsed["title"] as? String == "Head of Research, Europe; Special Projects")
        let tels = try #require(parsed["tel"] as? [[Any]])
        #expect(tels.map { $0[0] as? String } == ["tel:+442079460321", "tel:+447700900461", "020 7946 0999"])
        #expect(parsed["email"] as? String == "zoe@smithjones.co.uk")
        #expect(parsed["url"] as? String == "https://www.smithjones.co.uk")
        #expect(parsed["adr"] as? [String] == ["Flat 2, 14 Wharf Road", "London", "N1 7GR", "United Kingdom"])
    }

    /// Reads our CSV back with Python's csv module (RFC 4180 dialect).
    @Test func csvRoundTripsThroughARealParser() throws {
        let record = ScanRecord.scanned("cards/a,b.jpg", Self.sample)
        let bad = ScanRecord.failure("notes.txt", ScanError(.notAnImage, "notes.txt: not an image"))
        let text = CSVExport.header + CSVExport.row(record) + CSVExport.row(bad)
        #expect(text.components(separatedBy: "\r\n").count == 4)
        let script = "import sys, csv, json; print(json.dumps(list(csv.DictReader(sys.stdin, dialect='excel'))))"
        let result = try runProcess(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script], stdin: Data(text.utf8))
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: String]])
        #expect(rows.count == 2)
        #expect(rows[0]["source"] == "cards/a,b.jpg")
        #expect(rows[0]["organization"] == "Smith, Jones & Partners")
        #expect(rows[0]["phone_work"] == "'+442079460321")
        #expect(rows[0]["phone_fax"] == "020 7946 0999")
        #expect(rows[0]["address"] == "Flat 2, 14 Wharf Road; London N1 7GR")
        #expect(rows[1]["status"] == "error" && rows[1]["error"] == "not-an-image")
    }

    /// OWASP's rule: every cell starting with = + - @ tab or CR, numbers included
    /// (`-2+3 Foo Inc` and `+7+7 Ltd` run as formulas in a spreadsheet).
    @Test func csvDefusesEveryFormulaStart() {
        #expect(CSVExport.field("=HYPERLINK(\"x\")") == "\"'=HYPERLINK(\"\"x\"\")\"")
        #expect(CSVExport.field("+14155550100") == "'+14155550100")
        #expect(CSVExport.field("-2+3 Foo Inc") == "'-2+3 Foo Inc")
        #expect(CSVExport.field("+7+7 Ltd") == "'+7+7 Ltd")
        #expect(CSVExport.field("@handle") == "'@handle")
        #expect(CSVExport.field("\tcmd") == "'\tcmd")
        #expect(CSVExport.field("\rcmd") == "\"'\rcmd\"")
        #expect(CSVExport.field("Acme") == "Acme")
    }

    /// A contact with nothing to call it by gives no vCard (not "FN:Unknown").
    @Test func vCardNeedsSomethingToCallTheContactBy() {
        #expect(VCardExport.card(Contact()) == nil)
        var c = Contact()
        c.phones = [Phone(type: .mobile, number: "0151 1234567", e164: "+491511234567")]
        #expect(VCardExport.card(c)?.contains("FN:+491511234567\r\n") == true)
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
