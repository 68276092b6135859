import Foundation
import Testing
import TestSupport

/// The hostile cases of the hardening issue, each reproduced against the built binary with real
/// FIFOs, symbolic links, /dev/full and shell limits.
@Suite(.serialized) struct HardeningTests {
    /// Runs a bash script with $CARDSCAN set to the binary, in a fresh folder holding a.jpg and b.jpg.
    static func sh(_ script: String, in dir: URL, stdin: Data? = nil) throws -> ProcessResult {
        var env = ProcessInfo.processInfo.environment
        env["CARDSCAN"] = TestPaths.binary.path
        env["FIXTURES"] = TestPaths.cards.path
        return try runProcess(URL(fileURLWithPath: "/bin/bash"), ["-c", "cd \"$0\" && " + script, dir.path],
                              stdin: stdin, environment: env)
    }

    static func folder(_ name: String) throws -> URL {
        let dir = try EndToEndTests.scratch("hard-" + name)
        try FileManager.default.copyItem(at: TestPaths.cards.appendingPathComponent("card-us-plain.jpg"), to: dir.appendingPathComponent("a.jpg"))
        try FileManager.default.copyItem(at: TestPaths.cards.appendingPathComponent("card-ca-split.jpg"), to: dir.appendingPathComponent("b.jpg"))
        return dir
    }

    static func records(_ text: String) throws -> [[String: Any]] { try EndToEndTests.records(text) }
    static func sources(_ text: String) throws -> [String] { try records(text).map { $0["source"] as? String ?? "?" } }

    @Test func anEndlessStdinIsCutAtTheLimitAndADecompressionBombIsRefusedFromItsHeader() throws {
        let dir = try Self.folder("bounded")
        defer { try? FileManager.default.removeItem(at: dir) }
        let zero = try Self.sh("head -c 300000000 /dev/zero | timeout 60 \"$CARDSCAN\" scan --max-megabytes 8 -", in: dir)
        #expect(zero.status == 1)
        let record = try #require(try Self.records(zero.stdout).first)
        #expect((record["error"] as? [String: Any])?["code"] as? String == "too-large")
        #expect(zero.stderr.contains("--max-megabytes"))
        // A 16-bit PNG of 9,999 x 9,999 pixels in a few hundred kilobytes.
        let bomb = try Self.sh("""
            python3 -c '
            import struct, zlib
            w = h = 9999
            def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
            rows = zlib.compress((b"\\0" * (w * 6 + 1)) * h, 9)
            open("bomb.png", "wb").write(b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 16, 2, 0, 0, 0)) + chunk(b"IDAT", rows) + chunk(b"IEND", b""))'
            "$CARDSCAN" scan bomb.png a.jpg
            """, in: dir)
        #expect(bomb.status == 1)
        #expect(try Self.sources(bomb.stdout) == ["bomb.png", "a.jpg"])
        let refused = try Self.records(bomb.stdout)[0]
        #expect((refused["error"] as? [String: Any])?["code"] as? String == "too-large")
        #expect(bomb.stderr.contains("--max-decode-megabytes"))
    }

    @Test func fifosAndDevicesAreRefusedWithoutHangingAndTheBatchGoesOn() throws {
        let dir = try Self.folder("fifo")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try Self.sh("mkfifo c.jpg && timeout 60 \"$CARDSCAN\" scan . c.jpg /dev/zero", in: dir)
        #expect(result.status == 1)
        let records = try Self.records(result.stdout)
        #expect(records.map { $0["source"] as? String } == ["./a.jpg", "./b.jpg", "./c.jpg", "c.jpg", "/dev/zero"])
        #expect(records.prefix(2).allSatisfy { $0["status"] as? String == "ok" })
        for r in records.suffix(3) { #expect((r["error"] as? [String: Any])?["code"] as? String == "not-a-file") }
        #expect(result.stderr.contains("c.jpg: is a FIFO (named pipe), not a regular file"))
    }

    @Test func theFirstInterruptEndsAWaitForStandardInput() throws {
        // Standard input stays open and silent; one SIGINT after a second and a half ends the run.
        let process = Process()
        process.executableURL = TestPaths.binary
        process.arguments = ["scan", "-"]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        Thread.sleep(forTimeInterval: 1.5)
        let start = Date()
        process.interrupt()
        let stopped = DispatchSemaphore(value: 0)
        DispatchQueue.global().async { process.waitUntilExit(); stopped.signal() }
        let inTime = stopped.wait(timeout: .now() + 10) == .success
        try input.fileHandleForWriting.close()
        if !inTime { process.waitUntilExit() }
        #expect(inTime, "still waiting for input after the interrupt")
        #expect(process.terminationStatus == 130)
        #expect(Date().timeIntervalSince(start) < 10)
        #expect(output.fileHandleForReading.readDataToEndOfFile().isEmpty)
    }

    /// A device named as an input is refused without being opened (opening a terminal or a tape
    /// acts on it). Under strace, no open of either device is seen.
    @Test func devicesAreRefusedWithoutBeingOpened() throws {
        guard let (result, trace) = try NetworkLockdownTests.traced("open,openat", ["scan", "/dev/tty", "/dev/zero"]) else { return }
        #expect(result.status == 1)
        let records = try Self.records(result.stdout)
        #expect(records.map { ($0["error"] as? [String: Any])?["code"] as? String } == ["not-a-file", "not-a-file"], "\(result.stdout)")
        let opened = trace.split(separator: "\n").filter { $0.contains("\"/dev/tty\"") || $0.contains("\"/dev/zero\"") }
        #expect(opened.isEmpty, "\(opened)")
    }

    @Test func linkCyclesEndAndLinksNeverLeadOutOfTheFolderUnlessAsked() throws {
        let dir = try Self.folder("links")
        defer { try? FileManager.default.removeItem(at: dir) }
        let outside = try EndToEndTests.scratch("hard-outside")
        defer { try? FileManager.default.removeItem(at: outside) }
        try FileManager.default.copyItem(at: TestPaths.cards.appendingPathComponent("card-us-plain.jpg"), to: outside.appendingPathComponent("o.jpg"))
        let result = try Self.sh("""
            mkdir sub && ln -s .. sub/up && ln -s . x && ln -s . y && ln -s "\(outside.path)" away && ln -s loop loop
            timeout 120 "$CARDSCAN" scan -q . ; echo "rc=$?" >&2; timeout 120 "$CARDSCAN" scan -q loop
            """, in: dir)
        // Each photo once; the loop is an error record (in the folder and named), nothing else.
        #expect(try Self.sources(result.stdout) == ["./a.jpg", "./b.jpg", "./loop", "loop"])
        #expect(result.stderr.contains("rc=1"))
        #expect(result.stderr.contains("./loop: too many levels of symbolic links"))
        let followed = try Self.sh("timeout 120 \"$CARDSCAN\" scan --follow-links -q .", in: dir)
        #expect(try Self.sources(followed.stdout) == ["./a.jpg", "./away/o.jpg", "./b.jpg", "./loop"])
    }

    @Test func fileNamesThatAreNotUTF8AreScannedAndPrintedEscaped() throws {
        let dir = try Self.folder("bytes")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try Self.sh("""
            mkdir sub && cp a.jpg "sub/$(printf 'caf\\351.jpg')" && "$CARDSCAN" scan -q sub "sub/$(printf 'caf\\351.jpg')"
            """, in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.sources(result.stdout) == ["sub/caf\\xe9.jpg", "sub/caf\\xe9.jpg"])
        #expect(try Self.records(result.stdout).allSatisfy { $0["status"] as? String == "ok" })
    }

    @Test func outputNeverReplacesAnInputADeviceOrAFileThatHoldsNoRecords() throws {
        let dir = try Self.folder("output")
        defer { try? FileManager.default.removeItem(at: dir) }
        let before = try Data(contentsOf: dir.appendingPathComponent("a.jpg"))
        let input = try Self.sh("\"$CARDSCAN\" scan -o a.jpg a.jpg b.jpg", in: dir)
        #expect(input.status == 2)
        #expect(input.stderr.contains("a.jpg: is one of the inputs"))
        #expect(try Data(contentsOf: dir.appendingPathComponent("a.jpg")) == before)
        let device = try Self.sh("\"$CARDSCAN\" scan -o /dev/full a.jpg; echo \"rc=$?\"; test -c /dev/full && echo still-a-device", in: dir)
        #expect(device.stdout.contains("rc=2") && device.stdout.contains("still-a-device"))
        #expect(device.stderr.contains("/dev/full: is a device, not a regular file"))
        let notes = try Self.sh("""
            echo 'my notes' > notes.txt
            "$CARDSCAN" scan --resume -o notes.txt a.jpg; echo "rc=$?"
            "$CARDSCAN" scan -o notes.txt a.jpg; echo "rc=$?"; cat notes.txt
            "$CARDSCAN" scan --force -o notes.txt a.jpg; echo "rc=$?"; head -c 11 notes.txt; echo
            "$CARDSCAN" scan -o notes.txt b.jpg; echo "rc=$?"; head -c 17 notes.txt
            """, in: dir)
        // The records --force wrote are an earlier run's: kept.
        #expect(notes.stdout == "rc=2\nrc=2\nmy notes\nrc=0\n{\"source\":\"\nrc=2\n{\"source\":\"a.jpg\"")
        // A link that leads nowhere is refused, not replaced.
        let dangling = try Self.sh("ln -s nowhere/out.jsonl broken; \"$CARDSCAN\" scan -o broken a.jpg; echo \"rc=$?\"; test -L broken && echo still-a-link", in: dir)
        #expect(dangling.stdout == "rc=2\nstill-a-link\n")
        #expect(dangling.stderr.contains("broken: is a symbolic link that leads nowhere"))
        // -o - is standard output, not a file named "-".
        let dash = try Self.sh("\"$CARDSCAN\" scan -o - a.jpg | head -c 17; echo; ls", in: dir)
        #expect(dash.stdout.hasPrefix("{\"source\":\"a.jpg\"\n"))
        #expect(!dash.stdout.split(separator: "\n").contains("-"))
    }

    /// No output (--report, -o, with --force or not) replaces an input in a scanned folder or an
    /// image; nor the list --files-from reads.
    @Test func forceNeverMakesAnInputWritable() throws {
        let dir = try Self.folder("force-input")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try Self.sh("""
            mkdir d && cp a.jpg d/card.jpg && cp b.jpg d/other.jpg && echo d/other.jpg > list.txt
            cp list.txt list.before && before=$(cat d/card.jpg d/other.jpg | md5sum)
            "$CARDSCAN" scan -q d --report d/card.jpg --force > /dev/null; echo "report rc=$?"
            "$CARDSCAN" scan -q d -o d/card.jpg --force; echo "output rc=$?"
            "$CARDSCAN" scan -q d --db d/other.jpg > /dev/null; echo "db rc=$?"
            "$CARDSCAN" scan -q --files-from list.txt -o list.txt --force; echo "list rc=$?"
            "$CARDSCAN" scan -q a.jpg -o d/card.jpg --force; echo "image rc=$?"
            test "$before" = "$(cat d/card.jpg d/other.jpg | md5sum)" && cmp -s list.txt list.before && echo intact
            ls d
            """, in: dir)
        #expect(result.stdout == "report rc=2\noutput rc=2\ndb rc=2\nlist rc=2\nimage rc=2\nintact\ncard.jpg\nother.jpg\n", "\(result.stderr)")
        #expect(result.stderr.components(separatedBy: "never replaces one, even with --force").count - 1 == 4, "\(result.stderr)")
        #expect(result.stderr.contains("list.txt: is one of the inputs"), "\(result.stderr)")
    }

    /// Outputs naming one file are refused (each would destroy the other's work), and -o does not
    /// replace an earlier run's records without a word.
    @Test func outputsThatNameOneFileAreRefusedAndEarlierRecordsAreKept() throws {
        let dir = try Self.folder("same-file")
        defer { try? FileManager.default.removeItem(at: dir) }
        let clash = try Self.sh("""
            "$CARDSCAN" scan -q -o x --db x a.jpg; echo "o-db rc=$?"
            "$CARDSCAN" scan -q --report r --db r a.jpg; echo "report-db rc=$?"
            "$CARDSCAN" scan -q --report q -o q a.jpg; echo "report-o rc=$?"
            "$CARDSCAN" scan -q --report book.sqlite-wal --db book.sqlite a.jpg; echo "report-wal rc=$?"
            ln -s x.jsonl link; "$CARDSCAN" scan -q -o x.jsonl --report ./link a.jpg; echo "link rc=$?"
            ls
            """, in: dir)
        #expect(clash.stdout == "o-db rc=2\nreport-db rc=2\nreport-o rc=2\nreport-wal rc=2\nlink rc=2\na.jpg\nb.jpg\nlink\n", "\(clash.stderr)")
        #expect(clash.stderr.contains("x: is written by both -o and --db; give each output a file of its own"), "\(clash.stderr)")
        #expect(clash.stderr.contains("book.sqlite-wal: is written by both --report and --db"), "\(clash.stderr)")
        let kept = try Self.sh("""
            "$CARDSCAN" scan -q -o out.jsonl --db book.sqlite a.jpg b.jpg; echo "first rc=$?"
            "$CARDSCAN" contacts export --db book.sqlite -o book.sqlite-wal; echo "export rc=$?"
            "$CARDSCAN" scan -q -o out.jsonl a.jpg; echo "again rc=$?"; wc -l < out.jsonl
            "$CARDSCAN" scan -q --resume -o out.jsonl a.jpg b.jpg; echo "resume rc=$?"; wc -l < out.jsonl
            "$CARDSCAN" scan -q --force -o out.jsonl a.jpg; echo "force rc=$?"; wc -l < out.jsonl
            "$CARDSCAN" contacts list --db book.sqlite | wc -l
            """, in: dir)
        // contacts list: a header, the two contacts, the count.
        #expect(kept.stdout == "first rc=0\nexport rc=1\nagain rc=2\n2\nresume rc=0\n2\nforce rc=0\n1\n4\n", "\(kept.stderr)")
        #expect(kept.stderr.contains("out.jsonl: holds the records of an earlier run; continue it with --resume"), "\(kept.stderr)")
        #expect(kept.stderr.contains("book.sqlite-wal: is written by both --db and -o"), "\(kept.stderr)")
    }

    @Test func stripInPlaceThroughALinkStripsTheRealPhoto() throws {
        let dir = try Self.folder("strip-link")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try Self.sh("""
            ln -s a.jpg link.jpg && "$CARDSCAN" strip --in-place link.jpg && test -L link.jpg && echo link-kept
            exiftool -s -s -s -GPSLatitude a.jpg | wc -c
            """, in: dir)
        #expect(result.stdout == "link-kept\n0\n", "\(result.stderr)")
    }

    @Test func stripToNeverSkipsSilently() throws {
        let dir = try Self.folder("strip-to")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try Self.sh("""
            mkdir one two out && cp a.jpg one/x.jpg && cp b.jpg two/x.jpg && cp a.jpg out/x.jpg
            "$CARDSCAN" scan -q --strip-to out one two > /dev/null; echo "rc=$?"; ls out
            """, in: dir)
        #expect(result.stdout == "rc=0\nx-2.jpg\nx-3.jpg\nx.jpg\n", "\(result.stderr)")
    }

    @Test func everyWriteIsCheckedAndAFailedOneKeepsTheWholeRecords() throws {
        let dir = try Self.folder("writes")
        defer { try? FileManager.default.removeItem(at: dir) }
        let full = try Self.sh("\"$CARDSCAN\" scan a.jpg > /dev/full", in: dir)
        #expect(full.status == 1)
        #expect(full.stderr.contains("standard output: no space left on the device"))
        // A file-size limit of 3 KB: the first record fits, the second does not.
        let limited = try Self.sh("""
            (ulimit -f 3; "$CARDSCAN" scan -o out.jsonl a.jpg b.jpg a.jpg b.jpg); echo "rc=$?"; ls; wc -c < out.jsonl.partial
            """, in: dir)
        #expect(limited.stdout.contains("rc=1"))
        #expect(limited.stderr.contains("out.jsonl.partial"))
        let partial = try String(contentsOf: dir.appendingPathComponent("out.jsonl.partial"), encoding: .utf8)
        #expect(partial.isEmpty || partial.hasSuffix("\n"))
        for line in partial.split(separator: "\n") { #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any]) }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.jsonl").path))
    }

    /// `--format json` or `csv` to a full disk exits 1 like every failed write (its first write,
    /// the "[" or the header, is not a refused output), and --version, --help and the completion
    /// script do not exit 0 having written nothing.
    @Test func aFailedWriteToStandardOutputIsExitOneWhateverIsWritten() throws {
        let dir = try Self.folder("exit-status")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try Self.sh("""
            for f in jsonl json csv vcard; do "$CARDSCAN" scan -q --format $f a.jpg > /dev/full 2>> err.txt; echo "$f rc=$?"; done
            for a in --version --help "scan --help" "--generate-completion-script bash" "help contacts"; do
              "$CARDSCAN" $a > /dev/full 2>> err.txt; echo "$a rc=$?"
            done
            "$CARDSCAN" --version | head -c 12; echo " rc=${PIPESTATUS[0]}"
            """, in: dir)
        #expect(result.stdout == """
            jsonl rc=1
            json rc=1
            csv rc=1
            vcard rc=1
            --version rc=1
            --help rc=1
            scan --help rc=1
            --generate-completion-script bash rc=1
            help contacts rc=1
            cardscan 0.1 rc=0

            """, "\(result.stderr)")
        let errors = try String(contentsOf: dir.appendingPathComponent("err.txt"), encoding: .utf8)
        #expect(errors.components(separatedBy: "standard output: no space left on the device").count - 1 == 9, "\(errors)")
    }

    /// An image's bytes are held while it is decoded, so they count in the decode budget: one
    /// whose bytes alone are over it is refused before it is read or assembled whole, from a
    /// file, standard input or a stream.
    @Test func anImageWhoseBytesPassTheDecodeBudgetIsRefusedBeforeItIsHeldWhole() throws {
        let dir = try Self.folder("decode-budget")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try Self.sh("""
            python3 -c '
            import sys
            card = open("a.jpg", "rb").read()
            segment = b"\\xff\\xfe\\xff\\xff" + b"x" * 0xfffd
            open("big.jpg", "wb").write(card[:2] + segment * 320 + card[2:])'
            "$CARDSCAN" scan --max-decode-megabytes 16 big.jpg; echo "file rc=$?"
            "$CARDSCAN" scan --max-decode-megabytes 16 - < big.jpg; echo "stdin rc=$?"
            "$CARDSCAN" scan --max-decode-megabytes 16 --stream - < big.jpg; echo "stream rc=$?"
            "$CARDSCAN" scan big.jpg | head -c 33; echo " default rc=${PIPESTATUS[0]}"
            """, in: dir)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasSuffix("rc=1") }.count == 3 && lines.last == "{\"source\":\"big.jpg\",\"status\":\"ok\" default rc=0",
                "\(result.stdout.suffix(400)) \(result.stderr)")
        #expect(lines.filter { $0.contains("\"code\":\"too-large\"") }.count == 3, "\(result.stdout.prefix(1200))")
        #expect(result.stderr.components(separatedBy: "--max-decode-megabytes").count - 1 == 3, "\(result.stderr)")
    }

    @Test func streamEdgeCasesGiveARecordEach() throws {
        let dir = try Self.folder("stream")
        defer { try? FileManager.default.removeItem(at: dir) }
        func code(_ stdin: Data) throws -> (String?, Int32) {
            let r = try runProcess(TestPaths.binary, ["scan", "--stream", "-"], stdin: stdin)
            return ((try Self.records(r.stdout).first?["error"] as? [String: Any])?["code"] as? String, r.status)
        }
        #expect(try code(Data()) == ("empty-input", 1))
        #expect(try code(Data("just some text\n".utf8)) == ("not-an-image", 1))
        #expect(try code(Data([0, 0, 0, 0x18] + Array("ftypheic".utf8) + [UInt8](repeating: 0, count: 64))) == ("unsupported-format", 1))
        // A multi-picture JPEG (two pictures, each with an MPF segment) is one photo.
        let a = [UInt8](try Data(contentsOf: dir.appendingPathComponent("a.jpg")))
        let mpf: [UInt8] = [0xFF, 0xE2, 0x00, 0x08, 0x4D, 0x50, 0x46, 0x00, 0x00, 0x00]
        let picture = Array(a[0..<2]) + mpf + Array(a[2...])
        let mpo = try runProcess(TestPaths.binary, ["scan", "--stream", "-"], stdin: Data(picture + picture))
        #expect(try Self.sources(mpo.stdout) == ["-#1"])
        // An empty file in a folder is skipped, not a permissions error.
        let empty = try Self.sh(": > empty.jpg; \"$CARDSCAN\" scan -q .", in: dir)
        #expect(try Self.sources(empty.stdout) == ["./a.jpg", "./b.jpg"])
        #expect(empty.stderr.isEmpty)
    }

    @Test func streamRecordsComeOutAsImagesArriveNotAtTheEnd() throws {
        // The second image is sent only once the first record is out: held back to the end of
        // the input, it would never come (whatever the machine's speed, sanitizers included).
        let a = try Data(contentsOf: TestPaths.cards.appendingPathComponent("card-us-plain.jpg"))
        let process = Process()
        process.executableURL = TestPaths.binary
        process.arguments = ["scan", "--stream", "-"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(a)
        let firstLine = DispatchSemaphore(value: 0)
        let received = LockedData()
        output.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            if received.append(chunk).contains(0x0A) { firstLine.signal() }
        }
        let inTime = firstLine.wait(timeout: .now() + 300) == .success
        input.fileHandleForWriting.write(a)
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        output.fileHandleForReading.readabilityHandler = nil
        let rest = output.fileHandleForReading.readDataToEndOfFile()
        #expect(inTime, "no record before the stream ended")
        let text = String(decoding: received.value + rest, as: UTF8.self)
        #expect(try Self.sources(text) == ["-#1", "-#2"])
    }

    /// On a terminal the progress line shows only when the records go elsewhere (script(1) gives
    /// the command a pseudo-terminal for stdout and stderr alike).
    @Test func theProgressLineNeverMixesIntoRecordsOnATerminal() throws {
        let dir = try Self.folder("progress")
        defer { try? FileManager.default.removeItem(at: dir) }
        // Records on a terminal are a readable table (JSON Lines when piped).
        let both = try Self.sh("script -qec '\"$CARDSCAN\" scan a.jpg' /dev/null", in: dir)
        #expect(both.stdout.contains("FILE") && both.stdout.contains("a.jpg") && both.stdout.contains("1 photo: 1 read"))
        #expect(!both.stdout.contains("cards/s"))
        let redirected = try Self.sh("script -qec '\"$CARDSCAN\" scan a.jpg > out.jsonl' /dev/null; head -c 17 out.jsonl", in: dir)
        #expect(redirected.stdout.contains("cards/s"))
        #expect(redirected.stdout.hasSuffix("{\"source\":\"a.jpg\""))
    }

    @Test func messagesAreEscapedAndSayWhatToDo() throws {
        let dir = try Self.folder("messages")
        defer { try? FileManager.default.removeItem(at: dir) }
        let escaped = try Self.sh("\"$CARDSCAN\" scan \"$(printf 'x\\033[2Jy.jpg')\"", in: dir)
        #expect(!escaped.stderr.contains("\u{1B}"))
        #expect(escaped.stderr.contains("x\\x1b[2Jy.jpg: no such file or folder"))
        let usage = try Self.sh("""
            "$CARDSCAN" scan --jobs -1 a.jpg; "$CARDSCAN" scan --shard 0/3 a.jpg; "$CARDSCAN" scan --region ZZ a.jpg
            "$CARDSCAN" scan --lang 'eng;rm -rf' a.jpg; mkdir empty; "$CARDSCAN" scan empty; echo "rc=$?"
            """, in: dir)
        #expect(usage.stderr.contains("--jobs must be at least 1"))
        #expect(usage.stderr.contains("K counting from 1 to N"))
        #expect(usage.stderr.contains("--region takes an ISO 3166 country code"))
        #expect(usage.stderr.contains("--lang takes Tesseract language codes"))
        #expect(usage.stderr.contains("no images found to scan in empty"))
        #expect(usage.stdout.contains("rc=1"))
        // --jobs over the cores is capped (each worker holds an engine), unless forced.
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let jobs = try Self.sh("\"$CARDSCAN\" scan -q --jobs 64 a.jpg > /dev/null", in: dir)
        #expect(jobs.stderr.contains("--jobs 64 is more than the \(cores) cores: using \(cores)"))
        // --quiet wins over --progress always.
        let quiet = try Self.sh("\"$CARDSCAN\" scan --quiet --progress always a.jpg > /dev/null", in: dir)
        #expect(quiet.stderr.isEmpty)
    }
}

/// Bytes gathered from a pipe's handler thread.
final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    var value: Data { lock.withLock { data } }
    /// Appends and returns everything so far.
    func append(_ chunk: Data) -> Data { lock.withLock { data.append(chunk); return data } }
}
