import CardFormats
import ContactParser
import Foundation
import GRDB

/// What a person changes in a contact (`contacts edit`, a corrected vCard imported back).
public struct Correction: Sendable, Equatable {
    /// The fields to set, as `values` holds them.
    public var set: Set<Contact.Field>
    /// The fields to remove.
    public var remove: Set<Contact.Field>
    /// The values of the fields in `set`.
    public var values: Contact

    public init(set: Set<Contact.Field>, remove: Set<Contact.Field>, values: Contact) {
        self.set = set
        self.remove = remove.subtracting(set)
        self.values = values
    }

    /// A correction that makes the contact `contact`: its fields set, every other field removed.
    public static func replacing(with contact: Contact) -> Correction {
        let present = Set(Contact.Field.allCases.filter { Store.fieldValue(contact, $0) != nil })
        return Correction(set: present, remove: Set(Contact.Field.allCases).subtracting(present), values: contact)
    }
}

extension ContactBook {
    /// Records a correction in the contact's history: the fields it sets or removes keep its
    /// values whatever a later scan reads, until corrected again.
    /// - Returns: the contact as it now is.
    /// - Throws: `ContactBookError` naming the file (`.notFound` for no such contact; `.emptyContact`
    ///   when the correction would leave nothing to call it by).
    @discardableResult
    public func correct(id: Int64, _ correction: Correction, source: String = "contacts edit",
                        at date: Date = Date()) throws(ContactBookError) -> Contact {
        let result: Contact?
        do {
            result = try pool.write { db -> Contact? in
                guard try Int64.fetchOne(db, sql: "SELECT id FROM contact WHERE id = ?", arguments: [id]) != nil else { return nil }
                let scan = try Store.insertScan(contact: id, source: source, scanned: date, text: nil, kind: .correction,
                                                fingerprint: nil, db: db)
                for field in Contact.Field.allCases where correction.set.contains(field) || correction.remove.contains(field) {
                    let value = correction.set.contains(field) ? Store.fieldValue(correction.values, field) ?? "null" : "null"
                    try Store.insertValue(contact: id, scan: scan, field: field, value: value, confidence: 1, db: db)
                }
                let merged = try Store.mergedContact(id, db: db, region: nil)
                guard VCardWriter.displayName(merged) != nil else { throw Store.EmptyContact() }
                try db.execute(sql: "UPDATE contact SET merged = ?, updated = ? WHERE id = ?",
                               arguments: [Store.encode(merged), Date().timeIntervalSince1970, id])
                try Store.insertKeys(Store.matchKeys(merged), contact: id, db: db)
                return merged
            }
        } catch is Store.EmptyContact {
            throw ContactBookError(.emptyContact, "\(path): the correction would leave contact \(id) with no field; nothing was changed")
        } catch {
            throw ContactBookError(.writeFailed, "\(path): cannot correct contact \(id) (\(Self.reason(error)))")
        }
        guard let result else { throw ContactBookError(.notFound, "\(path): there is no contact \(id)") }
        return result
    }

    /// The book's own identifier, made when the book was (a random UUID).
    public func bookID() throws(ContactBookError) -> String {
        do {
            return try pool.read { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'bookID'") } ?? ""
        } catch {
            throw ContactBookError(.readFailed, "\(path): cannot read the book's identifier (\(Self.reason(error)))")
        }
    }

    /// The vCard UID of contact `id` in the book `bookID`: the same contact, the same UID, export after export.
    public static func uid(bookID: String, id: Int64) -> String {
        "urn:uuid:" + nameBasedUUID("cardscan-book\u{1F}\(bookID)\u{1F}\(id)")
    }
}

extension Store {
    /// A correction would leave a contact empty.
    struct EmptyContact: Error {}

    /// Applies the latest correction of each field to `c`; returns the fields corrections decide.
    static func applyCorrections(_ id: Int64, to c: inout Contact, db: Database) throws -> Set<Contact.Field> {
        let rows = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT f.field, f.value FROM fieldValue f JOIN scan s ON s.id = f.scanId
            WHERE f.contactId = ? AND s.kind = 'correction' ORDER BY f.id DESC
            """), arguments: [id])
        var decided = Set<Contact.Field>()
        for row in rows {
            guard let field = Contact.Field(rawValue: row["field"]), decided.insert(field).inserted else { continue }
            let text: String = row["value"]
            guard text != "null" else { continue }
            try c.set(field, json: try JSONValue.parse(text))
            c.confidence[field] = 1
        }
        return decided
    }
}
