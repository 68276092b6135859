import Foundation
import Testing
import TestSupport

/// QR codes end to end: Fixtures/Conditions/cond-qr-vcard.jpg prints one number and carries a
/// vCard QR code that holds it and a mobile number (scripts/make_photos.py --conditions).
@Suite(.serialized) struct QRCodeTests {
    static let photo = TestPaths.conditions.appendingPathComponent("cond-qr-vcard.jpg").path

    static func record(_ arguments: [String]) throws -> [String: Any] {
        let result = try runProcess(TestPaths.binary, ["scan", "--quiet"] + arguments + [photo])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        return try #require(try EndToEndTests.records(result.stdout).first)
    }

    static func truth() throws -> ConditionCard {
        try #require(try ConditionCard.all().first { $0.file == "cond-qr-vcard.jpg" })
    }

    @Test func theCodeCorrectsWhatOCRAloneGetsWrongAndTheRecordSaysWhereEachFieldCameFrom() throws {
        let truth = try Self.truth()
        let ocrOnly = try Self.record(["--codes", "off"])
        let ocrContact = try #require(ocrOnly["contact"] as? [String: Any])
        let ocrPhones = try #require(ocrContact["phones"] as? [[String: Any]])
        // OCR alone reads the printed number only: the phones are wrong without the code.
        #expect(Set(ocrPhones.compactMap { $0["e164"] as? String }) != Set(truth.phones.map(\.e164)))
        #expect((ocrOnly["sources"] as? [String: String])?.values.allSatisfy { $0 == "ocr" } == true)

        let record = try Self.record([])
        let contact = try #require(record["contact"] as? [String: Any])
        let phones = try #require(contact["phones"] as? [[String: Any]])
        #expect(Set(phones.compactMap { $0["e164"] as? String }) == Set(truth.phones.map(\.e164)))
        #expect(phones.map { $0["type"] as? String } == truth.phones.map(\.type))
        #expect((contact["emails"] as? [String]) == truth.emails)
        #expect(((contact["name"] as? [String: Any])?["full"] as? String) == truth.name)
        let sources = try #require(record["sources"] as? [String: String])
        #expect(sources["phones"] == "qr")
        #expect(sources["name"] == "qr")
        let confidence = try #require(record["confidence"] as? [String: Double])
        #expect(confidence["phones"] == 1.0)
        let codes = try #require((record["image"] as? [String: Any])?["codes"] as? [[String: Any]])
        #expect(codes.count == 1)
        #expect(codes.first?["type"] as? String == "QR-Code")
        #expect(codes.first?["contact"] as? String == "vcard")
        // The disagreement is kept as a warning that names the field, never the card's text.
        let warnings = record["warnings"] as? [String] ?? []
        #expect(warnings.contains { $0.hasPrefix("qr-conflict (phones)") })
        for phone in truth.phones {
            #expect(!warnings.joined().contains(phone.e164.dropFirst(3)))
        }
    }

    @Test func theVCardFormatCarriesTheCodesNumbers() throws {
        let result = try runProcess(TestPaths.binary, ["scan", "--quiet", "--format", "vcard", Self.photo])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        for phone in try Self.truth().phones {
            #expect(result.stdout.contains(phone.e164), "\(phone.type)")
        }
    }
}
