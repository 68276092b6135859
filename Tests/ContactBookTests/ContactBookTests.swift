import ContactParser
import Foundation
import GRDB
import Testing
@testable import ContactBook

/// The contact book against real SQLite files in a temporary folder.
@Suite struct ContactBookTests {
    static func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-book-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    static func contact(name: String? = nil, org: String? = nil, email: String? = nil, e164: String? = nil,
                        title: String? = nil, confidence: Double = 0.8) -> Contact {
        var c = Contact()
        if let name { c.name = PersonName(full: name, given: nil, family: nil); c.confidence[.name] = confidence }
        if let org { c.organization = org; c.confidence[.organization] = confidence }
        if let email { c.emails = [email]; c.confidence[.emails] = confidence }
        if let e164 { c.phones = [Phone(type: .work, number: e164, e164: e164)]; c.confidence[.phones] = confidence }
        if let title { c.title = title; c.confidence[.title] = confidence }
        return c
    }

    struct MergeCase: Sendable, CustomTestStringConvertible {
        let label: String
        let first: Contact
        let second: Contact
        let merges: Bool
        var testDescription: String { label }
    }

    static let mergeCases: [MergeCase] = [
        MergeCase(label: "same e-mail, other case", first: contact(name: "Ana Ruiz", email: "ana@ruiz.es"),
                  second: contact(name: "A. Ruiz", email: "ANA@ruiz.es"), merges: true),
        MergeCase(label: "same E.164 number", first: contact(name: "Ana Ruiz", e164: "+34988158157"),
                  second: contact(name: "Ana Ruíz", e164: "+34988158157"), merges: true),
        MergeCase(label: "same name at the same organisation, accents and case aside",
                  first: contact(name: "María López", org: "Cabezas S.L."), second: contact(name: "MARIA LOPEZ", org: "cabezas s.l."), merges: true),
        MergeCase(label: "same name at another organisation", first: contact(name: "John Smith", org: "Acme"),
                  second: contact(name: "John Smith", org: "Globex"), merges: false),
        MergeCase(label: "same name, no organisation", first: contact(name: "John Smith"), second: contact(name: "John Smith"), merges: false),
        MergeCase(label: "nothing shared", first: contact(name: "Ana Ruiz", email: "ana@ruiz.es"),
                  second: contact(name: "Bo Li", email: "bo@li.cn"), merges: false),
    ]

    @Test(arguments: mergeCases)
    func mergeRules(_ c: MergeCase) throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let book = try ContactBook(path: dir.appendingPathComponent("book.sqlite").path)
        let first = try book.add(c.first, source: "a.jpg")
        let second = try book.add(c.second, source: "b.jpg")
        guard case .created(let id) = first else { Issue.record("the first record must create a contact"); return }
        #expect(second == (c.merges ? .merged(into: id) : .created(id + 1)))
        #expect(try book.list().count == (c.merges ? 1 : 2))
        // --no-merge keeps even a match apart.
        #expect(try book.add(c.second, source: "c.jpg", merge: false) == .created(c.merges ? id + 1 : id + 2))
    }

    @Test func fieldsMergeByConfidenceWithTheHistoryOfWhichScanGaveWhat() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let book = try ContactBook(path: dir.appendingPathComponent("book.sqlite").path)
        try book.add(Self.contact(name: "Ana Ruiz", email: "ana@ruiz.es", title: "Gerente", confidence: 0.5), source: "front.jpg")
        var back = Self.contact(name: "Ana Ruiz", email: "ana@ruiz.es", e164: "+34988158157", title: "Directora", confidence: 0.9)
        back.urls = ["ruiz.es"]
        back.confidence[.urls] = 0.7
        #expect(try book.add(back, source: "back.jpg", text: "Ana Ruiz\nDirectora") == .merged(into: 1))
        let stored = try book.contact(id: 1)
        #expect(stored.contact.title == "Directora")
        #expect(stored.contact.confidence[.title] == 0.9)
        #expect(stored.contact.phones.map(\.e164) == ["+34988158157"])
        #expect(stored.contact.emails == ["ana@ruiz.es"])
        #expect(stored.contact.urls == ["ruiz.es"])
        #expect(stored.scans.map(\.source) == ["front.jpg", "back.jpg"])
        #expect(stored.scans[0].fields[.title] == 0.5)
        #expect(stored.scans[1].fields[.phones] == 0.9)
        #expect(stored.scans[0].text == nil)
        #expect(stored.scans[1].text == "Ana Ruiz\nDirectora")
        // A later, less sure reading does not replace a surer one.
        try book.add(Self.contact(name: "Ana Ruiz", email: "ana@ruiz.es", title: "Gerenta", confidence: 0.3), source: "third.jpg")
        #expect(try book.contact(id: 1).contact.title == "Directora")
    }

    @Test func deleteAndPurgeLeaveNoTraceInTheFilesBytes() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("book.sqlite").path
        let book = try ContactBook(path: path)
        let secret = "Zebulon Quartermaine", secretMail = "zq@very-secret.example"
        try book.add(Self.contact(name: secret, email: secretMail), source: "secret.jpg", text: "\(secret) text")
        for i in 0..<50 { try book.add(Self.contact(name: "Person \(i)", email: "p\(i)@example.com"), source: "p\(i).jpg") }
        func traces() throws -> Bool {
            let files = try FileManager.default.contentsOfDirectory(atPath: dir.path)
            for file in files {
                let bytes = try Data(contentsOf: dir.appendingPathComponent(file))
                for needle in [secret, secretMail, "secret.jpg"] where bytes.range(of: Data(needle.utf8)) != nil { return true }
            }
            return false
        }
        #expect(try traces())
        #expect(try book.delete(ids: [1]) == [1])
        #expect(try !traces(), "deleted values are still in the file")
        #expect(try book.list().count == 50)
        #expect(try book.purge() == 50)
        #expect(try book.list().isEmpty)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        #expect(size < 64 * 1024, "purge compacts the file (\(size) bytes)")
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func aBookOfTheFirstVersionIsMigratedAndItsContactsStillMatch() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("v1.sqlite").path
        do {
            // A book as version 1 wrote it: no match keys yet.
            let queue = try DatabaseQueue(path: path)
            try Schema.migrator.migrate(queue, upTo: "v1")
            let merged = Store.encode(Self.contact(name: "Ana Ruiz", email: "ana@ruiz.es"))
            try queue.write { db in
                try db.execute(sql: "INSERT INTO contact (id, created, updated, merged) VALUES (1, 0, 0, ?)", arguments: [merged])
                try db.execute(sql: "INSERT INTO scan (id, contactId, source, scanned) VALUES (1, 1, 'old.jpg', 0)")
            }
            #expect(try queue.read { try $0.tableExists("matchKey") } == false)
        }
        let book = try ContactBook(path: path)
        #expect(try book.list().map(\.contact.name?.full) == ["Ana Ruiz"])
        #expect(try book.add(Self.contact(name: "Ana Ruiz", email: "ana@ruiz.es"), source: "new.jpg") == .merged(into: 1))
    }

    /// Books written before the contact's JSON came from CardFormats held each value in
    /// Foundation's encoding (keys sorted, nil members left out, the region as its code alone).
    @Test func valuesStoredInTheEarlierJSONFormAreReadAndMergeWithNewOnes() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("v3.sqlite").path
        let name = #"{"family":"Ruiz","full":"Ana Ruiz","given":"Ana"}"#
        let phones = #"[{"e164":"+34988158157","number":"988 15 81 57","type":"work","valid":true},{"number":"15 81 57","type":"fax","valid":false}]"#
        let address = #"{"city":"Ourense","lines":["Rúa do Paseo 1","32003 Ourense"],"postalCode":"32003"}"#
        let merged = #"{"address":\#(address),"confidence":{"name":0.9,"phones":0.7},"emails":[],"name":\#(name),"#
            + #""phones":\#(phones),"region":"ES","urls":[]}"#
        do {
            let queue = try DatabaseQueue(path: path)
            try Schema.migrator.migrate(queue)
            try queue.write { db in
                try db.execute(sql: "INSERT INTO contact (id, created, updated, merged) VALUES (1, 0, 0, ?)", arguments: [merged])
                try db.execute(sql: "INSERT INTO scan (id, contactId, source, scanned) VALUES (1, 1, 'old.jpg', 0)")
                for (field, value, confidence) in [("name", name, 0.9), ("phones", phones, 0.7), ("address", address, 0.6)] {
                    try db.execute(sql: "INSERT INTO fieldValue (contactId, scanId, field, value, confidence) VALUES (1, 1, ?, ?, ?)",
                                   arguments: [field, value, confidence])
                }
                try db.execute(sql: "INSERT INTO matchKey (contactId, kind, key) VALUES (1, 'phone', '+34988158157')")
            }
        }
        let book = try ContactBook(path: path)
        let old = try #require(book.list().first).contact
        #expect(old.name == PersonName(full: "Ana Ruiz", given: "Ana", family: "Ruiz"))
        #expect(old.phones == [Phone(type: .work, number: "988 15 81 57", e164: "+34988158157"),
                               Phone(type: .fax, number: "15 81 57", e164: nil, valid: false)])
        #expect(old.address == PostalAddress(lines: ["Rúa do Paseo 1", "32003 Ourense"], city: "Ourense", postalCode: "32003"))
        #expect(old.region?.code == "ES")
        #expect(old.confidence == [.name: 0.9, .phones: 0.7])
        // A new scan of the same number merges: the old values and the new one, read together.
        var next = Self.contact(email: "ana@ruiz.es", e164: "+34988158157")
        next.title = "Gerente"
        #expect(try book.add(next, source: "new.jpg") == .merged(into: 1))
        let now = try book.contact(id: 1).contact
        #expect(now.name?.full == "Ana Ruiz" && now.title == "Gerente" && now.emails == ["ana@ruiz.es"])
        #expect(now.phones.compactMap(\.e164) == ["+34988158157"] && now.phones.map(\.type) == [.work, .fax])
        #expect(now.address?.city == "Ourense")
    }

    @Test func aFileThatIsNotABookIsRefusedAndLeftAlone() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("notes.txt")
        try Data("my notes, not a database".utf8).write(to: path)
        #expect(throws: ContactBookError.self) { try ContactBook(path: path.path) }
        #expect(try String(contentsOf: path, encoding: .utf8) == "my notes, not a database")
    }
}
