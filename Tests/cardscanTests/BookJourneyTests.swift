import Foundation
import ImageIngest
import Testing
import TestSupport

/// The journey from photo to address book, on the built binary: corrections, rescans, merged
/// exports, no-card photos, the contacts command's manners, the table on a terminal, install.
@Suite(.serialized) struct BookJourneyTests {
    static func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-journey-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    static func card(_ name: String) -> String { TestPaths.cards.appendingPathComponent(name).path }

    static func show(_ db: String, _ id: Int) throws -> [String: Any] {
        let shown = try runProcess(TestPaths.binary, ["contacts", "show", "--db", db, String(id)])
        return try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
    }

    @Test func aCorrectionOutlivesLaterScansAndARescanAddsNoHistory() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("book.sqlite").path
        #expect(try runProcess(TestPaths.binary, ["scan", "--quiet", "--db", db, Self.card("card-us-plain.jpg")]).status == 0)
        let edit = try runProcess(TestPaths.binary, ["contacts", "--db", db, "edit", "1", "title=Chief Engineer", "mobile=+1 312 555 0199",
                                                     "--remove-field", "urls"])
        #expect(edit.status == 0, "\(edit.stderr)")
        #expect(edit.stdout == "contact 1: set phones, title; removed urls\n")
        // The same photo again (another name, same bytes): no second history entry, the correction stays.
        let copy = dir.appendingPathComponent("again.jpg")
        try FileManager.default.copyItem(atPath: Self.card("card-us-plain.jpg"), toPath: copy.path)
        #expect(try runProcess(TestPaths.binary, ["scan", "--quiet", "--db", db, Self.card("card-us-plain.jpg"), copy.path]).status == 0)
        let shown = try Self.show(db, 1)
        let contact = try #require(shown["contact"] as? [String: Any])
        #expect(contact["title"] as? String == "Chief Engineer")
        #expect((contact["urls"] as? [String]) == [])
        #expect((contact["phones"] as? [[String: Any]])?.map { $0["e164"] as? String } == ["+13125550199"])
        let scans = try #require(shown["scans"] as? [[String: Any]])
        #expect(scans.map { $0["kind"] as? String } == ["scan", "correction"])
        // A correction that would leave nothing, and a field that does not exist, are refused.
        let empty = try runProcess(TestPaths.binary, ["contacts", "edit", "--db", db, "1", "--remove-field", "name", "--remove-field", "organization",
                                                      "--remove-field", "emails", "--remove-field", "phones", "--remove-field", "title",
                                                      "--remove-field", "address"])
        #expect(empty.status == 2 && empty.stderr.contains("no field"), "\(empty.stderr)")
        let unknown = try runProcess(TestPaths.binary, ["contacts", "edit", "--db", db, "1", "nickname=Bob"])
        #expect(unknown.status == 2 && !unknown.stderr.contains("Bob"), "\(unknown.stderr)")
    }

    /// With --db, the review page names each card's book ID and the command that corrects it.
    @Test func theReviewPageShowsEachCardsBookID() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("book.sqlite").path
        let page = dir.appendingPathComponent("review.html").path
        let scan = try runProcess(TestPaths.binary, ["scan", "--quiet", "--db", db, "--report", page,
                                                     Self.card("card-us-plain.jpg"), Self.card("card-gb-dark.jpg")])
        #expect(scan.status == 0, "\(scan.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        for id in [1, 2] {
            #expect(html.contains("Book ID \(id): <code>cardscan contacts edit \(id) field=value</code>"), "book ID \(id)")
        }
        let listed = try runProcess(TestPaths.binary, ["contacts", "--db", db, "list"])
        #expect(listed.stdout.hasSuffix("2 contacts in \(db)\n"))
    }

    @Test func contactsTakesItsBookBeforeOrAfterTheSubcommandAndSaysWhatItDid() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("book.sqlite").path
        _ = try runProcess(TestPaths.binary, ["scan", "--quiet", "--db", db, Self.card("card-us-plain.jpg"), Self.card("card-gb-dark.jpg")])
        let before = try runProcess(TestPaths.binary, ["contacts", "--db", db, "list"])
        let after = try runProcess(TestPaths.binary, ["contacts", "list", "--db", db])
        #expect(before.status == 0 && before.stdout == after.stdout, "\(before.stderr)")
        #expect(before.stdout.hasSuffix("2 contacts in \(db)\n"))
        let out = dir.appendingPathComponent("book.vcf")
        let export = try runProcess(TestPaths.binary, ["contacts", "export", "--db", db, "--format", "vcard3", "-o", out.path])
        #expect(export.stderr.contains("exported 2 contacts as vcard3 to \(out.path)"), "\(export.stderr)")
        // The same contacts exported again carry the same UIDs.
        let again = try runProcess(TestPaths.binary, ["contacts", "export", "--db", db, "--format", "vcard3"])
        func uids(_ s: String) -> [Substring] { s.split(separator: "\r\n").filter { $0.hasPrefix("UID:") } }
        let written = try String(contentsOf: out, encoding: .utf8)
        #expect(uids(again.stdout).count == 2 && uids(again.stdout) == uids(written))
        let notes = dir.appendingPathComponent("notes.txt")
        try Data("my notes\n".utf8).write(to: notes)
        let refused = try runProcess(TestPaths.binary, ["contacts", "export", "--db", db, "-o", notes.path])
        #expect(refused.status == 1 && refused.stderr.contains("--force"))
        #expect(try String(contentsOf: notes, encoding: .utf8) == "my notes\n")
        let forced = try runProcess(TestPaths.binary, ["contacts", "export", "--db", db, "--force", "-o", notes.path])
        #expect(forced.status == 0, "\(forced.stderr)")
        // purge without a terminal asks nothing and deletes nothing unless --yes.
        let purge = try runProcess(TestPaths.binary, ["contacts", "purge", "--db", db])
        #expect(purge.status == 2 && purge.stderr.contains("--yes"))
        let kept = try runProcess(TestPaths.binary, ["contacts", "list", "--db", db])
        #expect(kept.stdout.hasSuffix("2 contacts in \(db)\n"))
    }

    /// Front and back, or one card twice: one vCard; --no-merge keeps each.
    @Test func aBatchExportMergesTheSamePerson() throws {
        let inputs = [Self.card("card-us-plain.jpg"), Self.card("card-gb-dark.jpg"), Self.card("card-us-plain.jpg")]
        let merged = try runProcess(TestPaths.binary, ["scan", "--quiet", "--format", "vcard3"] + inputs)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout.components(separatedBy: "BEGIN:VCARD").count - 1 == 2)
        let apart = try runProcess(TestPaths.binary, ["scan", "--quiet", "--format", "vcard3", "--no-merge"] + inputs)
        #expect(apart.stdout.components(separatedBy: "BEGIN:VCARD").count - 1 == 3)
        let google = try runProcess(TestPaths.binary, ["scan", "--quiet", "--format", "google-csv"] + inputs)
        #expect(google.stdout.split(separator: "\r\n").count == 3)  // the header and two contacts
        let bad = try runProcess(TestPaths.binary, ["scan", "--quiet", "--merge", "--format", "jsonl"] + inputs)
        #expect(bad.status == 2)
    }

    /// A photo of no card (a plain wall) is "no-card": no contact, a warning, exit 1; the book stays empty.
    @Test func aPhotoWithoutACardIsNoContact() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wall = dir.appendingPathComponent("wall.jpg")
        let pixels = PixelImage(width: 1200, height: 900, channels: 3, fill: 128)
        try Data(try JPEGEncoder.encode(pixels, source: "wall")).write(to: wall)
        let db = dir.appendingPathComponent("book.sqlite").path
        let result = try runProcess(TestPaths.binary, ["scan", "--quiet", "--db", db, wall.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no card and no contact field"), "\(result.stderr)")
        let record = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(record["status"] as? String == "no-card")
        #expect(record["contact"] == nil)
        let listed = try runProcess(TestPaths.binary, ["contacts", "list", "--db", db])
        #expect(listed.stdout.hasSuffix("0 contacts in \(db)\n"), "\(listed.stderr)")
        let vcard = try runProcess(TestPaths.binary, ["scan", "--quiet", "--format", "vcard", wall.path])
        #expect(vcard.stdout.isEmpty)
    }

    /// On a terminal (a pseudo-terminal from script(1)), scan prints a table and a summary line.
    @Test func onATerminalScanPrintsATable() throws {
        let script = URL(fileURLWithPath: "/usr/bin/script")
        guard FileManager.default.isExecutableFile(atPath: script.path) else { try Test.cancel("script(1) is not installed") }
        let command = "'\(TestPaths.binary.path)' scan --quiet '\(Self.card("card-us-plain.jpg"))'"
        let result = try runProcess(script, ["-qec", command, "/dev/null"])
        #expect(result.stdout.contains("FILE"))
        #expect(result.stdout.contains("card-us-plain.jpg") && result.stdout.contains("Laura Kimball") && result.stdout.contains("+13125550142"))
        #expect(result.stdout.contains("1 photo: 1 read, 0 without a card, 0 failed"), "\(result.stdout)")
        #expect(!result.stdout.contains("{\"source\""))
    }

    /// make install into a DESTDIR: the binary, its man page (made from the argument parser) and completions.
    /// `install-files`, the part after the build (`swift test` holds the build folder's lock).
    @Test func makeInstallPutsEverythingUnderPrefixInDestdir() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let make = try runProcess(URL(fileURLWithPath: "/usr/bin/make"), ["-C", TestPaths.packageRoot.path, "--no-print-directory", "install-files",
                                                                          "DESTDIR=\(dir.path)", "PREFIX=/opt/cs", "BIN=\(TestPaths.binary.path)"])
        #expect(make.status == 0, "\(make.stderr)")
        let root = dir.appendingPathComponent("opt/cs")
        for file in ["bin/cardscan", "share/man/man1/cardscan.1", "share/bash-completion/completions/cardscan",
                     "share/zsh/site-functions/_cardscan", "share/fish/vendor_completions.d/cardscan.fish"] {
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(file).path), "\(file)")
        }
        let page = try String(contentsOf: root.appendingPathComponent("share/man/man1/cardscan.1"), encoding: .utf8)
        #expect(page.hasPrefix(".TH CARDSCAN 1"))
        for words in ["contacts edit", "contacts import", "\\fB--format\\fR", "vcard3"] { #expect(page.contains(words), "\(words)") }
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/man") {
            let rendered = try runProcess(URL(fileURLWithPath: "/usr/bin/man"), [root.appendingPathComponent("share/man/man1/cardscan.1").path],
                                          environment: ["MANPAGER": "cat", "PATH": "/usr/bin:/bin", "MANWIDTH": "100"])
            #expect(rendered.status == 0 && rendered.stdout.contains("SYNOPSIS"), "\(rendered.stderr)")
        }
    }
}
