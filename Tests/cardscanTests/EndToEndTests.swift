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

    /// A name set far larger than the rest, which the card's reading leaves out, is read alone
    /// (Fixtures/Reading/large-line.png, a made-up card already cropped: --whole-frame).
    @Test func aLargeNameTheReadingLeftOutIsFound() throws {
        let card = TestPaths.packageRoot.appendingPathComponent("Fixtures/Reading/large-line.png").path
        let result = try runProcess(TestPaths.binary, ["scan", "--whole-frame", card])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let contact = try #require(try Self.records(result.stdout).first?["contact"] as? [String: Any])
        #expect((contact["name"] as? [String: Any])?["full"] as? String == "TOM ABERNATHY")
        #expect(contact["organization"] as? String == "Harbour & Pinewood Partners")
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

    @Test func theMalformedCorpusGivesOneErrorRecordAndOneStderrLinePerBadFile() throws {
        guard let corpus = TestPaths.shared?.appendingPathComponent("corpora/metadata") else {
            try Test.cancel("../shared is not beside the checkout")
        }
        let result = try runProcess(TestPaths.binary, ["scan", "--jobs", "2", corpus.path])
        #expect(result.status == 1)
        let records = try Self.records(result.stdout)
        let errors = records.filter { $0["status"] as? String == "error" }
        #expect(records.count > 100)
        #expect(!errors.isEmpty)
        // One line per error, and one per photo that shows no card (status no-card).
        let noCard = records.filter { $0["status"] as? String == "no-card" }
        let stderrLines = result.stderr.split(separator: "\n")
        #expect(stderrLines.count == errors.count + noCard.count, "stderr: \(result.stderr.prefix(2000))")
        #expect(stderrLines.filter { $0.hasSuffix("(status no-card)") }.count == noCard.count)
        #expect(stderrLines.allSatisfy { $0.hasPrefix("cardscan: ") })
        for e in errors {
            let source = try #require(e["source"] as? String)
            #expect(result.stderr.contains(source))
        }
    }

    @Test func aStreamOfImagesOnStandardInputGivesOneRecordEach() throws {
        let files = ["card-us-plain.jpg", "card-ca-split.jpg", "card-de-band.jpg"]
        var stream = Data()
        for f in files { stream.append(try Data(contentsOf: TestPaths.cards.appendingPathComponent(f))) }
        let result = try runProcess(TestPaths.binary, ["scan", "--stream", "-"], stdin: stream)
        #expect(result.status == 0)
        let records = try Self.records(result.stdout)
        #expect(records.map { $0["source"] as? String } == ["-#1", "-#2", "-#3"])
        let emails = records.map { (($0["contact"] as? [String: Any])?["emails"] as? [String]) ?? [] }
        #expect(emails == [["laura.kimball@northwindlabs.com"], ["marc.tremblay@maplegate.ca"], ["k.vogel@lindenholz.de"]])
    }

    @Test func filesFromReadsNewlineAndNulSeparatedLists() throws {
        let a = TestPaths.cards.appendingPathComponent("card-us-plain.jpg").path
        let b = TestPaths.cards.appendingPathComponent("card-ca-split.jpg").path
        let newline = try runProcess(TestPaths.binary, ["scan", "--files-from", "-"], stdin: Data("\(a)\n\(b)\n".utf8))
        #expect(try Self.records(newline.stdout).map { $0["source"] as? String } == [a, b])
        let nul = try runProcess(TestPaths.binary, ["scan", "-0", "--files-from", "-"], stdin: Data("\(b)\0\(a)\0".utf8))
        #expect(try Self.records(nul.stdout).map { $0["source"] as? String } == [b, a])
    }

    static func scratch(_ name: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-e2e-\(name)-\(getpid())")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func stripWritesCleanCopiesAndLeavesInputsAlone() throws {
        let dir = try Self.scratch("strip")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.jpg")
        try FileManager.default.copyItem(at: TestPaths.cards.appendingPathComponent("card-gb-dark.jpg"), to: input)
        let original = try Data(contentsOf: input)
        let out = dir.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let result = try runProcess(TestPaths.binary, ["strip", "-o", out.path, input.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Data(contentsOf: input) == original)
        let inspect = try runProcess(TestPaths.binary, ["inspect", "--format", "json", input.path, out.appendingPathComponent("in.jpg").path])
        let lines = try Self.records(inspect.stdout)
        #expect(lines[0]["hadLocation"] as? Bool == true)
        #expect(lines[1]["metadata"] as? [String] == ["EXIF"])  // the orientation-only block
        #expect(lines[1]["hadLocation"] as? Bool == false)
        // A second run does not overwrite what is there.
        let again = try runProcess(TestPaths.binary, ["strip", "-o", out.path, input.path])
        #expect(again.status == 1 && again.stderr.contains("already exists"))
        // In place: replaced atomically, nothing else left in the folder.
        let inPlace = try runProcess(TestPaths.binary, ["strip", "--in-place", "--drop-orientation", input.path])
        #expect(inPlace.status == 0)
        let after = try runProcess(TestPaths.binary, ["inspect", input.path])
        #expect(after.stdout.contains("no metadata"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["in.jpg", "out"])
        let usage = try runProcess(TestPaths.binary, ["strip", input.path])
        #expect(usage.status == 2)
    }

    @Test func scanCanWriteSanitizedCopies() throws {
        let dir = try Self.scratch("stripto")
        defer { try? FileManager.default.removeItem(at: dir) }
        let card = TestPaths.cards.appendingPathComponent("card-us-plain.jpg").path
        let result = try runProcess(TestPaths.binary, ["scan", "--strip-to", dir.path, card])
        #expect(result.status == 0)
        let copy = dir.appendingPathComponent("card-us-plain.jpg").path
        let inspect = try runProcess(TestPaths.binary, ["inspect", copy])
        #expect(inspect.stdout.contains("no metadata"))
    }

    /// The chunk types of a PNG file, in order.
    static func pngChunks(_ data: Data) -> [String] {
        let bytes = [UInt8](data)
        var chunks: [String] = [], at = 8
        while at + 8 <= bytes.count {
            let length = bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
            chunks.append(String(decoding: bytes[at + 4..<at + 8], as: UTF8.self))
            at += 12 + length
        }
        return chunks
    }

    @Test func debugDirShowsTheCardAndWhatDetectionWeighedWithoutTouchingExistingFiles() throws {
        let dir = try Self.scratch("debug")
        defer { try? FileManager.default.removeItem(at: dir) }
        // A file already there under the first name is left alone; the pictures take the next name.
        let mine = dir.appendingPathComponent("card-ca-sideways.card.png")
        try Data("mine".utf8).write(to: mine)
        let card = TestPaths.cards.appendingPathComponent("card-ca-sideways.jpg").path
        let result = try runProcess(TestPaths.binary, ["scan", "--debug-dir", dir.path, card])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.records(result.stdout).first?["warnings"] == nil)
        #expect(try Data(contentsOf: mine) == Data("mine".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
            == ["card-ca-sideways-2.card.png", "card-ca-sideways-2.overlay.png", "card-ca-sideways.card.png"])
        for name in ["card-ca-sideways-2.card.png", "card-ca-sideways-2.overlay.png"] {
            let path = dir.appendingPathComponent(name).path
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600, "\(name)")
            // Pixels only: no text, time, EXIF or other metadata chunks.
            #expect(Set(Self.pngChunks(try Data(contentsOf: URL(fileURLWithPath: path)))).isSubset(of: ["IHDR", "sRGB", "IDAT", "IEND"]), "\(name)")
        }
        // The straightened card is OCR-sized; the overlay has the upright photo's proportions.
        let inspect = try runProcess(URL(fileURLWithPath: "/usr/bin/exiftool"),
                                     ["-j", "-ImageWidth", "-ImageHeight",
                                      dir.appendingPathComponent("card-ca-sideways-2.card.png").path,
                                      dir.appendingPathComponent("card-ca-sideways-2.overlay.png").path])
        let sizes = try #require(try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [[String: Any]])
        let image = try #require(try Self.records(result.stdout).first?["image"] as? [String: Any])
        try #require(sizes.count == 2)
        let card2 = (sizes[0]["ImageWidth"] as? Int ?? 0, sizes[0]["ImageHeight"] as? Int ?? 0)
        #expect(max(card2.0, card2.1) == 1024)
        let photo = Double(image["width"] as? Int ?? 0) / Double(image["height"] as? Int ?? 1)
        let overlay = Double(sizes[1]["ImageWidth"] as? Int ?? 0) / Double(sizes[1]["ImageHeight"] as? Int ?? 1)
        #expect(abs(photo - overlay) < 0.02)
        let missing = try runProcess(TestPaths.binary, ["scan", "--debug-dir", dir.appendingPathComponent("nope").path, card])
        #expect(missing.status == 64 || missing.status == 2)
        #expect(missing.stderr.contains("no such folder"))
    }

    static func withoutTimings(_ stdout: String) throws -> [String] {
        try records(stdout).map { r -> String in
            var r = r
            r.removeValue(forKey: "timingsMs")
            let data = try JSONSerialization.data(withJSONObject: r, options: [.sortedKeys])
            return String(decoding: data, as: UTF8.self)
        }
    }

    @Test func outputIsTheSameWhateverTheNumberOfJobs() throws {
        let one = try runProcess(TestPaths.binary, ["scan", "--jobs", "1", TestPaths.cards.path])
        let two = try runProcess(TestPaths.binary, ["scan", "--jobs", "2", TestPaths.cards.path])
        #expect(one.status == 0 && two.status == 0)
        #expect(try Self.withoutTimings(one.stdout) == Self.withoutTimings(two.stdout))
        #expect(try Self.records(one.stdout).count == (try ExpectedCard.all()).count)
        // Not a terminal: no progress line.
        #expect(two.stderr.isEmpty)
    }

    @Test func shardsCoverTheInputsExactlyOnce() throws {
        var sources: [String] = []
        for k in 1...3 {
            let r = try runProcess(TestPaths.binary, ["scan", "--shard", "\(k)/3", TestPaths.cards.path])
            sources += try Self.records(r.stdout).compactMap { $0["source"] as? String }
        }
        let all = try Self.records(try runProcess(TestPaths.binary, ["scan", TestPaths.cards.path]).stdout).compactMap { $0["source"] as? String }
        #expect(sources.sorted() == all.sorted())
        #expect(try runProcess(TestPaths.binary, ["scan", "--shard", "4/3", TestPaths.cards.path]).status == 2)
    }

    @Test func progressLineWhenAsked() throws {
        let r = try runProcess(TestPaths.binary, ["scan", "--progress", "always", TestPaths.cards.appendingPathComponent("card-us-plain.jpg").path])
        #expect(r.stderr.contains("1/1 cards"))
        #expect(!r.stderr.contains("Kimball"))  // never card text
    }

    @Test func interruptLeavesCompleteRecordsAndResumeFinishesTheJob() throws {
        let dir = try Self.scratch("interrupt")
        defer { try? FileManager.default.removeItem(at: dir) }
        let files = try ExpectedCard.all().map { TestPaths.cards.appendingPathComponent($0.file).path }
        // Enough work to be interrupted mid-batch: the fixtures under distinct names, several times.
        var list: [String] = []
        for round in 0..<4 {
            for f in files {
                let copy = dir.appendingPathComponent("r\(round)-" + (f as NSString).lastPathComponent)
                try FileManager.default.copyItem(atPath: f, toPath: copy.path)
                list.append(copy.path)
            }
        }
        let listFile = dir.appendingPathComponent("list.txt")
        try Data((list.joined(separator: "\n") + "\n").utf8).write(to: listFile)
        let out = dir.appendingPathComponent("out.jsonl").path
        let process = Process()
        process.executableURL = TestPaths.binary
        process.arguments = ["scan", "--jobs", "2", "--files-from", listFile.path, "-o", out]
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait for the first records, then interrupt.
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if let d = FileManager.default.contents(atPath: out + ".partial"), d.filter({ $0 == 0x0A }).count >= 3 { break }
            usleep(50_000)
        }
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        #expect(!FileManager.default.fileExists(atPath: out))
        let partial = try String(contentsOfFile: out + ".partial", encoding: .utf8)
        #expect(partial.hasSuffix("\n"))
        let done = try Self.records(partial)
        #expect(done.count >= 3 && done.count < list.count)
        // Without --resume, the partial run is not overwritten.
        let refused = try runProcess(TestPaths.binary, ["scan", "--files-from", listFile.path, "-o", out])
        #expect(refused.status == 2)
        // --resume scans only what is missing and completes the file.
        let resumed = try runProcess(TestPaths.binary, ["scan", "--resume", "--files-from", listFile.path, "-o", out])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out + ".partial"))
        let final = try Self.records(try String(contentsOfFile: out, encoding: .utf8))
        #expect(Set(final.compactMap { $0["source"] as? String }) == Set(list))
        #expect(final.count == list.count)
    }
}
