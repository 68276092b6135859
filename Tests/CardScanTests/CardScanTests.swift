import ContactParser
import Foundation
import Testing
import TestSupport
@testable import CardScan

@Suite(.serialized) struct CardScannerTests {
    static func scanner(workers: Int = 2) throws -> CardScanner {
        var configuration = ScanConfiguration()
        configuration.workers = workers
        return try CardScanner(configuration: configuration)
    }

    @Test func everyFixtureCardGivesItsEmailsAndPhones() throws {
        let scanner = try Self.scanner()
        var hits = 0, total = 0
        for card in try ExpectedCard.all() {
            let record = scanner.scan(file: TestPaths.cards.appendingPathComponent(card.file).path)
            #expect(record.status == .ok)
            let contact = try #require(record.contact)
            total += card.emails.count + card.phones.count
            hits += card.emails.filter { contact.emails.contains($0) }.count
            hits += card.phones.filter { p in contact.phones.contains { $0.e164 == p.e164 } }.count
            #expect(record.image?.orientation == card.orientation)
            #expect(record.metadata?.hadLocation == true)
        }
        // Fixture photos are hard on purpose (a dark card on a dark desk); most must still be read.
        #expect(Double(hits) / Double(total) >= 0.8, "\(hits) of \(total)")
    }

    @Test func batchRecordsComeInInputOrderAndEnginesAreBounded() throws {
        let scanner = try Self.scanner(workers: 2)
        let files = try ExpectedCard.all().map { ScanInput.file(TestPaths.cards.appendingPathComponent($0.file).path) }
        let inputs = files + [.bytes(Array("not an image".utf8), source: "-")] + files.prefix(2)
        var sources: [String] = []
        scanner.scan(inputs) { sources.append($0.source) }
        #expect(sources == inputs.map(\.source))
        #expect(scanner.enginesCreated <= 2)
    }

    @Test func badInputGetsAnErrorRecordNamingIt() throws {
        let scanner = try Self.scanner(workers: 1)
        let record = scanner.scan(bytes: Array("GIF? no".utf8), source: "notes.txt")
        #expect(record.status == .error)
        #expect(record.error?.code == "not-an-image")
        #expect(record.error?.message.hasPrefix("notes.txt: ") == true)
        let missing = scanner.scan(file: "/nonexistent/card.jpg")
        #expect(missing.error?.code == "unreadable")
    }

    @Test func recordJSONFollowsTheSchema() throws {
        let scanner = try Self.scanner(workers: 1)
        let record = scanner.scan(file: TestPaths.cards.appendingPathComponent("card-us-plain.jpg").path)
        let text = record.json().serialized()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["source"] as? String != nil)
        #expect(object["status"] as? String == "ok")
        let contact = try #require(object["contact"] as? [String: Any])
        for key in ["name", "title", "organization", "phones", "emails", "urls", "address"] {
            #expect(contact.keys.contains(key), "contact.\(key)")
        }
        let image = try #require(object["image"] as? [String: Any])
        #expect(image["ocrWidth"] as? Int == 1024)
        let timings = try #require(object["timingsMs"] as? [String: Any])
        for key in ["decode", "strip", "detect", "ocr", "parse", "total"] { #expect(timings[key] != nil) }
        // Metadata kinds only, never values: no coordinates or serial numbers in the record.
        #expect(!text.contains("SN-0042"))
        #expect(!text.contains("CardCam"))
    }
}
