import CardFormats
import ContactParser
import Foundation
import GRDB

/// A contact in the book: the merged record and what it is made of.
public struct StoredContact: Sendable, Equatable {
    public let id: Int64
    public var contact: Contact
    /// The scans merged into it, oldest first.
    public var scans: [StoredScan]
    public let created: Date
    public var updated: Date
}

/// One scan merged into a contact: where it came from and when; its OCR text only with `keepText`.
public struct StoredScan: Sendable, Equatable {
    public let id: Int64
    public let source: String
    public let scanned: Date
    public let text: String?
    /// The fields this scan gave, with their confidence: the history of the merged values.
    public var fields: [Contact.Field: Double]
    /// A scan, a correction (`contacts edit`, an import of the book's own vCard) or an import.
    public var kind: ScanKind = .scan
}

/// What an entry of a contact's history is.
public enum ScanKind: String, Sendable {
    /// A photo read by `scan --db`.
    case scan
    /// Values a person set or removed (`contacts edit`, or a corrected vCard imported back): they
    /// win over every scan, earlier or later, until corrected again.
    case correction
    /// A contact read from a vCard file (`contacts import`) that is not one of the book's own.
    case `import`
}

/// What adding a record did.
public enum AddOutcome: Sendable, Equatable {
    case created(Int64)
    case merged(into: Int64)
    /// The photo (same SHA-256) is already in the contact's history: nothing was added.
    case alreadyStored(Int64)

    /// The contact the record went to.
    public var id: Int64 {
        switch self {
        case .created(let id), .merged(into: let id), .alreadyStored(let id): return id
        }
    }
}

/// Why the book could not do what was asked. Messages name the file, never a contact's values.
public struct ContactBookError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        case openFailed = "db-open-failed"
        case writeFailed = "db-write-failed"
        case readFailed = "db-read-failed"
        case notFound = "not-found"
        case notABook = "not-a-contact-book"
        /// SQLite's integrity check found damage (a page of junk, a broken index).
        case damaged = "db-damaged"
        /// A contact with no field (nothing to call it by) is never stored.
        case emptyContact = "empty-contact"
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}

/// The contacts scanned on this device, in a local SQLite file (GRDB, mode 0600): versioned migrations,
/// WAL journal (a reader lists while a scan writes), foreign keys, one transaction per record (a
/// batch killed mid-way leaves every finished record), and `secure_delete` (deleted values are
/// overwritten in the file, not only unlinked).
///
/// Records are merged into an existing contact when they share an e-mail address, an E.164
/// number, or the same normalised name at the same organisation; each field keeps the history of
/// which scan gave which value, and the merged value is the one given with the most confidence.
public final class ContactBook: Sendable {
    let pool: DatabasePool
    public let path: String

    /// How long a write waits for another process (a second `scan --db`, `contacts delete`) to
    /// let go of the book before it fails. Writes are IMMEDIATE transactions (GRDB's default for
    /// a pool's writes), so a wait never ends in a deadlock error.
    public static let lockWait: TimeInterval = 60

    /// Opens (creating when missing) the book at `path` and brings its schema up to date.
    /// - Throws: `ContactBookError` naming the file.
    public init(path: String) throws(ContactBookError) {
        self.path = path
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        // Two processes on one book take turns: "database is locked" refused a second scan --db
        // outright, or stopped it mid-batch, instead of waiting a few milliseconds.
        configuration.busyMode = .timeout(Self.lockWait)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA secure_delete = ON")

        }
        // A new book is created readable by its owner only (SQLite gives its journal the same mode).
        if !FileManager.default.fileExists(atPath: path) {
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard fd >= 0 else {
                throw ContactBookError(.openFailed, "\(path): cannot create it (\(String(cString: strerror(errno))))")
            }
            close(fd)
        }
        try Self.checkIntegrity(path: path)
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
        } catch {
            throw ContactBookError(.openFailed, "\(path): cannot open it as a contact book (\(Self.reason(error)))")
        }
        do {
            try Schema.migrator.migrate(pool)
        } catch {
            throw ContactBookError(.notABook, "\(path): is not a contact book cardscan can use (\(Self.reason(error)))")
        }
    }

    /// Refuses a damaged book before anything reads or writes it: otherwise a page of junk can be
    /// listed and scanned into with exit 0 while `PRAGMA integrity_check` fails. SQLite's messages name
    /// pages and indexes, never a stored value.
    /// Checked through a read-only connection of its own, before the pool opens the book (the
    /// pool writes when it sets the journal up).
    static func checkIntegrity(path: String) throws(ContactBookError) {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(lockWait)
        let findings: [String]
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            findings = try queue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check(3)") }
            try queue.close()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw ContactBookError(.openFailed, "\(path): cannot open it as a contact book (\(Self.reason(error)))")
        } catch {
            throw ContactBookError(.damaged, "\(path): is damaged and cannot be checked (\(Self.reason(error))); restore it from a backup")
        }
        guard findings != ["ok"] else { return }
        throw ContactBookError(.damaged, "\(path): is damaged (SQLite's integrity check: \(findings.joined(separator: "; "))); restore it from a backup, nothing was changed")
    }

    /// SQLite's own words for a failure (never a value: statements are prepared with arguments).
    static func reason(_ error: Error) -> String {
        if let e = error as? DatabaseError {
            if e.resultCode == .SQLITE_BUSY {
                return "another process kept the book locked for over \(Int(lockWait)) s; run again when it has finished"
            }
            return e.message ?? "SQLite error \(e.resultCode.rawValue)"
        }
        return "\(error)"
    }

    /// Adds a scanned contact: merged into the contact it matches (unless `merge` is false), else
    /// a new one. The source and scan time are stored; the OCR `text` only when given.
    /// `fingerprint` (the photo's SHA-256): a photo already stored adds nothing (`.alreadyStored`).
    /// - Throws: `ContactBookError` naming the file; `.emptyContact` for a contact with no field.
    @discardableResult
    public func add(_ contact: Contact, source: String, scanned: Date = Date(), text: String? = nil,
                    merge: Bool = true, kind: ScanKind = .scan, fingerprint: String? = nil) throws(ContactBookError) -> AddOutcome {
        guard VCardWriter.displayName(contact) != nil else {
            throw ContactBookError(.emptyContact, "\(path): the record of \(source) holds no contact field; an empty contact is not stored")
        }
        do {
            return try pool.write { db in
                try Store.add(contact, source: source, scanned: scanned, text: text, merge: merge, kind: kind, fingerprint: fingerprint, db: db)
            }
        } catch {
            throw ContactBookError(.writeFailed, "\(path): the record of \(source) could not be stored (\(Self.reason(error)))")
        }
    }

    /// Every contact, oldest first, without their scans' history.
    public func list() throws(ContactBookError) -> [StoredContact] {
        do {
            return try pool.read { db in try Store.contacts(db: db, id: nil, withScans: false) }
        } catch {
            throw ContactBookError(.readFailed, "\(path): cannot read the contacts (\(Self.reason(error)))")
        }
    }

    /// One contact with the scans that made it.
    public func contact(id: Int64) throws(ContactBookError) -> StoredContact {
        let found: [StoredContact]
        do {
            found = try pool.read { db in try Store.contacts(db: db, id: id, withScans: true) }
        } catch {
            throw ContactBookError(.readFailed, "\(path): cannot read contact \(id) (\(Self.reason(error)))")
        }
        guard let contact = found.first else { throw ContactBookError(.notFound, "\(path): there is no contact \(id)") }
        return contact
    }

    /// Deletes contacts for good: their scans and values go with them (foreign keys), the freed
    /// pages are overwritten (secure_delete) and the journal is emptied (a WAL checkpoint).
    /// - Returns: the ids that existed and were deleted.
    public func delete(ids: [Int64]) throws(ContactBookError) -> [Int64] {
        let deleted: [Int64]
        do {
            deleted = try pool.write { db -> [Int64] in
                var out: [Int64] = []
                for id in ids {
                    try db.execute(sql: "DELETE FROM contact WHERE id = ?", arguments: [id])
                    if db.changesCount > 0 { out.append(id) }
                }
                return out
            }
        } catch {
            throw ContactBookError(.writeFailed, "\(path): cannot delete (\(Self.reason(error)))")
        }
        try checkpoint()
        return deleted
    }

    /// Deletes every contact and compacts the file (VACUUM): nothing of them is left in it.
    /// - Returns: how many contacts there were.
    public func purge() throws(ContactBookError) -> Int {
        let count: Int
        do {
            count = try pool.write { db -> Int in
                let n = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM contact") ?? 0
                try db.execute(sql: "DELETE FROM contact")
                return n
            }
            try pool.vacuum()
        } catch {
            throw ContactBookError(.writeFailed, "\(path): cannot purge (\(Self.reason(error)))")
        }
        try checkpoint()
        return count
    }

    /// Copies the journal into the file and empties it, so no deleted value waits in the WAL.
    func checkpoint() throws(ContactBookError) {
        do {
            try pool.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
        } catch {
            throw ContactBookError(.writeFailed, "\(path): cannot checkpoint the journal (\(Self.reason(error)))")
        }
    }
}
