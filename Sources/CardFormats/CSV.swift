import ContactParser

/// CSV as RFC 4180 describes it: CRLF line ends, fields with commas, quotes or line breaks
/// quoted, quotes doubled; UTF-8 without a byte-order mark.
public enum CSV {
    /// One line of fields.
    public static func line(_ fields: [String]) -> String { fields.map(field).joined(separator: ",") + "\r\n" }

    /// One field, quoted when needed. A field a spreadsheet could run as a formula (starting with
    /// =, +, -, @, a tab or a carriage return: OWASP's rule for CSV injection) gets a leading
    /// apostrophe, except phone numbers in their E.164 form ("+4930123456", several joined by
    /// "; "), which a spreadsheet cannot run and an address book must read as they are.
    public static func field(_ value: String) -> String {
        var v = value
        if let first = v.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first), !isE164List(v) {
            v = "'" + v
        }
        if v.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) {
            return "\"" + v.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        return v
    }

    /// True for "+" and 2 to 15 digits, or several of them joined by "; " or " ::: ".
    static func isE164List(_ value: String) -> Bool {
        value.replacingOccurrences(of: " ::: ", with: "; ").components(separatedBy: "; ").allSatisfy { number in
            let digits = number.utf8.dropFirst()
            return number.hasPrefix("+") && (2...15).contains(digits.count) && digits.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
                && digits.first != 0x30
        }
    }
}

/// The columns of cardscan's own CSV (`--format csv`): one row per record, errors included.
public enum RecordCSV {
    public static let columns = [
        "source", "status", "error", "name", "given", "family", "title", "organization", "phone_work",
        "phone_mobile", "phone_fax", "phone_other", "email", "url", "street", "city", "region", "postal_code",
        "country", "address",
    ]

    public static var header: String { columns.joined(separator: ",") + "\r\n" }

    /// The row of one record: where it came from, its status and error code, and its contact.
    public static func row(source: String, status: String, error: String?, contact c: Contact?) -> String {
        func phones(_ type: PhoneType) -> String {
            (c?.phones ?? []).filter { $0.type == type }.map { $0.e164 ?? $0.number }.joined(separator: "; ")
        }
        let a = c?.address
        let country = c.map { CountryNames.exportCountry($0).name ?? "" } ?? ""
        let fields: [String] = [
            source, status, error ?? "",
            c?.name?.full ?? "", c?.name?.given ?? "", c?.name?.family ?? "", c?.title ?? "", c?.organization ?? "",
            phones(.work), phones(.mobile), phones(.fax), phones(.other),
            (c?.emails ?? []).joined(separator: "; "), (c?.urls ?? []).joined(separator: "; "),
            a?.street ?? "", a?.city ?? "", a?.region ?? "", a?.postalCode ?? "", country,
            (a?.lines ?? []).joined(separator: "; "),
        ]
        return CSV.line(fields)
    }
}
