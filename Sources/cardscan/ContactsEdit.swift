import ArgumentParser
import CardFormats
import ContactBook
import ContactParser
import FileAccess
import Foundation

/// The fields `contacts edit --remove-field` names.
extension Contact.Field: ExpressibleByArgument {}

extension ContactsCommand {
    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Corrects a contact: sets fields (field=value) or removes them; a later scan does not overwrite a correction.",
            discussion: """
                Fields: name, given, family, title, organization, phone (work), mobile, fax, other, email, url, \
                street, city, region, postal-code, country. Several phone/email/url values replace the whole list: \
                `contacts edit 7 mobile=+491511234567 email=a@b.de email=c@d.de`. The correction is kept in the \
                contact's history (contacts show).
                """)
        @OptionGroup var book: BookOption
        @Argument(help: "The contact's id (contacts list shows it).") var id: Int64
        @Argument(help: "field=value pairs.") var assignments: [String] = []
        @Option(name: .long, help: "Remove a field: name, title, organization, phones, emails, urls or address (repeatable).")
        var removeField: [Contact.Field] = []

        func validate() throws {
            if assignments.isEmpty && removeField.isEmpty { throw ValidationError("name at least one field=value or --remove-field FIELD") }
            for a in assignments {
                guard let eq = a.firstIndex(of: "="), EditPlan.keys.contains(String(a[..<eq]).lowercased()) else {
                    throw ValidationError("'\(a.split(separator: "=").first ?? "")' is not a field; use \(EditPlan.keys.sorted().joined(separator: ", "))")
                }
            }
        }

        func run() throws {
            let opened = try book.open()
            do {
                let current = try opened.contact(id: id).contact
                let correction = try EditPlan.correction(assignments, removing: Set(removeField), current: current)
                try opened.correct(id: id, correction)
                let set = correction.set.map(\.rawValue).sorted(), removed = correction.remove.map(\.rawValue).sorted()
                RecordWriter.emit("contact \(id): " + [set.isEmpty ? nil : "set " + set.joined(separator: ", "),
                                                       removed.isEmpty ? nil : "removed " + removed.joined(separator: ", ")]
                    .compactMap { $0 }.joined(separator: "; ") + "\n")
            } catch let error as ContactBookError {
                throw ContactsCommand.fail(error)
            } catch let error as ValidationError {
                Diagnostics.error(error.message)
                throw ExitCode(2)
            }
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Reads a vCard file (2.1, 3.0 or 4.0) into the book.",
            discussion: """
                A card whose UID is one of this book's (an export of it, corrected in an address book) corrects \
                that contact: the fields it changed are set, those it dropped removed. Any other card is added \
                like a scan, merged into a contact it matches.
                """)
        @OptionGroup var book: BookOption
        @Argument(help: "The vCard file.") var file: String
        @Option(name: .long, help: "The country (ISO 3166 code) national numbers are read in, for cards that name none.")
        var region: String?

        static let maxBytes = 64 << 20

        func run() throws {
            let opened = try book.open()
            let entries = try read()
            var tally: [String: Int] = [:]
            do {
                let bookID = try opened.bookID()
                let stored = try opened.list()
                let ids = Dictionary(stored.map { (ContactBook.uid(bookID: bookID, id: $0.id), $0) }, uniquingKeysWith: { a, _ in a })
                for entry in entries {
                    tally[try apply(entry, book: opened, ids: ids), default: 0] += 1
                }
            } catch {
                throw ContactsCommand.fail(error)
            }
            let parts = ["added", "merged", "corrected", "unchanged", "skipped"].compactMap { k in tally[k].map { "\($0) \(k)" } }
            RecordWriter.emit("imported \(ContactsCommand.plural(entries.count, "card")) from \(DisplayText.escaping(file))"
                              + (parts.isEmpty ? "" : ": " + parts.joined(separator: ", ")) + "\n")
        }

        /// The cards of the file; exits 1 with a message naming the file when it cannot be read.
        func read() throws -> [VCard.Entry] {
            let path = RawArguments.path(file)
            do {
                let bytes = try SystemFile.readRegularFile(path, maxBytes: Self.maxBytes)
                guard let text = String(validating: bytes, as: UTF8.self) else {
                    throw FormatError(.invalidText, "is not UTF-8 text")
                }
                return try VCard.entries(in: text, region: region?.uppercased())
            } catch let error as FileError {
                Diagnostics.error(error.description)
            } catch let error as FormatError {
                Diagnostics.error("\(path.display): \(error.message); nothing was imported")
            }
            throw ExitCode(1)
        }

        /// One card into the book: what came of it ("added", "merged", "corrected", "unchanged", "skipped").
        func apply(_ entry: VCard.Entry, book: ContactBook, ids: [String: StoredContact]) throws(ContactBookError) -> String {
            let source = "import " + (file as NSString).lastPathComponent
            if let uid = entry.uid, let known = ids[uid] {
                let changed = ContactValues.differing(known.contact, entry.contact)
                guard !changed.isEmpty else { return "unchanged" }
                let present = changed.filter { ContactValues.of(entry.contact)[$0] != nil }
                try book.correct(id: known.id, Correction(set: present, remove: changed.subtracting(present), values: entry.contact),
                                 source: source)
                return "corrected"
            }
            guard VCardWriter.displayName(entry.contact) != nil else { return "skipped" }
            switch try book.add(entry.contact, source: source, kind: .import) {
            case .created: return "added"
            case .merged, .alreadyStored: return "merged"
            }
        }
    }
}

/// `contacts edit`'s field=value pairs as a correction of the contact.
enum EditPlan {
    static let keys: Set<String> = ["name", "given", "family", "title", "organization", "phone", "work", "mobile", "fax", "other",
                                    "email", "url", "street", "city", "region", "postal-code", "country"]

    /// - Throws: `ValidationError` for a value that cannot be the field's (an e-mail address without "@").
    static func correction(_ assignments: [String], removing: Set<Contact.Field>, current: Contact) throws -> Correction {
        var values = current
        var set = Set<Contact.Field>()
        var phones: [Phone] = [], emails: [String] = [], urls: [String] = []
        let region = current.region?.code
        for assignment in assignments {
            guard let eq = assignment.firstIndex(of: "=") else { continue }
            let key = assignment[..<eq].lowercased(), value = String(assignment[assignment.index(after: eq)...]).trimmingCharacters(in: .whitespaces)
            switch key {
            case "phone", "work", "mobile", "fax", "other":
                let types: Set<String> = key == "mobile" ? ["cell"] : key == "fax" ? ["fax"] : key == "other" ? ["other"] : ["work"]
                phones.append(ContactBuilder.phone(value, types: types, region: region))
                set.insert(.phones)
            case "email":
                guard EmailAddress(value) != nil else { throw ValidationError("email=: the value is not an e-mail address") }
                emails.append(value)
                set.insert(.emails)
            case "url":
                urls.append(value)
                set.insert(.urls)
            default:
                try assign(key, value, to: &values, set: &set)
            }
        }
        if set.contains(.phones) { values.phones = phones }
        if set.contains(.emails) { values.emails = emails }
        if set.contains(.urls) { values.urls = urls }
        return Correction(set: set, remove: removing, values: values)
    }

    /// A single-valued field, or a part of the name or the address.
    static func assign(_ key: String, _ value: String, to c: inout Contact, set: inout Set<Contact.Field>) throws {
        let v: String? = value.isEmpty ? nil : value
        switch key {
        case "title": c.title = v; set.insert(.title)
        case "organization": c.organization = v; set.insert(.organization)
        case "name", "given", "family":
            var n = c.name ?? PersonName(full: "", given: nil, family: nil)
            if key == "name" { n.full = value } else if key == "given" { n.given = v } else { n.family = v }
            if key != "name", c.name == nil || n.full.isEmpty { n.full = [n.given, n.family].compactMap { $0 }.joined(separator: " ") }
            c.name = n.full.isEmpty ? nil : n
            set.insert(.name)
        default:
            var a = c.address ?? PostalAddress(lines: [])
            switch key {
            case "street": a.street = v
            case "city": a.city = v
            case "region": a.region = v
            case "postal-code": a.postalCode = v
            default: a.country = v
            }
            a.lines = AddressComposer.address(street: a.street, extended: nil, city: a.city, region: a.region, postalCode: a.postalCode,
                                              country: a.country, regionCode: c.region?.code)?.lines ?? a.lines
            c.address = a
            set.insert(.address)
        }
    }
}
