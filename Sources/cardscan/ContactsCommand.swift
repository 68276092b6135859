import ArgumentParser
import CardFormats
import CardScan
import ContactBook
import FileAccess
import Foundation

/// `cardscan contacts`: the local contact book that `scan --db FILE` fills.
struct ContactsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contacts",
        abstract: "List, show, edit, import, export and delete the contacts `scan --db FILE` stored on this device.",
        discussion: "--db FILE may come before or after the subcommand: `contacts --db book.sqlite list` is `contacts list --db book.sqlite`.",
        subcommands: [List.self, Show.self, Edit.self, Import.self, Export.self, Delete.self, Purge.self])

    /// The subcommands' names.
    static var subcommandNames: Set<String> { Set(configuration.subcommands.map { $0._commandName }) }

    /// `contacts --db FILE list` as `contacts list --db FILE`: the book may be named before the
    /// subcommand too. Anything else before the subcommand is left for the parser to refuse.
    static func reordered(_ arguments: [String]) -> [String] {
        guard arguments.first == "contacts" else { return arguments }
        var i = 1, moved: [String] = []
        while i < arguments.count, !subcommandNames.contains(arguments[i]) {
            if arguments[i] == "--db", i + 1 < arguments.count {
                moved += arguments[i...(i + 1)]
                i += 2
            } else if arguments[i].hasPrefix("--db=") {
                moved.append(arguments[i])
                i += 1
            } else {
                return arguments
            }
        }
        guard i < arguments.count, !moved.isEmpty else { return arguments }
        return ["contacts", arguments[i]] + moved + arguments[(i + 1)...]
    }

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

    /// The book's contacts and its identifier (for the UIDs), or the exit a failure means.
    static func contents(of book: ContactBook) throws -> (contacts: [StoredContact], bookID: String) {
        do {
            return (try book.list(), try book.bookID())
        } catch {
            throw fail(error)
        }
    }

    static func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "A header, then one line per contact (id, name, organisation, e-mail), then the count.")
        @OptionGroup var book: BookOption
        @Flag(name: .long, help: "One JSON object per contact (JSON Lines), nothing else.") var json = false

        func run() throws {
            let opened = try book.open()
            let (contacts, bookID) = try ContactsCommand.contents(of: opened)
            var out = json ? "" : "ID\tNAME\tORGANIZATION\tE-MAIL\n"
            for c in contacts {
                if json {
                    out += JSONValue.object([("id", .integer(Int(c.id))), ("uid", .string(ContactBook.uid(bookID: bookID, id: c.id))),
                                             ("contact", c.contact.json())]).serialized() + "\n"
                } else {
                    let fields = [c.contact.name?.full, c.contact.organization, c.contact.emails.first].map { $0 ?? "-" }
                    out += "\(c.id)\t" + fields.joined(separator: "\t") + "\n"
                }
            }
            if !json { out += "\(ContactsCommand.plural(contacts.count, "contact")) in \(DisplayText.escaping(book.db))\n" }
            RecordWriter.emit(out)
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "One contact as JSON, with the scans and corrections it was made of.")
        @OptionGroup var book: BookOption
        @Argument(help: "The contact's id (contacts list shows it).") var id: Int64

        func run() throws {
            let c: StoredContact
            do { c = try book.open().contact(id: id) } catch let error as ContactBookError { throw ContactsCommand.fail(error) }
            let dates = ISO8601DateFormatter()
            let scans: [JSONValue] = c.scans.map { s in
                .object([("source", .string(s.source)), ("kind", .string(s.kind.rawValue)), ("scanned", .string(dates.string(from: s.scanned))),
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
        static let configuration = CommandConfiguration(
            abstract: "Every contact as vCard (4.0 or 3.0), Google or Outlook CSV, CSV or JSON Lines.",
            discussion: "Each vCard carries a UID made of the book and the contact's id: the same contact exported again has the same UID, and `contacts import` of the file applies it to that contact.")
        @OptionGroup var book: BookOption
        @Option(name: .long, help: "vcard (4.0), vcard3, google-csv, outlook-csv, csv, jsonl or json.") var format: ExportFormat = .vcard
        @Option(name: [.short, .customLong("output")], help: "Write to this file (atomically; never over a file that is not cardscan's export in this format, unless --force).")
        var output: String?
        @Flag(name: .long, help: "Let -o replace an existing file that does not hold cardscan's export in this format.")
        var force = false

        func run() throws {
            let opened = try book.open()
            let (contacts, bookID) = try ContactsCommand.contents(of: opened)
            var exporter = RecordExporter(format: format)
            let text = exporter.header()
                + contacts.map { exporter.text(for: ContactsCommand.record($0), uid: ContactBook.uid(bookID: bookID, id: $0.id)) }.joined()
                + exporter.footer()
            let written = format.holdsContactsOnly ? contacts.filter { ContactsCommand.record($0).usableContact != nil }.count : contacts.count
            var place = "standard output"
            if let output, output != "-" {
                do {
                    // The book's own files first: --force never lets an export replace them.
                    var claims = OutputClaims()
                    try claims.claim("--db", OutputClaims.book(RawArguments.path(book.db)))
                    try claims.claim("-o", [RawArguments.path(output)])
                    let path = try OutputTarget.check(output, format: format, inputs: [], resume: false, force: force, replacesExports: true)
                    var resolved = OutputClaims()
                    try resolved.claim("--db", OutputClaims.book(RawArguments.path(book.db)))
                    try resolved.claim("-o", [path])
                    try AtomicFile.write(Array(text.utf8), to: path, mode: 0o600)
                    place = path.display
                } catch {
                    Diagnostics.error(error.description)
                    throw ExitCode(1)
                }
            } else {
                RecordWriter.emit(text)
            }
            Diagnostics.notice("exported \(ContactsCommand.plural(written, "contact")) as \(format.rawValue) to \(place)")
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
        static let configuration = CommandConfiguration(
            abstract: "Deletes every contact and compacts the file (VACUUM): nothing of them is left in it.",
            discussion: "On a terminal it asks first; --yes answers for scripts (without a terminal and without --yes it refuses).")
        @OptionGroup var book: BookOption
        @Flag(name: [.short, .long], help: "Do not ask: purge.") var yes = false

        func run() throws {
            let opened = try book.open()
            if !yes { try confirm(opened) }
            let count: Int
            do { count = try opened.purge() } catch { throw ContactsCommand.fail(error) }
            RecordWriter.emit("purged \(count) contact\(count == 1 ? "" : "s"); \(book.db) holds none and was compacted\n")
        }

        /// Asks on the terminal; refuses without one (a script says --yes).
        func confirm(_ opened: ContactBook) throws {
            guard isatty(STDIN_FILENO) == 1 else {
                Diagnostics.error("purge deletes every contact of \(DisplayText.escaping(book.db)); run it on a terminal to be asked, or add --yes")
                throw ExitCode(2)
            }
            let count: Int
            do { count = try opened.list().count } catch { throw ContactsCommand.fail(error) }
            let question = "Delete all \(ContactsCommand.plural(count, "contact")) of \(DisplayText.escaping(book.db)) for good? [y/N] "
            FileHandle.standardError.write(Data(question.utf8))
            let answer = (readLine() ?? "").lowercased().trimmingCharacters(in: .whitespaces)
            guard answer == "y" || answer == "yes" else {
                RecordWriter.emit("nothing was deleted\n")
                throw ExitCode(1)
            }
        }
    }
}
