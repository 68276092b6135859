import CardFormats
import ContactParser
import Foundation

/// Output formats for scan records (and the book's contacts).
public enum ExportFormat: String, Sendable, CaseIterable {
    /// One JSON object per line (the documented schema).
    case jsonl
    /// One JSON array of the same objects.
    case json
    /// RFC 4180 CSV: a header row, one row per record (errors included), several values joined with "; ".
    case csv
    /// vCard 4.0 (RFC 6350), one card per contact.
    case vcard
    /// vCard 3.0 (RFC 2426), one card per contact: what most address books import best.
    case vcard3
    /// Google Contacts' CSV columns, one contact a row.
    case googleCSV = "google-csv"
    /// Outlook's CSV columns, one contact a row.
    case outlookCSV = "outlook-csv"

    /// True for the formats an address book imports: contacts only, no error rows, no empty contacts.
    public var holdsContactsOnly: Bool {
        switch self {
        case .jsonl, .json, .csv: return false
        case .vcard, .vcard3, .googleCSV, .outlookCSV: return true
        }
    }

    /// The address-book CSV layout of this format, if it is one.
    var addressBookCSV: AddressBookCSV? {
        switch self {
        case .googleCSV: return .google
        case .outlookCSV: return .outlook
        default: return nil
        }
    }
}

/// Turns records into text, piece by piece, so output can be written as records complete.
public struct RecordExporter: Sendable {
    public let format: ExportFormat
    private(set) var count = 0

    public init(format: ExportFormat) { self.format = format }

    /// Text before the first record.
    public func header() -> String {
        switch format {
        case .jsonl, .vcard, .vcard3: return ""
        case .json: return "["
        case .csv: return RecordCSV.header
        case .googleCSV, .outlookCSV: return format.addressBookCSV?.header ?? ""
        }
    }

    /// The text of one record (possibly empty: the address-book formats leave out records
    /// without a contact, and contacts with nothing to call them by).
    /// - Parameter uid: the vCard's UID (the book's, for its contacts); one made of the contact's fields when nil.
    public mutating func text(for record: ScanRecord, uid: String? = nil) -> String {
        defer { count += 1 }
        switch format {
        case .jsonl: return record.json().serialized() + "\n"
        case .json: return (count == 0 ? "\n" : ",\n") + record.json().serialized()
        case .csv:
            return RecordCSV.row(source: record.source, status: record.status.rawValue, error: record.error?.code.rawValue,
                                 contact: record.contact)
        case .vcard, .vcard3:
            guard let contact = record.usableContact else { return "" }
            return VCardWriter.card(contact, version: format == .vcard3 ? .v3 : .v4, uid: uid) ?? ""
        case .googleCSV, .outlookCSV:
            guard let contact = record.usableContact, let layout = format.addressBookCSV else { return "" }
            return layout.row(contact)
        }
    }

    /// True when `head` (the first bytes of an existing file) is output cardscan wrote in this
    /// format, so that -o may replace it: JSON records with "source" and "status", our CSV
    /// headers, or vCards with our PRODID. An empty file counts too.
    public static func recognises(_ head: [UInt8], format: ExportFormat) -> Bool {
        let text = String(decoding: head, as: UTF8.self)
        if text.allSatisfy(\.isWhitespace) { return true }
        switch format {
        case .jsonl:
            let first = text.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
            return first.hasPrefix("{\"source\":") && first.contains("\"status\":")
        case .json:
            let trimmed = text.drop { $0.isWhitespace }
            return trimmed.hasPrefix("[") && (trimmed.dropFirst().drop { $0.isWhitespace }.hasPrefix("{\"source\":")
                                              || trimmed.dropFirst().drop { $0.isWhitespace }.hasPrefix("]"))
        case .csv: return text.hasPrefix(RecordCSV.header)
        case .googleCSV, .outlookCSV: return format.addressBookCSV.map { text.hasPrefix(String($0.header.prefix(head.count))) } ?? false
        case .vcard, .vcard3: return text.hasPrefix("BEGIN:VCARD\r\n") && text.contains("\r\n" + VCardWriter.productID + "\r\n")
        }
    }

    /// Text after the last record.
    public func footer() -> String {
        switch format {
        case .json: return count == 0 ? "]\n" : "\n]\n"
        default: return ""
        }
    }
}

extension ScanRecord {
    /// The contact, when the record holds one an address book can use (something to call it by).
    public var usableContact: Contact? {
        guard let contact, VCardWriter.displayName(contact) != nil else { return nil }
        return contact
    }
}
