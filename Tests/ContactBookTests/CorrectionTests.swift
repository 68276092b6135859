import ContactParser
import Foundation
import GRDB
import Testing
@testable import ContactBook

/// Corrections, rescans, empty contacts, the book's identifier, and the same merge rules without a book.
@Suite struct CorrectionTests {
    typealias T = ContactBookTests

    @Test func aCorrectionWinsOverEveryLaterScanUntilCorrectedAgain() throws {
        let dir = try T.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let book = try ContactBook(path: dir.appendingPathComponent("book.sqlite").path)
        try book.add(T.contact(name: "Ana Ruiz", email: "ana@ruiz.es", title: "Gerente", confidence: 0.5), source: "front.jpg")
        var fixed = Contact()
        fixed.title = "Directora"
        try book.correct(id: 1, Correction(set: [.title], remove: [.emails], values: fixed))
        // A later, surer scan of the same person: merged by name? No: by e-mail, which the correction removed
        // from the contact but not from its match keys, so the scan still finds it.
        try book.add(T.contact(name: "Ana Ruiz", email: "ana@ruiz.es", title: "Gerenta", confidence: 0.99), source: "again.jpg")
        let stored = try book.contact(id: 1)
        #expect(stored.contact.title == "Directora")
        #expect(stored.contact.emails.isEmpty)
        #expect(stored.scans.map(\.kind) == [.scan, .correction, .scan])
        fixed.title = nil
        try book.correct(id: 1, Correction(set: [], remove: [.title], values: fixed))
        #expect(try book.contact(id: 1).contact.title == nil)
        #expect(throws: ContactBookError.self) { try book.correct(id: 42, Correction(set: [.title], remove: [], values: fixed)) }
    }

    @Test func aPhotoStoredOnceAndAnEmptyContactNever() throws {
        let dir = try T.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let book = try ContactBook(path: dir.appendingPathComponent("book.sqlite").path)
        let c = T.contact(name: "Bo Li", email: "bo@li.cn")
        #expect(try book.add(c, source: "a.jpg", fingerprint: "abc") == .created(1))
        #expect(try book.add(c, source: "copy-of-a.jpg", fingerprint: "abc") == .alreadyStored(1))
        #expect(try book.contact(id: 1).scans.count == 1)
        #expect(throws: ContactBookError.self) { try book.add(Contact(), source: "wall.jpg") }
        #expect(try book.list().count == 1)
    }

    @Test func theBookHasItsOwnIdentifierAndStableUIDs() throws {
        let dir = try T.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = try ContactBook(path: dir.appendingPathComponent("a.sqlite").path)
        let b = try ContactBook(path: dir.appendingPathComponent("b.sqlite").path)
        let idA = try a.bookID()
        let idB = try b.bookID()
        #expect(!idA.isEmpty && idA != idB)
        #expect(try ContactBook(path: dir.appendingPathComponent("a.sqlite").path).bookID() == idA)
        #expect(ContactBook.uid(bookID: idA, id: 1) == ContactBook.uid(bookID: idA, id: 1))
        #expect(ContactBook.uid(bookID: idA, id: 1) != ContactBook.uid(bookID: idA, id: 2))
    }

    /// `scan --merge` without a book: the same rules, the same merged values.
    @Test(arguments: ContactBookTests.mergeCases) func groupsMergeAsTheBookDoes(_ c: ContactBookTests.MergeCase) {
        var groups = ContactGroups()
        groups.add(c.first)
        groups.add(c.second)
        #expect(groups.merged.count == (c.merges ? 1 : 2))
        #expect(groups.count == 2)
    }

    @Test func groupsKeepTheSurestSingleValueAndEveryDistinctListValue() {
        var groups = ContactGroups()
        groups.add(T.contact(name: "Ana Ruiz", email: "ana@ruiz.es", title: "Gerente", confidence: 0.5))
        var back = T.contact(name: "Ana Ruiz", email: "ANA@ruiz.es", e164: "+34988158157", title: "Directora", confidence: 0.9)
        back.emails.append("ventas@ruiz.es")
        groups.add(back)
        let merged = groups.merged
        #expect(merged.count == 1)
        #expect(merged.first?.title == "Directora")
        #expect(merged.first?.emails == ["ANA@ruiz.es", "ventas@ruiz.es"])
        #expect(merged.first?.phones.map(\.e164) == ["+34988158157"])
    }
}
