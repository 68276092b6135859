import Foundation
import Testing
import TestSupport

/// `scan --db` and `cardscan contacts`, run as a user runs them.
@Suite(.serialized) struct ContactsCommandTests {
    static func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-contacts-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func theFixturesGoInOnceEachAndExportRoundTripsThroughVobjectAndCSV() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("book.sqlite").path
        // The whole folder, then one card again: merged, not added.
        let scan = try runProcess(TestPaths.binary, ["scan", "--quiet", "--db", db, TestPaths.cards.path,
                                                      TestPaths.cards.appendingPathComponent("card-us-plain.jpg").path])
        #expect(scan.status == 0, "\(scan.stderr)")
        let expected = try ExpectedCard.all()
        let list = try runProcess(TestPaths.binary, ["contacts", "list", "--db", db])
        // A header, one line per contact, the count.
        #expect(list.stdout.split(separator: "\n").count == expected.count + 2)
        #expect(list.stdout.hasPrefix("ID\tNAME\tORGANIZATION\tE-MAIL\n"))
        #expect(list.stdout.hasSuffix("\n\(expected.count) contacts in \(db)\n"))
        let show = try runProcess(TestPaths.binary, ["contacts", "show", "--db", db, "7"])
        #expect(show.stdout.contains("\"scans\""))

        let vcf = dir.appendingPathComponent("all.vcf")
        let export = try runProcess(TestPaths.binary, ["contacts", "export", "--db", db, "--format", "vcard", "-o", vcf.path])
        #expect(export.status == 0, "\(export.stderr)")
        let script = """
            import sys, vobject
            cards = list(vobject.readComponents(open(sys.argv[1], encoding="utf-8").read()))
            for c in cards:
                print(c.fn.value + "|" + ",".join(sorted(e.value for e in c.contents.get("email", []))))
            """
        let parsed = try runProcess(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script, vcf.path])
        #expect(parsed.status == 0, "\(parsed.stderr)")
        for card in expected {
            #expect(parsed.stdout.contains(card.name + "|" + card.emails.sorted().joined(separator: ",")), "\(card.file)")
        }
        let csv = try runProcess(TestPaths.binary, ["contacts", "export", "--db", db, "--format", "csv"])
        let csvCheck = """
            import csv, sys, io
            rows = list(csv.DictReader(io.StringIO(sys.stdin.read())))
            for r in rows: print(r["name"] + "|" + r["email"])
            """
        let rows = try runProcess(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", csvCheck], stdin: Data(csv.stdout.utf8))
        #expect(rows.stdout.split(separator: "\n").count == expected.count)
        for card in expected { #expect(rows.stdout.contains(card.name + "|" + card.emails[0]), "\(card.file)") }
    }

    @Test func aBatchKilledMidWayLeavesAConsistentBookOfEveryFinishedRecordAndListingWorksMeanwhile() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("book.sqlite").path
        let inputs = dir.appendingPathComponent("inputs")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        for i in 0..<6 {
            for name in try FileManager.default.contentsOfDirectory(atPath: TestPaths.cards.path) where name.hasSuffix(".jpg") {
                try FileManager.default.copyItem(at: TestPaths.cards.appendingPathComponent(name), to: inputs.appendingPathComponent("\(i)-\(name)"))
            }
        }
        let process = Process()
        process.executableURL = TestPaths.binary
        process.arguments = ["scan", "--quiet", "--no-merge", "--db", db, "-o", dir.appendingPathComponent("out.jsonl").path, inputs.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait for some records, listing while the scan writes (WAL: readers are not blocked).
        var listed = 0
        for _ in 0..<600 where listed < 3 {
            usleep(50_000)
            guard FileManager.default.fileExists(atPath: db) else { continue }
            let list = try runProcess(TestPaths.binary, ["contacts", "list", "--db", db])
            #expect(list.status == 0, "\(list.stderr)")
            listed = max(0, list.stdout.split(separator: "\n").count - 2)  // less the header and the count
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(listed >= 3)
        let integrity = try runProcess(URL(fileURLWithPath: "/usr/bin/python3"),
                                       ["-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute('PRAGMA integrity_check').fetchone()[0]); print(c.execute('SELECT COUNT(*) FROM scan').fetchone()[0]); print(c.execute('SELECT COUNT(*) FROM contact WHERE merged = \\'{}\\'').fetchone()[0])", db])
        let lines = integrity.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "ok", "\(integrity.stderr)")
        // Every finished record is there: at least the ones listed before the kill, each complete.
        #expect((Int(lines.count > 1 ? lines[1] : "0") ?? 0) >= listed)
        #expect(lines.count > 2 && lines[2] == "0", "a contact was left half-written")
        let after = try runProcess(TestPaths.binary, ["contacts", "list", "--db", db])
        #expect(after.status == 0)
    }

    /// Two `scan --db` on one book at once must not meet "database is locked" (one refused
    /// outright, or stopped mid-batch). Here two scans write while a third process holds the
    /// book's write lock four fifths of the time; both wait their turn and every contact arrives.
    @Test func scansIntoOneBookAtOnceWaitForTheLockAndEveryContactArrives() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("book.sqlite").path
        let card = { @Sendable (name: String) in TestPaths.cards.appendingPathComponent(name).path }
        let first = try runProcess(TestPaths.binary, ["scan", "--quiet", "--no-merge", "--db", db, card("card-us-plain.jpg")])
        #expect(first.status == 0, "\(first.stderr)")
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        holder.arguments = ["-c", """
            import select, sqlite3, sys, time
            c = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=60)
            c.execute("BEGIN IMMEDIATE"); print("holding", flush=True); time.sleep(0.2); c.execute("ROLLBACK")
            while not select.select([sys.stdin], [], [], 0.05)[0]:
                c.execute("BEGIN IMMEDIATE"); time.sleep(0.2); c.execute("ROLLBACK")
            """, db]
        let toHolder = Pipe(), fromHolder = Pipe()
        holder.standardInput = toHolder
        holder.standardOutput = fromHolder
        try holder.run()
        let line = fromHolder.fileHandleForReading.readData(ofLength: 8)
        #expect(String(decoding: line, as: UTF8.self) == "holding\n")
        let pairs = [["card-gb-dark.jpg", "card-de-band.jpg"], ["card-ca-split.jpg", "card-au-small.jpg"]]
        let results = LockedResults()
        DispatchQueue.concurrentPerform(iterations: pairs.count) { i in
            let arguments = ["scan", "--quiet", "--no-merge", "--jobs", "1", "--db", db] + pairs[i].map(card)
            results.set(i, Result { try runProcess(TestPaths.binary, arguments) })
        }
        try toHolder.fileHandleForWriting.close()
        holder.waitUntilExit()
        for i in pairs.indices {
            let scan = try #require(try results.get(i))
            #expect(scan.status == 0, "scan \(i + 1): \(scan.stderr)")
        }
        let list = try runProcess(TestPaths.binary, ["contacts", "list", "--db", db])
        #expect(list.stdout.split(separator: "\n").count == 5 + 2, "\(list.stdout)")
    }

    /// A book with a page of junk, whose SQLite integrity check fails, is neither listed nor
    /// scanned into: it is checked when opened, and refused untouched.
    @Test func aDamagedBookIsRefusedWhenOpenedAndLeftAsItIs() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("book.sqlite").path
        let cards = ["card-us-plain.jpg", "card-gb-dark.jpg"].map { TestPaths.cards.appendingPathComponent($0).path }
        #expect(try runProcess(TestPaths.binary, ["scan", "--quiet", "--db", db] + cards).status == 0)
        // The page of an index that listing never reads, filled with junk.
        let junk = try runProcess(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            page = c.execute("SELECT rootpage FROM sqlite_master WHERE name = 'matchKey_contact'").fetchone()[0]
            size = c.execute("PRAGMA page_size").fetchone()[0]
            c.close()
            with open(sys.argv[1], "r+b") as f:
                f.seek((page - 1) * size); f.write(bytes([0xA5]) * size)
            """, db])
        #expect(junk.status == 0, "\(junk.stderr)")
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let list = try runProcess(TestPaths.binary, ["contacts", "list", "--db", db])
        #expect(list.status == 2)
        #expect(list.stderr.contains("book.sqlite: is damaged") && list.stderr.contains("restore it from a backup"), "\(list.stderr)")
        let scan = try runProcess(TestPaths.binary, ["scan", "--quiet", "--db", db, cards[0]])
        #expect(scan.status == 2)
        #expect(scan.stdout.isEmpty, "nothing is scanned into a damaged book")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
    }

    @Test func deleteAndPurgeSayWhatTheyDid() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("book.sqlite").path
        _ = try runProcess(TestPaths.binary, ["scan", "--quiet", "--db", db, TestPaths.cards.appendingPathComponent("card-us-plain.jpg").path,
                                              TestPaths.cards.appendingPathComponent("card-gb-dark.jpg").path])
        let delete = try runProcess(TestPaths.binary, ["contacts", "delete", "--db", db, "1", "42"])
        #expect(delete.status == 1)
        #expect(delete.stdout == "deleted 1 contact: 1\n")
        #expect(delete.stderr.contains("no contact 42"))
        let purge = try runProcess(TestPaths.binary, ["contacts", "purge", "--yes", "--db", db])
        #expect(purge.status == 0)
        #expect(purge.stdout.hasPrefix("purged 1 contact;"))
        let missing = try runProcess(TestPaths.binary, ["contacts", "list", "--db", dir.appendingPathComponent("none.sqlite").path])
        #expect(missing.status == 2)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("none.sqlite").path))
    }
}

/// The results of processes run on several threads at once.
final class LockedResults: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Int: Result<ProcessResult, Error>] = [:]
    func set(_ index: Int, _ result: Result<ProcessResult, Error>) { lock.withLock { results[index] = result } }
    func get(_ index: Int) throws -> ProcessResult? { try lock.withLock { results[index] }?.get() }
}
