import CardFormats
import ContactParser
import Foundation
import Testing
import TestSupport

/// The vCard writer (3.0 and 4.0) and the reader that serves QR payloads and `contacts import`.
@Suite struct VCardTests {
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
                                  city: "London", postalCode: "N1 7GR", country: nil)
        c.region = RegionGuess(code: "GB", sources: ["phone"])
        return c
    }

    @Test(arguments: [VCardVersion.v3, .v4]) func linesAreFoldedAt75OctetsWithCRLFAndNeverInsideAUTF8Sequence(version: VCardVersion) throws {
        var c = Self.sample
        c.title = String(repeating: "Überlänge 日本語 ", count: 20)
        let text = try #require(VCardWriter.card(c, version: version))
        #expect(text.hasSuffix("\r\n"))
        for line in text.components(separatedBy: "\r\n") {
            #expect(line.utf8.count <= 75)
            #expect(String(validating: Array(line.utf8), as: UTF8.self) != nil)
        }
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        let title = try #require(try VCard.entries(in: text, region: nil).first?.contact.title)
        #expect(title == c.title?.trimmingCharacters(in: .whitespaces))
    }

    /// vCard 3.0 as the issue spells it: TEL;TYPE=CELL:+44..., N and FN, ORG, TITLE, EMAIL, URL,
    /// ADR with the country of the card's region, a UID.
    @Test func version3IsWhatAddressBooksImport() throws {
        let text = try #require(VCardWriter.card(Self.sample, version: .v3))
        let lines = text.components(separatedBy: "\r\n")
        #expect(Array(lines.prefix(3)) == ["BEGIN:VCARD", "VERSION:3.0", "PRODID:-//cardscan//cardscan//EN"])
        #expect(lines[3].hasPrefix("UID:urn:uuid:"))
        #expect(lines.contains("FN:Zoë O'Neill-Brontë"))
        #expect(lines.contains("N:O'Neill-Brontë;Zoë;;;"))
        #expect(lines.contains("ORG:Smith\\, Jones & Partners"))
        #expect(lines.contains("TITLE:Head of Research\\, Europe\\; Special Projects"))
        #expect(lines.contains("TEL;TYPE=WORK,VOICE:+442079460321"))
        #expect(lines.contains("TEL;TYPE=CELL:+447700900461"))
        #expect(lines.contains("TEL;TYPE=WORK,FAX:020 7946 0999"))
        #expect(lines.contains("EMAIL;TYPE=INTERNET,WORK:zoe@smithjones.co.uk"))
        #expect(lines.contains("URL:https://www.smithjones.co.uk"))
        #expect(lines.contains("ADR;TYPE=WORK:;;Flat 2\\, 14 Wharf Road;London;;N1 7GR;United Kingdom"))
        #expect(lines.suffix(2) == ["END:VCARD", ""])
    }

    /// N carries what a name prints around its given and family names: honorifics as prefixes,
    /// middle names and initials as additional names, generational suffixes and degrees as
    /// suffixes; a name printed family name first has its two parts alone.
    @Test(arguments: [
        (PersonName(full: "Dr. Hanna M. Kowal, PhD", given: "Hanna", family: "Kowal"), "N:Kowal;Hanna;M.;Dr.;PhD"),
        (PersonName(full: "Walter J. Briggs Jr.", given: "Walter", family: "Briggs"), "N:Briggs;Walter;J.;;Jr."),
        (PersonName(full: "Carla de la Fuente", given: "Carla", family: "de la Fuente"), "N:de la Fuente;Carla;;;"),
        (PersonName(full: "山田 太郎", given: "太郎", family: "山田"), "N:山田;太郎;;;"),
        (PersonName(full: "Anna", given: "Anna", family: nil), "N:;Anna;;;"),
    ])
    func nameComponentsKeepWhatTheNamePrints(name: PersonName, line: String) throws {
        var c = Self.sample
        c.name = name
        for version in [VCardVersion.v3, .v4] {
            let text = try #require(VCardWriter.card(c, version: version))
            #expect(text.components(separatedBy: "\r\n").contains(line))
        }
    }

    @Test func version4GivesTheCountryCodeToo() throws {
        let text = try #require(VCardWriter.card(Self.sample, version: .v4))
        #expect(text.contains("\r\nADR;TYPE=work;CC=GB:;;Flat 2\\, 14 Wharf Road;London;;N1 7GR;United Kingdom\r\n"))
        #expect(text.contains("\r\nTEL;VALUE=uri;TYPE=\"cell,voice\":tel:+447700900461\r\n"))
    }

    /// The same contact has the same UID, export after export; another contact another UID.
    @Test func theUIDIsStable() throws {
        let a = try #require(VCardWriter.card(Self.sample, version: .v3))
        let b = try #require(VCardWriter.card(Self.sample, version: .v4))
        func uid(_ text: String) -> String? { text.components(separatedBy: "\r\n").first { $0.hasPrefix("UID:") } }
        #expect(uid(a) != nil && uid(a) == uid(b))
        var other = Self.sample
        other.emails = ["someone@else.example"]
        #expect(uid(VCardWriter.card(other) ?? "") != uid(a))
        #expect(VCardWriter.card(Self.sample, uid: "urn:uuid:given")?.contains("\r\nUID:urn:uuid:given\r\n") == true)
    }

    /// A contact with nothing to call it by gives no vCard (not "FN:Unknown").
    @Test func aCardNeedsSomethingToCallTheContactBy() {
        #expect(VCardWriter.card(Contact()) == nil)
        var c = Contact()
        c.phones = [Phone(type: .mobile, number: "0151 1234567", e164: "+491511234567")]
        #expect(VCardWriter.card(c)?.contains("FN:+491511234567\r\n") == true)
    }

    /// What the writer wrote, the reader reads back: every field, both versions, several cards a file.
    @Test(arguments: [VCardVersion.v3, .v4]) func theReaderReadsBackWhatTheWriterWrote(version: VCardVersion) throws {
        var second = Contact()
        second.organization = "Büro; Nord"
        second.phones = [Phone(type: .other, number: "+49 30 1234567", e164: "+49301234567")]
        let text = [Self.sample, second].compactMap { VCardWriter.card($0, version: version) }.joined()
        let entries = try VCard.entries(in: text, region: nil)
        #expect(entries.count == 2)
        let a = try #require(entries.first?.contact)
        #expect(a.name == Self.sample.name && a.title == Self.sample.title && a.organization == Self.sample.organization)
        #expect(a.phones.map(\.type) == [.work, .mobile, .fax])
        // The fax number, printed without its country, is read in the address's country (United Kingdom).
        #expect(a.phones.map { $0.e164 ?? $0.number } == ["+442079460321", "+447700900461", "+442079460999"])
        #expect(a.emails == Self.sample.emails && a.urls == ["https://www.smithjones.co.uk"])
        #expect(a.address?.street == "Flat 2, 14 Wharf Road" && a.address?.city == "London" && a.address?.postalCode == "N1 7GR")
        #expect(a.address?.country == "United Kingdom")
        #expect(entries.first?.uid == VCardWriter.uid(for: Self.sample))
        #expect(entries[1].contact.organization == "Büro; Nord" && entries[1].contact.phones.first?.type == .other)
    }

    @Test func aFileWithoutAVCardIsRefused() {
        #expect(throws: FormatError.self) { try VCard.entries(in: "name,phone\r\nA,1\r\n", region: nil) }
    }

    /// Our 3.0 and 4.0 cards through Python's vobject (Debian's python3-vobject), as an address book reads them.
    @Test(arguments: [VCardVersion.v3, .v4]) func vobjectReadsEveryField(version: VCardVersion) throws {
        let card = try #require(VCardWriter.card(Self.sample, version: version))
        let script = """
            import sys, vobject, json
            c = vobject.readOne(sys.stdin.read())
            out = {"fn": c.fn.value, "n": [c.n.value.family, c.n.value.given], "org": c.org.value,
                   "title": c.title.value, "tel": [t.value for t in c.tel_list], "uid": c.uid.value,
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
        let tels = version == .v3 ? ["+442079460321", "+447700900461", "020 7946 0999"]
                                  : ["tel:+442079460321", "tel:+447700900461", "020 7946 0999"]
        #expect(parsed["tel"] as? [String] == tels)
        #expect(parsed["email"] as? String == "zoe@smithjones.co.uk")
        #expect(parsed["url"] as? String == "https://www.smithjones.co.uk")
        #expect(parsed["adr"] as? [String] == ["Flat 2, 14 Wharf Road", "London", "N1 7GR", "United Kingdom"])
        #expect((parsed["uid"] as? String)?.hasPrefix("urn:uuid:") == true)
    }
}

@Suite struct DigestTests {
    /// FIPS 180-4's test vectors, and a message over several blocks fed in pieces.
    @Test func sha256MatchesTheStandardsVectors() {
        #expect(SHA256.hex([UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let long = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(SHA256.hex(long) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        var pieces = SHA256()
        let million = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        for start in stride(from: 0, to: million.count, by: 333) { pieces.update(Array(million[start..<min(start + 333, million.count)])) }
        #expect(pieces.finish().map { String(format: "%02x", $0) }.joined() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}
