import ContactParser
import Foundation

/// Output formats for scan records.
public enum ExportFormat: String, Sendable, CaseIterable {
    /// One JSON object per line (the documented schema).
    case jsonl
    /// One JSON array of the same objects.
    case json
    /// RFC 4180 CSV: a header row, one row per card, several values joined with "; ".
    case csv
    /// vCard 4.0 (RFC 6350), one card per scanned card; inputs that failed are left out.
    case vcard
}

/// Turns records into text, piece by piece, so output can be written as records complete.
public struct RecordExporter: Sendable {
    public let format: ExportFormat
    private(set) var count = 0

    public init(format: ExportFormat) { self.format = format }

    /// Text before the first record.
    public func header() -> String {
        switch format {
        case .jsonl, .vcard: return ""
        case .json: return "["
        case .csv: return CSVExport.header
        }
    }

    /// The text of one record (possibly empty: vCard leaves out failed inputs).
    public mutating func text(for record: ScanRecord) -> String {
        defer { count += 1 }
        switch format {
        case .jsonl: return record.json().serialized() + "\n"
        case .json: return (count == 0 ? "\n" : ",\n") + record.json().serialized()
        case .csv: return CSVExport.row(record)
        case .vcard: return record.contact.flatMap { VCardExport.card($0) } ?? ""
        }
    }

    /// True when `head` (the first bytes of an existing file) is output cardscan wrote in this
    /// format, so that -o may replace it: JSON records with "source" and "status", our CSV
    /// header, or vCards with our PRODID. An empty file counts too.
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
        case .csv: return text.hasPrefix(CSVExport.header)
        case .vcard: return text.hasPrefix("BEGIN:VCARD\r\n") && text.contains("\r\n" + VCardExport.productID + "\r\n")
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

/// CSV as RFC 4180 describes it: CRLF line ends, fields with commas, quotes or line breaks quoted,
/// quotes doubled.
public enum CSVExport {
    public static let columns = [
        "source", "status", "error", "name", "given", "family", "title", "organization", "phone_work",
        "phone_mobile", "phone_fax", "phone_other", "email", "url", "street", "city", "region", "postal_code",
        "country", "address",
    ]

    public static var header: String { columns.joined(separator: ",") + "\r\n" }

    public static func row(_ record: ScanRecord) -> String {
        let c = record.contact
        func phones(_ type: PhoneType) -> String {
            (c?.phones ?? []).filter { $0.type == type }.map { $0.e164 ?? $0.number }.joined(separator: "; ")
        }
        let a = c?.address
        let fields: [String] = [
            record.source, record.status.rawValue, record.error?.code.rawValue ?? "",
            c?.name?.full ?? "", c?.name?.given ?? "", c?.name?.family ?? "", c?.title ?? "", c?.organization ?? "",
            phones(.work), phones(.mobile), phones(.fax), phones(.other),
            (c?.emails ?? []).joined(separator: "; "), (c?.urls ?? []).joined(separator: "; "),
            a?.street ?? "", a?.city ?? "", a?.region ?? "", a?.postalCode ?? "", a?.country ?? "",
            (a?.lines ?? []).joined(separator: "; "),
        ]
        return fields.map(field).joined(separator: ",") + "\r\n"
    }

    /// One field, quoted when needed. A field a spreadsheet could run as a formula (starting
    /// with =, +, -, @, a tab or a carriage return: OWASP's rule for CSV injection) gets a leading
    /// apostrophe, numbers such as +49 30 ... included.
    static func field(_ value: String) -> String {
        var v = value
        if let first = v.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) {
            v = "'" + v
        }
        if v.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) {
            return "\"" + v.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        return v
    }
}

/// vCard 4.0 (RFC 6350): CRLF line ends, lines folded at 75 octets, text values escaped.
public enum VCardExport {
    /// Names the program that made a card (and lets -o recognise a file it may replace).
    public static let productID = "PRODID:-//cardscan//cardscan//EN"

    /// The vCard of a contact; nil when it holds nothing to call it by (no name, company,
    /// e-mail, web address or number), which an address book could not use.
    public static func card(_ contact: Contact) -> String? {
        guard let fn = contact.name?.full ?? contact.organization ?? contact.emails.first ?? contact.urls.first
                ?? contact.phones.first.map({ $0.e164 ?? $0.number }) else { return nil }
        var lines = ["BEGIN:VCARD", "VERSION:4.0", productID]
        lines.append("FN:" + escape(fn))
        if let name = contact.name {
            // N: family; given; additional; prefixes; suffixes
            // The reading printed beside a Japanese, Chinese or Korean name sorts it (SORT-AS), and,
            // in kana family name first as the name, fills Apple's phonetic fields.
            let sortAs = name.phonetic.map { ";SORT-AS=\"" + $0.filter { $0 != "\"" && !$0.isNewline } + "\"" } ?? ""
            lines.append("N" + sortAs + ":" + [name.family ?? "", name.given ?? "", "", "", ""].map(escape).joined(separator: ";"))
            if let parts = name.phonetic?.split(separator: " "), parts.count == 2, parts.allSatisfy({ $0.allSatisfy { !$0.isASCII } }) {
                lines += ["X-PHONETIC-LAST-NAME:" + escape(String(parts[0])), "X-PHONETIC-FIRST-NAME:" + escape(String(parts[1]))]
            }
        }
        if let org = contact.organization { lines.append("ORG:" + escape(org)) }
        if let title = contact.title { lines.append("TITLE:" + escape(title)) }
        for phone in contact.phones {
            let type: String
            switch phone.type {
            case .work: type = "work,voice"
            case .mobile: type = "cell,voice"
            case .fax: type = "work,fax"
            case .other: type = "voice"
            }
            if let e164 = phone.e164 {
                lines.append("TEL;VALUE=uri;TYPE=\"\(type)\":tel:\(e164)")
            } else {
                lines.append("TEL;VALUE=text;TYPE=\"\(type)\":" + escape(phone.number))
            }
        }
        for email in contact.emails { lines.append("EMAIL;TYPE=work:" + escape(email)) }
        for url in contact.urls {
            let uri = url.contains("://") ? url : "https://" + url
            lines.append("URL;TYPE=work:" + uri)
        }
        if let a = contact.address {
            // ADR: PO box; extended; street; locality; region; postal code; country
            let parts = ["", "", a.street ?? a.lines.first ?? "", a.city ?? "", a.region ?? "", a.postalCode ?? "", a.country ?? ""]
            lines.append("ADR;TYPE=work:" + parts.map(escape).joined(separator: ";"))
        }
        lines.append("END:VCARD")
        return lines.map(fold).joined(separator: "\r\n") + "\r\n"
    }

    /// Escapes a text value: backslash, comma, semicolon and line breaks.
    static func escape(_ s: String) -> String {
        var out = ""
        for ch in s {
            switch ch {
            case "\\": out += "\\\\"
            case ",": out += "\\,"
            case ";": out += "\\;"
            case "\n", "\r\n", "\r": out += "\\n"
            default: out.append(ch)
            }
        }
        return out
    }

    /// Folds a content line so no line exceeds 75 octets, never inside a UTF-8 sequence.
    static func fold(_ line: String) -> String {
        var result = ""
        var current = 0
        var limit = 75
        for scalar in line.unicodeScalars {
            let size = String(scalar).utf8.count
            if current + size > limit {
                result += "\r\n "
                current = 1
                limit = 75
            }
            result.unicodeScalars.append(scalar)
            current += size
        }
        return result
    }
}
