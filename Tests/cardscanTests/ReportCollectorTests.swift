import ImageIngest
import CardFormats
@testable import CardScan
import ContactParser
import FileAccess
import Testing
@testable import cardscan

/// The review page keeps at most N card pictures: the best-read records lose theirs first.
@Suite struct ReportCollectorTests {
    static func record(_ name: String, confidence: Double) -> ScanRecord {
        var c = Contact()
        c.name = PersonName(full: "X", given: nil, family: nil)
        for field in Contact.Field.allCases { c.confidence[field] = confidence }
        var r = ScanRecord.scanned(name, c)
        r.cardPicture = try? CardPicture(PixelImage(width: 8, height: 8, channels: 1, fill: 200), source: name)
        return r
    }

    @Test func theBestReadRecordsLoseTheirPicturesFirst() throws {
        let collector = ReportCollector(path: FilePathBytes("/nonexistent/report.html"), maxPictures: 2)
        for (name, confidence) in [("a", 0.9), ("b", 0.2), ("c", 0.95), ("d", 0.5)] {
            collector.add(Self.record(name, confidence: confidence))
        }
        let withPicture = collector.collected.filter { $0.cardPicture != nil }.map(\.source)
        #expect(withPicture == ["b", "d"])
        #expect(collector.collected.count == 4)
    }
}
