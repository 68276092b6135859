import CardFormats
import Foundation
import Testing
import TestSupport

/// Exports read by address books nobody here wrote (Debian's khard, abook and Python's csv,
/// installed by scripts/setup.sh --tests), on the built binary, as a user runs them.
@Suite(.serialized) struct AddressBookClientTests {
    static let python = URL(fileURLWithPath: "/usr/bin/python3")

    static func folder(_ name: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    static func tool(_ name: String) -> URL? {
        ["/usr/bin/", "/usr/local/bin/"].map { URL(fileURLWithPath: $0 + name) }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// A book of the photos in `folder`; its contacts as `contacts list --json` gives them.
    static func book(of folder: URL, in dir: URL) throws -> (db: String, contacts: [[String: Any]]) {
        let db = dir.appendingPathComponent("book.sqlite").path
        let scan = try runProcess(TestPaths.binary, ["scan", "--quiet", "--db", db, "-o", dir.appendingPathComponent("records.jsonl").path, folder.path])
        #expect(scan.status == 0 || scan.status == 1, "\(scan.stderr)")
        let list = try runProcess(TestPaths.binary, ["contacts", "list", "--json", "--db", db])
        let contacts = try list.stdout.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        return (db, contacts)
    }

    /// The export's cards, one file each, in a vdir as vdirsyncer leaves them (khard reads a vdir).
    static func vdir(of export: String, at dir: URL) throws -> Int {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let cards = export.components(separatedBy: "END:VCARD\r\n").filter { $0.contains("BEGIN:VCARD") }
        for (i, card) in cards.enumerated() {
            try Data((card + "END:VCARD\r\n").utf8).write(to: dir.appendingPathComponent("card-\(i).vcf"))
        }
        return cards.count
    }

    /// What khard shows of every contact (its YAML), as JSON: uid, names, organisation, title,
    /// phones, e-mails, web pages, address.
    static let khardDump = """
        import json, subprocess, sys
        from ruamel.yaml import YAML
        conf = sys.argv[1]
        listed = subprocess.run(["khard", "-c", conf, "list", "--parsable", "--fields", "uid"], capture_output=True, text=True, check=True)
        out = []
        for uid in [l.strip() for l in listed.stdout.splitlines() if l.strip()]:
            shown = subprocess.run(["khard", "-c", conf, "show", "--format", "yaml", "-u", uid], capture_output=True, text=True, check=True)
            y = YAML(typ="safe").load(shown.stdout)
            def values(section):
                v = y.get(section) or {}
                items = []
                for val in v.values():
                    items += val if isinstance(val, list) else [val]
                return sorted(str(i) for i in items)
            org = y.get("Organisation") or []
            adr = None
            for val in (y.get("Address") or {}).values():
                a = val[0] if isinstance(val, list) else val
                found = {k: str(a.get(k) or "") for k in ["Street", "City", "Region", "Code", "Country"]}
                adr = found if any(found.values()) else adr  # khard's template shows an empty address when there is none
            web = y.get("Webpage") or []
            out.append({"uid": uid, "fn": y.get("Formatted name") or "", "first": y.get("First name") or "",
                        "last": y.get("Last name") or "", "org": org[0][0] if org else "", "title": y.get("Title") or "",
                        "phones": values("Phone"), "emails": values("Email"),
                        "urls": sorted(web if isinstance(web, list) else [web]), "address": adr})
        print(json.dumps(out))
        """

    /// The book's value of each field, as a vCard 3.0 export writes it.
    static func expected(_ record: [String: Any]) -> [String: Any] {
        let c = record["contact"] as? [String: Any] ?? [:]
        let name = c["name"] as? [String: Any]
        let phones = (c["phones"] as? [[String: Any]] ?? []).map { ($0["e164"] as? String) ?? ($0["number"] as? String ?? "") }
        let urls = (c["urls"] as? [String] ?? []).map { $0.contains("://") ? $0 : "https://" + $0 }
        var address: [String: String]?
        if let a = c["address"] as? [String: Any] {
            let region = (c["region"] as? [String: Any])?["code"] as? String
            let country = (a["country"] as? String) ?? region.flatMap(CountryNames.name(ofCode:)) ?? ""
            address = ["Street": (a["street"] as? String) ?? ((a["lines"] as? [String])?.first ?? ""), "City": a["city"] as? String ?? "",
                       "Region": a["region"] as? String ?? "", "Code": a["postalCode"] as? String ?? "", "Country": country]
        }
        let emails = c["emails"] as? [String] ?? []
        return ["fn": (name?["full"] as? String) ?? (c["organization"] as? String) ?? emails.first ?? urls.first ?? phones.first ?? "",
                "first": name?["given"] as? String ?? "", "last": name?["family"] as? String ?? "",
                "org": c["organization"] as? String ?? "", "title": c["title"] as? String ?? "",
                "phones": phones.sorted(), "emails": emails.sorted(), "urls": urls.sorted(), "address": address.map { $0 as Any } ?? NSNull()]
    }

    /// khard imports every contact of a vCard 3.0 export with every field equal to the book's.
    /// Returns (contacts in khard, contacts in the book, fields compared, fields equal).
    static func khardRoundTrip(photos: URL, name: String) throws -> (inKhard: Int, inBook: Int, fields: Int, equal: Int) {
        let dir = try folder(name)
        defer { try? FileManager.default.removeItem(at: dir) }
        let (db, contacts) = try book(of: photos, in: dir)
        let export = try runProcess(TestPaths.binary, ["contacts", "export", "--db", db, "--format", "vcard3"])
        #expect(export.status == 0, "\(export.stderr)")
        let cards = try vdir(of: export.stdout, at: dir.appendingPathComponent("vdir"))
        let conf = dir.appendingPathComponent("khard.conf")
        try Data("[addressbooks]\n[[cards]]\npath = \(dir.path)/vdir\n[general]\neditor = /bin/true\nmerge_editor = /bin/true\n".utf8).write(to: conf)
        let dump = try runProcess(python, ["-c", khardDump, conf.path], environment: ["HOME": dir.path, "PATH": "/usr/bin:/bin"])
        #expect(dump.status == 0, "\(dump.stderr)")
        #expect(!dump.stderr.contains("will not be available"), "\(dump.stderr)")
        let shown = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [[String: Any]])
        let byUID = Dictionary(shown.map { ($0["uid"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })
        var fields = 0, equal = 0
        for record in contacts {
            let uid = record["uid"] as? String ?? ""
            let got = try #require(byUID[uid], "contact \(record["id"] ?? "?") is not in khard")
            for (key, want) in expected(record) {
                fields += 1
                let same = NSDictionary(dictionary: [key: want]).isEqual(to: [key: got[key] ?? NSNull()])
                    || (key == "address" && want is NSNull && got[key] is NSNull)
                if same { equal += 1 } else { Issue.record("contact \(record["id"] ?? "?"): \(key) differs in khard") }  // names the field, not its value
            }
        }
        #expect(cards == contacts.count)
        return (shown.count, contacts.count, fields, equal)
    }

    @Test func khardImportsEveryFixtureContactWithEveryField() throws {
        guard Self.tool("khard") != nil else { try Test.cancel("khard is not installed (scripts/setup.sh --tests installs it)") }
        let cards = try ExpectedCard.all().count
        let result = try Self.khardRoundTrip(photos: TestPaths.cards, name: "khard-fixtures")
        #expect(result.inKhard == result.inBook && result.inBook == cards)
        #expect(result.equal == result.fields)
    }

    /// The issue's target: the 30 cards of ../shared/eval/dev, as 30 contacts in khard, every field equal.
    @Test func khardImportsTheThirtyDevCards() throws {
        guard Self.tool("khard") != nil else { try Test.cancel("khard is not installed (scripts/setup.sh --tests installs it)") }
        guard let dev = TestPaths.shared?.appendingPathComponent("eval/dev") else { try Test.cancel("../shared is not beside the checkout") }
        let result = try Self.khardRoundTrip(photos: dev, name: "khard-dev")
        print("khard, ../shared/eval/dev: \(result.inKhard) contacts in khard of \(result.inBook) in the book; \(result.equal) of \(result.fields) fields equal")
        #expect(result.inKhard == 30 && result.inBook == 30)
        #expect(result.equal == result.fields)
    }

    /// abook (a curses address book) converts our vCard 3.0 to its own format and CSV.
    @Test func abookConvertsTheExport() throws {
        guard let abook = Self.tool("abook") else { try Test.cancel("abook is not installed (scripts/setup.sh --tests installs it)") }
        let dir = try Self.folder("abook")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (db, contacts) = try Self.book(of: TestPaths.cards, in: dir)
        let vcf = dir.appendingPathComponent("all.vcf")
        #expect(try runProcess(TestPaths.binary, ["contacts", "export", "--db", db, "--format", "vcard3", "-o", vcf.path]).status == 0)
        let converted = try runProcess(abook, ["--convert", "--informat", "vcard", "--infile", vcf.path, "--outformat", "csv"],
                                       environment: ["HOME": dir.path])
        #expect(converted.status == 0, "\(converted.stderr)")
        let rows = converted.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(rows.count == contacts.count)
        for record in contacts {
            let c = record["contact"] as? [String: Any] ?? [:]
            let name = (c["name"] as? [String: Any])?["full"] as? String ?? ""
            let email = (c["emails"] as? [String])?.first ?? ""
            #expect(rows.contains { $0.contains(name) && $0.contains(email) }, "contact \(record["id"] ?? "?")")
        }
    }

    /// Google's and Outlook's CSVs read back with Python's csv: the columns those products
    /// write, one row per contact, every value where the product looks for it.
    @Test(arguments: ["google-csv", "outlook-csv"]) func addressBookCSVsReadBack(format: String) throws {
        let dir = try Self.folder("csv")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (db, contacts) = try Self.book(of: TestPaths.cards, in: dir)
        let export = try runProcess(TestPaths.binary, ["contacts", "export", "--db", db, "--format", format])
        #expect(export.status == 0, "\(export.stderr)")
        let script = "import sys, csv, json; r = csv.reader(sys.stdin); h = next(r); print(json.dumps([h] + list(r)))"
        let parsed = try runProcess(Self.python, ["-c", script], stdin: Data(export.stdout.utf8))
        let table = try #require(try JSONSerialization.jsonObject(with: Data(parsed.stdout.utf8)) as? [[String]])
        let header = table[0], rows = table.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
        let layout: AddressBookCSV = format == "google-csv" ? .google : .outlook
        #expect(header == layout.columns)
        #expect(rows.count == contacts.count)
        for (record, row) in zip(contacts, rows) {
            let want = Self.expected(record)
            let google = layout == .google
            #expect(row["First Name"] == want["first"] as? String)
            #expect(row["Last Name"] == want["last"] as? String)
            #expect(row[google ? "Organization Name" : "Company"] == want["org"] as? String)
            #expect(row[google ? "Organization Title" : "Job Title"] == want["title"] as? String)
            #expect(row[google ? "E-mail 1 - Value" : "E-mail Address"] == (want["emails"] as? [String])?.first ?? "")
            let numbers = row.filter { ($0.key.contains("Phone") || $0.key.contains("Fax")) && !$0.key.hasSuffix("Label") }.values.filter { !$0.isEmpty }
                .flatMap { $0.components(separatedBy: "; ") }.flatMap { $0.components(separatedBy: " ::: ") }
            #expect(numbers.sorted() == want["phones"] as? [String])
            #expect(!numbers.contains { $0.hasPrefix("'") })
            if let address = want["address"] as? [String: String] {
                #expect(row[google ? "Address 1 - City" : "Business City"] == address["City"])
                #expect(row[google ? "Address 1 - Country" : "Business Country/Region"] == address["Country"])
                #expect(address["Country"]?.isEmpty == false)
            }
        }
    }

    /// `contacts import` of an exported vCard (3.0 and 4.0) gives the same contacts, by value.
    @Test(arguments: ["vcard3", "vcard"]) func importOfAnExportRoundTrips(format: String) throws {
        let dir = try Self.folder("import")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (db, contacts) = try Self.book(of: TestPaths.cards, in: dir)
        let vcf = dir.appendingPathComponent("all.vcf")
        #expect(try runProcess(TestPaths.binary, ["contacts", "export", "--db", db, "--format", format, "-o", vcf.path]).status == 0)
        let other = dir.appendingPathComponent("other.sqlite").path
        _ = FileManager.default.createFile(atPath: other, contents: nil)
        let imported = try runProcess(TestPaths.binary, ["contacts", "--db", other, "import", vcf.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("\(contacts.count) added"), "\(imported.stdout)")
        let again = try runProcess(TestPaths.binary, ["contacts", "list", "--json", "--db", other])
        let back = try again.stdout.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(back.count == contacts.count)
        for (a, b) in zip(contacts, back) {
            let ea = Self.expected(a), eb = Self.expected(b)
            #expect(NSDictionary(dictionary: ea).isEqual(to: eb), "contact \(a["id"] ?? "?")")
        }
        // The book's own export, imported back into it, changes nothing.
        let same = try runProcess(TestPaths.binary, ["contacts", "import", "--db", db, vcf.path])
        #expect(same.stdout.contains("\(contacts.count) unchanged"), "\(same.stdout)")
    }
}
