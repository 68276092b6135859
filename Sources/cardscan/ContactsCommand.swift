import CardFormats
import ArgumentParser
import CardScan
import ContactBook
import FileAccess
import Foundation

/// `cardscan contacts`: the local contact book that `scan --db FILE` fills.
struct ContactsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contacts",
        abstract: "List, show, export and delete the contacts `scan --db FILE` stored on this device.",
        subcommands: [List.self, Show.self, Export.self, Delete.self, Purge.self])

    struct BookOption: ParsableArguments {
        @Option(name: .long, help: "The contact book (an SQLite file written by scan --db).")
        var db: String

        /// Opens an existing book (these commands never create one).
        func open() throws -> ContactBook {
            guard FileManager.default.fileExists(atPath: db) else {
                Diagnostics.error("\(DisplayText.escaping(db)): no such contact book (scan --db \(DisplayText.escaping(db)) creates it)")
                throw ExitCode(2)
            }
            do {
                return try ContactBook(path: db)
            } catch {
                Diagnostics.error(error.message)
                throw ExitCode(2)
            }
        }
    }

    static func record(_ stored: StoredContact) -> ScanRecord {
        ScanRecord.scanned("contact-\(stored.id)", stored.contact)
    }

    static func fail(_ error: ContactBookError) -> ExitCode {
        Diagnostics.error(error.message)
        return ExitCode(error.code == .notFound ? 1 : 2)
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "One line per contact: id, name, organisation, e-mail, scans.")
        @OptionGroup var book: BookOption
        @Flag(name: .long, help: "One JSON object per contact (JSON Lines).") var json = false

        func run() throws {
            let contacts: [StoredContact]
            do { contacts = try book.open().list() } catch let error as ContactBookError { throw ContactsCommand.fail(error) }
            var out = ""
            for c in contacts {
                if json {
                    out += JSONValue.object([("id", .integer(Int(c.id))), ("contact", c.contact.json())]).serialized() + "\n"
                } else {
                    let fields = [c.contact.name?.full, c.contact.organization, c.contact.emails.first].map { $0 ?? "-" }
                    out += "\(c.id)\t" + fields.joined(separator: "\t") + "\n"
                }
            }
            RecordWriter.emit(out)
            if !json { Diagnostics.info("\(contacts.count) contact\(contacts.count == 1 ? "" : "s") in \(book.db)") }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "One contact as JSON, with the scans it was merged from.")
        @OptionGroup var book: BookOption
        @Argument(help: "The contact's id (contacts list shows it).") var id: Int64

        func run() throws {
            let c: StoredContact
            do { c = try book.open().contact(id: id) } catch let error as ContactBookError { throw ContactsCommand.fail(error) }
            let dates = ISO8601DateFormatter()
            let scans: [JSONValue] = c.scans.map { s in
                .object([("source", .string(s.source)), ("scanned", .string(dates.string(from: s.scanned))),
                         ("fields", .object(s.fields.sorted { $0.key < $1.key }.map { ($0.key.rawValue, JSONValue.rounded($0.value, places: 2)) })),
                         ("text", .optional(s.text))])
            }
            let value = JSONValue.object([("id", .integer(Int(c.id))), ("contact", c.contact.json()),
                                          ("confidence", .object(c.contact.confidence.sorted { $0.key < $1.key }.map { ($0.key.rawValue, JSONValue.rounded($0.value, places: 2)) })),
                                          ("scans", .array(scans))])
            RecordWriter.emit(value.serialized() + "\n")
        }
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Every contact as vCard, CSV or JSON Lines.")
        @OptionGroup var book: BookOption
        @Option(name: .long, help: "vcard, csv or jsonl.") var format: ExportFormat = .vcard
        @Option(name: [.short, .customLong("output")], help: "Write to this file (atomically; never over a file that is not cardscan's export in this format).")
        var output: String?

        func run() throws {
            let contacts: [StoredContact]
            do { contacts = try book.open().list() } catch let error as ContactBookError { throw ContactsCommand.fail(error) }
            var exporter = RecordExporter(format: format)
            let text = exporter.header() + contacts.map { exporter.text(for: ContactsCommand.record($0)) }.joined() + exporter.footer()
            if let output, output != "-" {
                do {
                    let path = try OutputTarget.check(output, format: format, inputs: [], resume: false, force: false,
                                                      replacesExports: true)
                    var claims = OutputClaims()
                    try claims.claim("--db", OutputClaims.book(RawArguments.path(book.db)))
                    try claims.claim("-o", [path])
                    try AtomicFile.write(Array(text.utf8), to: path, mode: 0o600)
                } catch {
                    Diagnostics.error(error.description)
                    throw ExitCode(1)
                }
            } else {
                RecordWriter.emit(text)
            }
            Diagnostics.info("exported \(contacts.count) contact\(contacts.count == 1 ? "" : "s") as \(format.rawValue)")
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Deletes contacts for good: their values are overwritten in the file.")
        @OptionGroup var book: BookOption
        @Argument(help: "The ids of the contacts to delete.") var ids: [Int64]

        func run() throws {
            let deleted: [Int64]
            do { deleted = try book.open().delete(ids: ids) } catch let error as ContactBookError { throw ContactsCommand.fail(error) }
            let missing = ids.filter { !deleted.contains($0) }
            RecordWriter.emit("deleted \(deleted.count) contact\(deleted.count == 1 ? "" : "s")" + (deleted.isEmpty ? "" : ": " + deleted.map(String.init).joined(separator: " ")) + "\n")
            if !missing.isEmpty {
                Diagnostics.error("no contact " + missing.map(String.init).joined(separator: " ") + " in \(book.db)")
                throw ExitCode(1)
            }
        }
    }

    struct Purge: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Deletes every contact and compacts the file (VACUUM): nothing of them is left in it.")
        @OptionGroup var book: BookOption

        func run() throws {
            let count: Int
            do { count = try book.open().purge() } catch let error as ContactBookError { throw ContactsCommand.fail(error) }
            RecordWriter.emit("purged \(count) contact\(count == 1 ? "" : "s"); \(book.db) holds none and was compacted\n")
        }
    }
}
