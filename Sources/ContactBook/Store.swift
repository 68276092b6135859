import CardFormats
import ContactParser
import Foundation
import GRDB

/// The book's schema, one migration per version. A file of any earlier version is brought up to
/// date when it is opened.
enum Schema {
    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        // v1: contacts (the merged record), the scans merged into them, and each field's value per scan.
        m.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE contact (id INTEGER PRIMARY KEY AUTOINCREMENT, created REAL NOT NULL, updated REAL NOT NULL,
                                      merged TEXT NOT NULL);
                CREATE TABLE scan (id INTEGER PRIMARY KEY AUTOINCREMENT,
                                   contactId INTEGER NOT NULL REFERENCES contact(id) ON DELETE CASCADE,
                                   source TEXT NOT NULL, scanned REAL NOT NULL, text TEXT);
                CREATE INDEX scan_contact ON scan(contactId);
                CREATE TABLE fieldValue (id INTEGER PRIMARY KEY AUTOINCREMENT,
                                         contactId INTEGER NOT NULL REFERENCES contact(id) ON DELETE CASCADE,
                                         scanId INTEGER NOT NULL REFERENCES scan(id) ON DELETE CASCADE,
                                         field TEXT NOT NULL, value TEXT NOT NULL, confidence REAL NOT NULL);
                CREATE INDEX fieldValue_contact ON fieldValue(contactId);
                """)
        }
        // v2: the keys duplicates are found by (e-mail, E.164 number, name at organisation), indexed,
        // filled from the contacts already there.
        m.registerMigration("v2") { db in
            try db.execute(sql: """
                CREATE TABLE matchKey (contactId INTEGER NOT NULL REFERENCES contact(id) ON DELETE CASCADE,
                                       kind TEXT NOT NULL, key TEXT NOT NULL, PRIMARY KEY (kind, key, contactId)) WITHOUT ROWID;
                CREATE INDEX matchKey_contact ON matchKey(contactId);
                """)
            for row in try Row.fetchAll(db, sql: "SELECT id, merged FROM contact") {
                let id: Int64 = row["id"]
                let contact = try Store.decode(row["merged"] as String)
                try Store.insertKeys(Store.matchKeys(contact), contact: id, db: db)
            }
        }
        // v3: the book's own identifier (for the UIDs of its vCards); what each scan is (a scan, a
        // correction made with `contacts edit`, an import) and the SHA-256 of its photo (a rescan of
        // the same photo adds no second entry).
        m.registerMigration("v3") { db in
            try db.execute(sql: """
                CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
                ALTER TABLE scan ADD COLUMN kind TEXT NOT NULL DEFAULT 'scan';
                ALTER TABLE scan ADD COLUMN fingerprint TEXT;
                CREATE INDEX scan_fingerprint ON scan(fingerprint) WHERE fingerprint IS NOT NULL;
                """)
            try db.execute(sql: "INSERT INTO meta (key, value) VALUES ('bookID', ?)", arguments: [UUID().uuidString.lowercased()])
        }
        return m
    }
}

/// The book's reads and writes, inside the transactions `ContactBook` opens.
enum Store {
    /// The stored form of a whole contact (the `merged` column): the contact's JSON object
    /// (`Contact.json()`, CardFormats) with each field's confidence beside it.
    static func encode(_ c: Contact) -> String {
        guard case .object(var pairs) = c.json() else { return "{}" }
        pairs.append(("confidence", .object(Contact.Field.allCases.compactMap { f in c.confidence[f].map { (f.rawValue, .number($0)) } })))
        return JSONValue.object(pairs).serialized()
    }

    /// Reads the `merged` column. Books written before it held the contact's JSON object kept
    /// the same keys in another order and the region as its code alone: both read the same.
    static func decode(_ text: String) throws -> Contact {
        let value = try JSONValue.parse(text)
        var c = try Contact(json: value)
        if let r = value["region"]?.stringValue { c.region = RegionGuess(code: r, sources: ["book"]) }
        if case .object(let pairs)? = value["confidence"] {
            for (k, v) in pairs { if let f = Contact.Field(rawValue: k), let d = v.doubleValue { c.confidence[f] = d } }
        }
        return c
    }

    /// One stored value of a field (a `fieldValue` row) into `c`.
    static func read(_ text: String, _ field: Contact.Field) throws -> Contact {
        var c = Contact()
        try c.set(field, json: try JSONValue.parse(text))
        return c
    }

    /// The keys a duplicate shares: e-mail addresses (lower case), E.164 numbers, and the name at
    /// the organisation (both folded: case, accents, punctuation).
    static func matchKeys(_ c: Contact) -> [(kind: String, key: String)] {
        var keys = c.emails.map { ("email", $0.lowercased()) } + c.phones.compactMap { p in p.e164.map { ("phone", $0) } }
        if let name = c.name?.full, let org = c.organization {
            let n = fold(name), o = fold(org)
            if !n.isEmpty, !o.isEmpty { keys.append(("name-org", n + "|" + o)) }
        }
        return keys
    }

    static func fold(_ s: String) -> String {
        s.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .components(separatedBy: CharacterSet.alphanumerics.inverted).filter { !$0.isEmpty }.joined(separator: " ")
    }

    static func insertKeys(_ keys: [(kind: String, key: String)], contact: Int64, db: Database) throws {
        for k in keys {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO matchKey (contactId, kind, key) VALUES (?, ?, ?)").execute(arguments: [contact, k.kind, k.key])
        }
    }

    static func add(_ contact: Contact, source: String, scanned: Date, text: String?, merge: Bool, kind: ScanKind = .scan,
                    fingerprint: String? = nil, db: Database) throws -> AddOutcome {
        if let fingerprint,
           let known = try Int64.fetchOne(db, sql: "SELECT contactId FROM scan WHERE fingerprint = ? LIMIT 1", arguments: [fingerprint]) {
            return .alreadyStored(known)
        }
        let now = Date().timeIntervalSince1970
        var target: Int64?
        if merge {
            for k in matchKeys(contact) where target == nil {
                target = try Int64.fetchOne(db.cachedStatement(sql: "SELECT contactId FROM matchKey WHERE kind = ? AND key = ? ORDER BY contactId LIMIT 1"),
                                            arguments: [k.kind, k.key])
            }
        }
        let id: Int64
        if let target {
            id = target
        } else {
            try db.cachedStatement(sql: "INSERT INTO contact (created, updated, merged) VALUES (?, ?, '{}')").execute(arguments: [now, now])
            id = db.lastInsertedRowID
        }
        let scan = try insertScan(contact: id, source: source, scanned: scanned, text: text, kind: kind, fingerprint: fingerprint, db: db)
        for field in Contact.Field.allCases {
            guard let value = fieldValue(contact, field) else { continue }
            try insertValue(contact: id, scan: scan, field: field, value: value, confidence: contact.confidence[field] ?? 0.5, db: db)
        }
        // A new contact is the record itself; a merged one is made again of all its values.
        var merged = contact
        if target != nil { merged = try mergedContact(id, db: db, region: contact.region) }
        try db.cachedStatement(sql: "UPDATE contact SET merged = ?, updated = ? WHERE id = ?").execute(arguments: [encode(merged), now, id])
        try insertKeys(matchKeys(merged), contact: id, db: db)
        return target == nil ? .created(id) : .merged(into: id)
    }

    static func insertScan(contact: Int64, source: String, scanned: Date, text: String?, kind: ScanKind, fingerprint: String?,
                           db: Database) throws -> Int64 {
        try db.cachedStatement(sql: "INSERT INTO scan (contactId, source, scanned, text, kind, fingerprint) VALUES (?, ?, ?, ?, ?, ?)")
            .execute(arguments: [contact, source, scanned.timeIntervalSince1970, text, kind.rawValue, fingerprint])
        return db.lastInsertedRowID
    }

    static func insertValue(contact: Int64, scan: Int64, field: Contact.Field, value: String, confidence: Double, db: Database) throws {
        try db.cachedStatement(sql: "INSERT INTO fieldValue (contactId, scanId, field, value, confidence) VALUES (?, ?, ?, ?, ?)")
            .execute(arguments: [contact, scan, field.rawValue, value, confidence])
    }

    /// One field of `c` as JSON (`Contact.json(of:)`), nil when `c` has none.
    static func fieldValue(_ c: Contact, _ field: Contact.Field) -> String? {
        c.json(of: field)?.serialized()
    }
}

extension Store {
    /// The contact made of every value its scans gave: for each single field the value given with
    /// the most confidence (the latest on a tie); for lists, every distinct value, surest first.
    static func mergedContact(_ id: Int64, db: Database, region: RegionGuess?) throws -> Contact {
        var c = Contact()
        let corrected = try applyCorrections(id, to: &c, db: db)
        let rows = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT f.field, f.value, f.confidence FROM fieldValue f JOIN scan s ON s.id = f.scanId
            WHERE f.contactId = ? AND s.kind != 'correction' ORDER BY f.confidence DESC, f.id DESC
            """), arguments: [id])
        var seenPhones = Set<String>(), seenEmails = Set<String>(), seenURLs = Set<String>()
        for row in rows {
            guard let field = Contact.Field(rawValue: row["field"]), !corrected.contains(field) else { continue }
            let value = try read(row["value"], field)
            let confidence: Double = row["confidence"]
            let fresh = c.confidence[field] == nil
            switch field {
            case .name: if fresh { c.name = value.name }
            case .title: if fresh { c.title = value.title }
            case .organization: if fresh { c.organization = value.organization }
            case .address: if fresh { c.address = value.address }
            case .phones:
                for p in value.phones where seenPhones.insert(p.e164 ?? p.number.filter(\.isNumber)).inserted { c.phones.append(p) }
            case .emails:
                for e in value.emails where seenEmails.insert(e.lowercased()).inserted { c.emails.append(e) }
            case .urls:
                for u in value.urls where seenURLs.insert(u.lowercased()).inserted { c.urls.append(u) }
            }
            if fresh { c.confidence[field] = confidence }
        }
        if let region {
            c.region = region
        } else if let earlier = try String.fetchOne(db.cachedStatement(sql: "SELECT merged FROM contact WHERE id = ?"), arguments: [id]) {
            c.region = (try? decode(earlier))?.region
        }
        return c
    }

    /// The contacts (all, or the one with `id`), oldest first; with their scans when asked.
    static func contacts(db: Database, id: Int64?, withScans: Bool) throws -> [StoredContact] {
        let rows = id == nil
            ? try Row.fetchAll(db, sql: "SELECT id, created, updated, merged FROM contact ORDER BY id")
            : try Row.fetchAll(db, sql: "SELECT id, created, updated, merged FROM contact WHERE id = ?", arguments: [id])
        return try rows.map { row in
            let cid: Int64 = row["id"]
            var stored = StoredContact(id: cid, contact: try decode(row["merged"]), scans: [],
                                       created: Date(timeIntervalSince1970: row["created"]), updated: Date(timeIntervalSince1970: row["updated"]))
            if withScans { stored.scans = try scans(of: cid, db: db) }
            return stored
        }
    }

    static func scans(of contact: Int64, db: Database) throws -> [StoredScan] {
        var out: [StoredScan] = []
        for row in try Row.fetchAll(db, sql: "SELECT id, source, scanned, text, kind FROM scan WHERE contactId = ? ORDER BY id", arguments: [contact]) {
            let sid: Int64 = row["id"]
            var fields: [Contact.Field: Double] = [:]
            for f in try Row.fetchAll(db, sql: "SELECT field, confidence FROM fieldValue WHERE scanId = ?", arguments: [sid]) {
                if let field = Contact.Field(rawValue: f["field"]) { fields[field] = f["confidence"] }
            }
            out.append(StoredScan(id: sid, source: row["source"], scanned: Date(timeIntervalSince1970: row["scanned"]), text: row["text"],
                                  fields: fields, kind: ScanKind(rawValue: row["kind"]) ?? .scan))
        }
        return out
    }
}
