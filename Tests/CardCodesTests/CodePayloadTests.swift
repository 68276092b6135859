import ContactParser
import Foundation
import Testing
@testable import CardCodes

@Suite struct CodePayloadTests {
    func parse(_ text: String, region: String? = "US") throws -> CodeContact {
        try #require(try CodePayload.parse(Array(text.utf8), region: region))
    }

    @Test func vCard3WithFoldedLinesEscapesAndTypes() throws {
        let card = try parse("""
            BEGIN:VCARD\r
            VERSION:3.0\r
            N:Vogel;Katrin;;Dr.;\r
            FN:Dr. Katrin Vogel\r
            ORG:Lindenholz GmbH;Vertrieb\r
            TITLE:Leiterin Vertrieb\\, Export\r
            TEL;TYPE=WORK,VOICE:+49 30 23456789\r
            TEL;TYPE=CELL:+49 151 2345 6789\r
            TEL;TYPE=FAX:+49 30 23456788\r
            EMAIL;TYPE=INTERNET:k.vogel@lindenholz.de\r
            URL:https://www.lindenholz.de/kon\r
             takt\r
            ADR;TYPE=WORK:;;Friedrichstraße 112;Berlin;;10117;Germany\r
            END:VCARD\r
            """)
        #expect(card.kind == .vcard)
        let c = card.contact
        #expect(c.name == PersonName(full: "Dr. Katrin Vogel", given: "Katrin", family: "Vogel"))
        #expect(c.organization == "Lindenholz GmbH")
        #expect(c.title == "Leiterin Vertrieb, Export")
        #expect(c.phones.map(\.e164) == ["+493023456789", "+4915123456789", "+493023456788"])
        #expect(c.phones.map(\.type) == [.work, .mobile, .fax])
        #expect(c.emails == ["k.vogel@lindenholz.de"])
        #expect(c.urls == ["https://www.lindenholz.de/kontakt"])
        #expect(c.address?.street == "Friedrichstraße 112")
        #expect(c.address?.postalCode == "10117")
        #expect(c.address?.city == "Berlin")
        #expect(c.address?.lines == ["Friedrichstraße 112", "10117 Berlin", "Germany"])
        #expect(Set(card.fields) == Set(Contact.Field.allCases))
        #expect(c.confidence.values.allSatisfy { $0 == 1 })
    }

    @Test func vCard21QuotedPrintableInLatin1WithSoftBreaksAndBareTypes() throws {
        // "Müller" in ISO-8859-1 is M=FCller; the address value is broken with a soft "=" line end.
        let card = try parse("""
            BEGIN:VCARD
            VERSION:2.1
            N;CHARSET=ISO-8859-1;ENCODING=QUOTED-PRINTABLE:M=FCller;J=F6rg
            TEL;WORK;VOICE:030 1234567
            TEL;CELL:0171 2345678
            ADR;WORK;CHARSET=UTF-8;QUOTED-PRINTABLE:;;Stra=C3=9Fe des 17. Juni 1;Berl=
            in;;10623;DE
            PHOTO;ENCODING=BASE64;TYPE=JPEG:/9j/4AAQSkZJRgABAQ
            END:VCARD
            """)
        #expect(card.contact.name?.full == "Jörg Müller")
        #expect(card.contact.name?.family == "Müller")
        #expect(card.contact.address?.street == "Straße des 17. Juni 1")
        #expect(card.contact.address?.city == "Berlin")
        // National numbers are read in the address's country, not the caller's region.
        #expect(card.contact.phones.map(\.e164) == ["+49301234567", "+491712345678"])
        #expect(card.contact.phones.map(\.type) == [.work, .mobile])
    }

    @Test func vCard4TelephoneURIsAndUntypedMobileNumbers() throws {
        let card = try parse("""
            BEGIN:VCARD
            VERSION:4.0
            FN:Emily Francis
            TEL;VALUE=uri;TYPE="voice,work":tel:+61-7-5550-4508
            TEL;VALUE=uri:tel:+61461745994
            item1.EMAIL:francis@roberts.com.au
            END:VCARD
            """)
        #expect(card.contact.phones.map(\.e164) == ["+61755504508", "+61461745994"])
        #expect(card.contact.phones.map(\.type) == [.work, .mobile])
        #expect(card.contact.emails == ["francis@roberts.com.au"])
        #expect(card.contact.name?.full == "Emily Francis")
    }

    @Test func onlyTheOuterCardIsReadNotAnAgentsCard() throws {
        let card = try parse("""
            BEGIN:VCARD
            FN:Ana Ruiz
            AGENT:BEGIN:VCARD
            FN:Somebody Else
            TEL:+34 988 15 81 57
            END:VCARD
            EMAIL:ana@example.es
            END:VCARD
            """)
        #expect(card.contact.name?.full == "Ana Ruiz")
        #expect(card.contact.phones.isEmpty)
        #expect(card.contact.emails == ["ana@example.es"])
    }

    @Test func meCardWithEscapesAndAddress() throws {
        let card = try parse(#"MECARD:N:Saavedra Castañeda,María Ángeles;ORG:Cabezas y Figuerola\; S.L.L.;TEL:988 15 81 57;EMAIL:info@cabezasfiguerola.com;URL:http\://www.cabezasfiguerola.com;ADR:,,Via Pascual Duque 8,Girona,,28718,Spain;;"#)
        #expect(card.kind == .mecard)
        #expect(card.contact.name == PersonName(full: "María Ángeles Saavedra Castañeda", given: "María Ángeles", family: "Saavedra Castañeda"))
        #expect(card.contact.organization == "Cabezas y Figuerola; S.L.L.")
        #expect(card.contact.phones.first?.e164 == "+34988158157")
        #expect(card.contact.urls == ["http://www.cabezasfiguerola.com"])
        #expect(card.contact.address?.postalCode == "28718")
        #expect(card.contact.address?.lines == ["Via Pascual Duque 8", "28718 Girona", "Spain"])
    }

    @Test func bizcard() throws {
        let card = try parse("BIZCARD:N:Sean;X:Owen;T:Software Engineer;C:Google;A:76 9th Avenue, New York, NY 10011;B:+12125551212;M:+12125551213;E:srowen@google.com;;")
        #expect(card.kind == .bizcard)
        #expect(card.contact.name?.full == "Sean Owen")
        #expect(card.contact.title == "Software Engineer")
        #expect(card.contact.phones.map(\.type) == [.work, .mobile])
    }

    @Test(arguments: [
        ("https://www.roberts.com.au", CodeContact.Kind.url, Contact.Field.urls),
        ("www.example.org/team", .url, .urls),
        ("mailto:sales@example.com?subject=Hello", .email, .emails),
        ("MATMSG:TO:sales@example.com;SUB:Hi;BODY:;;", .email, .emails),
        ("tel:+1-415-555-0100", .phone, .phones),
    ])
    func singleValuePayloads(payload: String, kind: CodeContact.Kind, field: Contact.Field) throws {
        let card = try parse(payload)
        #expect(card.kind == kind)
        #expect(card.fields == [field])
    }

    @Test func aPayloadThatIsNotContactDataIsNotAContact() throws {
        #expect(try CodePayload.parse(Array("4006381333931".utf8), region: "DE") == nil)
        #expect(try CodePayload.parse(Array("Hello, visit us soon".utf8), region: "DE") == nil)
        #expect(try CodePayload.parse(Array("BEGIN:VCARD\nVERSION:3.0\nEND:VCARD".utf8), region: nil) == nil)
    }

    // MARK: Hostile payloads: refused with a typed error; the error never quotes the payload.

    func refusal(_ bytes: [UInt8]) -> CodeError? {
        do {
            _ = try CodePayload.parse(bytes, region: "US")
            return nil
        } catch {
            return error
        }
    }

    @Test func tenThousandTelephoneLinesAreRefused() {
        let lines = (0..<10_000).map { "TEL:+1415555\(String(format: "%04d", $0))" }
        let payload = "BEGIN:VCARD\n" + lines.joined(separator: "\n") + "\nEND:VCARD"
        #expect(refusal(Array(payload.utf8))?.code == .oversized)
        // Within the byte limit, the line and value limits hold.
        let some = "BEGIN:VCARD\n" + lines.prefix(300).map { "TEL:" + $0.suffix(4) }.joined(separator: "\n") + "\nEND:VCARD"
        #expect(refusal(Array(some.utf8))?.code == .tooManyEntries)
        let twenty = "BEGIN:VCARD\n" + lines.prefix(20).joined(separator: "\n") + "\nEND:VCARD"
        #expect(refusal(Array(twenty.utf8))?.code == .tooManyEntries)
        let meCard = "MECARD:" + String(repeating: "TEL:1;", count: 1000) + ";"
        #expect(refusal(Array(meCard.utf8))?.code == .tooManyEntries)
    }

    @Test func binaryInvalidUTF8AndOversizedPayloadsAreRefused() throws {
        #expect(refusal([0x42, 0x45, 0x47, 0x49, 0x4E, 0x3A, 0xFF, 0xFE, 0x00])?.code == .invalidText)
        #expect(refusal(Array("BEGIN:VCARD\nFN:A\u{0}B\nEND:VCARD".utf8))?.code == .binary)
        #expect(refusal([UInt8](repeating: 0x41, count: CodePayload.maxBytes + 1))?.code == .oversized)
        let badLatin = "BEGIN:VCARD\nFN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:M=FCller\nEND:VCARD"
        #expect(refusal(Array(badLatin.utf8))?.code == .invalidText)
        let error = try #require(refusal(Array("BEGIN:VCARD\nFN:Secret Name\u{1}\nEND:VCARD".utf8)))
        #expect(!error.message.contains("Secret"))
    }

    @Test func deeplyNestedCardsAreRefused() {
        let nested = String(repeating: "BEGIN:VCARD\n", count: 50) + "FN:X\n" + String(repeating: "END:VCARD\n", count: 50)
        #expect(refusal(Array(nested.utf8))?.code == .nestedTooDeep)
        let agents = "BEGIN:VCARD\n" + String(repeating: "AGENT:BEGIN:VCARD\n", count: 10) + "FN:X\nEND:VCARD"
        #expect(refusal(Array(agents.utf8))?.code == .nestedTooDeep)
    }

    @Test func everyPrefixOfAVCardParsesOrIsRefusedWithoutCrashing() {
        let card = Array("BEGIN:VCARD\nN;CHARSET=ISO-8859-1;ENCODING=QUOTED-PRINTABLE:M=FC=\nller;J\nTEL;TYPE=\"a,b:+1 415\nADR:;;;;;;;;;;\nEND:VCARD".utf8)
        for n in 0...card.count {
            _ = try? CodePayload.parse(Array(card.prefix(n)), region: nil)
        }
    }
}
