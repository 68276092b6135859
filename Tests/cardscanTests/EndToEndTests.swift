import Foundation
import Testing
import TestSupport

/// Runs the built `cardscan` binary the way a user does.
@Suite(.serialized) struct EndToEndTests {
    static func records(_ stdout: String) throws -> [[String: Any]] {
        try stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test func scansAFixtureCardAndPrintsItsEmailAndPhone() throws {
        let card = TestPaths.cards.appendingPathComponent("card-us-plain.jpg").path
        let result = try runProcess(TestPaths.binary, ["scan", card])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let records = try Self.records(result.stdout)
        #expect(records.count == 1)
        let contact = try #require(records[0]["contact"] as? [String: Any])
        #expect((contact["emails"] as? [String]) == ["laura.kimball@northwindlabs.com"])
        let phones = try #require(contact["phones"] as? [[String: Any]])
        #expect(phones.contains { $0["e164"] as? String == "+13125550142" && $0["type"] as? String == "work" })
        #expect(result.stderr.isEmpty)
    }

    @Test func aFolderWithABadFileExitsOneAndKeepsGoing() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-e2e-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(at: TestPaths.cards.appendingPathComponent("card-ca-split.jpg"),
                                         to: dir.appendingPathComponent("a.jpg"))
        try Data("this is not a photo".utf8).write(to: dir.appendingPathComponent("b.jpg"))
        try Data("notes".utf8).write(to: dir.appendingPathComponent("notes.txt"))
        let bad = dir.appendingPathComponent("b.jpg").path
        let result = try runProcess(TestPaths.binary, ["scan", dir.appendingPathComponent("a.jpg").path, bad])
        #expect(result.status == 1)
        let records = try Self.records(result.stdout)
        #expect(records.map { $0["status"] as? String } == ["ok", "error"])
        let error = try #require(records[1]["error"] as? [String: Any])
        #expect(error["code"] as? String == "not-an-image")
        // One line on stderr, naming the file; a folder walk skips non-images silently.
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains(bad))
        let walk = try runProcess(TestPaths.binary, ["scan", dir.path])
        #expect(try Self.records(walk.stdout).count == 1)
    }

    @Test func readsOneImageFromStandardInput() throws {
        let data = try Data(contentsOf: TestPaths.cards.appendingPathComponent("card-de-band.jpg"))
        let result = try runProcess(TestPaths.binary, ["scan", "-"], stdin: data)
        #expect(result.status == 0)
        let records = try Self.records(result.stdout)
        #expect(records.first?["source"] as? String == "-")
        let contact = try #require(records.first?["contact"] as? [String: Any])
        #expect((contact["emails"] as? [String]) == ["k.vogel@lindenholz.de"])
    }

    @Test func helpReadsClearly() throws {
        let root = try runProcess(TestPaths.binary, ["--help"])
        #expect(root.stdout.contains("Turn photos of business cards into contact records"))
        let scan = try runProcess(TestPaths.binary, ["scan", "--help"])
        #expect(scan.stdout.contains("--jobs"))
        let usage = try runProcess(TestPaths.binary, ["scan"])
        #expect(usage.status == 2)
    }
}
