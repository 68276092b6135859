import Foundation
import Testing
import TestSupport
@testable import MetadataStripper

@Suite struct MetadataReportTests {
    @Test func reportsEveryKindTheFixturesCarry() throws {
        for card in try ExpectedCard.all() {
            let bytes = try TestPaths.bytes(TestPaths.cards.appendingPathComponent(card.file))
            let report = MetadataReport.read(bytes)
            var found = Set(report.kinds.map(\.rawValue))
            found.remove("MakerNote")  // every fixture has one; expected.jsonl lists the headline kinds
            #expect(found == Set(card.metadata), "\(card.file)")
            #expect(report.hadLocation)
        }
    }

    @Test func aFileWithoutMetadataReportsNothing() {
        let bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xD9]
        #expect(MetadataReport.read(bytes).kinds.isEmpty)
    }
}
