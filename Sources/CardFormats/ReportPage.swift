import ContactParser
import Foundation

/// The review page of a batch: every card beside its record, in one self-contained HTML file.
///
/// Nothing is fetched: the style sheet is inline, the pictures are data: URIs, and a
/// Content-Security-Policy forbids everything else (no script at all). The page holds the cards'
/// text and pictures: write it only where the user asked (the CLI writes it mode 0600).
public enum ReportPage {
    /// A field below this confidence is marked for checking.
    public static let lowConfidence = 0.6
    /// Long side of the card pictures, in pixels.
    public static let pictureLongSide = 800
    /// The first line of every report (how `cardscan` recognises a file it may replace).
    public static let signature = "<!DOCTYPE html>\n<!-- cardscan report -->"

    /// What the batch came to, for the page's top.
    public struct Summary: Sendable {
        public var elapsed: Duration
        public init(elapsed: Duration) { self.elapsed = elapsed }
    }

    /// One card of the page: its record as the page shows it.
    public struct Card: Sendable {
        /// The input as the user named it.
        public var source: String
        /// Why there is no record (the scan error's code and message), nil when the card was read.
        public var error: Failure?
        /// True when the photo shows no card and no field was found.
        public var noCard = false
        public var contact: Contact?
        /// Where each field came from ("qr" or "ocr").
        public var sources: [Contact.Field: String] = [:]
        public var picture: CardPicture?
        /// The contact's id in the book, when the batch added it to one.
        public var bookID: Int64?
        /// How the card was found and read (outline, turn, photo size, codes, time), one phrase each;
        /// empty when the photo was never decoded.
        public var detection: [String] = []
        public var warnings: [String] = []

        public struct Failure: Sendable {
            public var code: String
            public var message: String
            public init(code: String, message: String) { self.code = code; self.message = message }
        }

        public init(source: String, error: Failure? = nil, contact: Contact? = nil) {
            self.source = source; self.error = error; self.contact = contact
        }
    }

    /// The page for `records`, worst first (errors, then the records with the least sure or the
    /// fewest fields), each with its card picture when the record carries one.
    public static func render(_ records: [Card], summary: Summary) -> String {
        let scores: [Double] = records.map(badness)
        let order: [Int] = records.indices.sorted { a, b in scores[a] != scores[b] ? scores[a] > scores[b] : a < b }
        let ordered: [Card] = order.map { records[$0] }
        var html = signature + "\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        html += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; style-src 'unsafe-inline'\">\n"
        html += "<meta name=\"referrer\" content=\"no-referrer\">\n<meta name=\"color-scheme\" content=\"light dark\">\n"
        html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        html += "<title>cardscan report: \(records.count) card\(records.count == 1 ? "" : "s")</title>\n<style>\(style)</style>\n</head>\n<body>\n"
        html += header(records, summary: summary)
        html += "<main>\n"
        for (i, record) in ordered.enumerated() { html += section(record, index: i + 1) }
        html += "</main>\n</body>\n</html>\n"
        return html
    }

    /// How badly a record reads (higher is worse): an error outranks everything; then the mean
    /// confidence of the seven fields, a missing field counting as 0.
    public static func badness(_ record: Card) -> Double {
        record.error == nil ? badness(of: record.contact) : 2
    }

    /// `badness(_:)` of a record whose contact is `contact` (nil: an error or no card).
    public static func badness(of contact: Contact?) -> Double {
        guard let contact else { return 2 }
        let total = Contact.Field.allCases.reduce(0.0) { $0 + (contact.confidence[$1] ?? 0) }
        return 1 - total / Double(Contact.Field.allCases.count)
    }

    static func header(_ records: [Card], summary: Summary) -> String {
        let ok = records.filter { $0.error == nil && !$0.noCard }.count
        let seconds = summary.elapsed / .seconds(1)
        var found: [Contact.Field: Int] = [:]
        for record in records {
            guard let contact = record.contact else { continue }
            for field in Contact.Field.allCases where contact.has(field) { found[field, default: 0] += 1 }
        }
        var html = "<header>\n<h1>cardscan report</h1>\n<p>Read on this device; nothing was sent anywhere. "
        html += "Cards are listed worst first: errors, then the least sure records. Fields under \(String(format: "%.2f", lowConfidence)) confidence are marked.</p>\n"
        html += "<table class=\"summary\">\n<caption>Summary</caption>\n<tbody>\n"
        let rows: [(String, String)] = [
            ("Cards", "\(records.count)"), ("Read", "\(ok)"), ("Errors", "\(records.count - ok)"),
            ("Time", String(format: "%.1f s", seconds)),
            ("Cards per second", seconds > 0 ? String(format: "%.2f", Double(records.count) / seconds) : "-"),
        ] + Contact.Field.allCases.map { ("Cards with \(label($0).lowercased())", "\(found[$0] ?? 0)") }
        for (name, value) in rows { html += "<tr><th scope=\"row\">\(escape(name))</th><td>\(escape(value))</td></tr>\n" }
        return html + "</tbody>\n</table>\n</header>\n"
    }

    static func section(_ record: Card, index: Int) -> String {
        let name = escape(record.source)
        var html = "<section class=\"card\" id=\"card-\(index)\" aria-labelledby=\"title-\(index)\">\n"
        html += "<h2 id=\"title-\(index)\">\(name)</h2>\n"
        if let error = record.error {
            html += "<p class=\"error\"><strong>Error (\(escape(error.code))):</strong> \(escape(error.message))</p>\n</section>\n"
            return html
        }
        if let id = record.bookID {
            html += "<p class=\"bookid\">Book ID \(id): <code>cardscan contacts edit \(id) field=value</code> corrects it.</p>\n"
        }
        if record.noCard {
            html += "<p class=\"error\"><strong>No card:</strong> no card and no contact field were found in this photo.</p>\n"
        }
        html += "<div class=\"body\">\n"
        if let picture = record.picture {
            html += "<img src=\"data:image/jpeg;base64,\(Data(picture.jpeg).base64EncodedString())\" width=\"\(picture.width)\" height=\"\(picture.height)\" "
            html += "alt=\"The straightened card of \(name)\">\n"
        } else {
            html += "<p class=\"nopicture\">No picture of this card.</p>\n"
        }
        if let contact = record.contact { html += fields(contact, sources: record.sources, name: name) }
        html += "</div>\n" + detection(record.detection)
        if !record.warnings.isEmpty {
            html += "<ul class=\"warnings\">" + record.warnings.map { "<li>\(escape($0))</li>" }.joined() + "</ul>\n"
        }
        return html + "</section>\n"
    }

    static func fields(_ contact: Contact, sources: [Contact.Field: String], name: String) -> String {
        var html = "<table class=\"fields\">\n<caption>Fields read from \(name)</caption>\n"
        html += "<thead><tr><th scope=\"col\">Field</th><th scope=\"col\">Value</th><th scope=\"col\">Confidence</th><th scope=\"col\">From</th></tr></thead>\n<tbody>\n"
        for field in Contact.Field.allCases {
            let values = contact.values(of: field)
            let confidence = contact.confidence[field]
            let low = values.isEmpty || (confidence ?? 0) < lowConfidence
            html += "<tr\(low ? " class=\"low\"" : "")><th scope=\"row\">\(label(field))</th>"
            html += "<td>" + (values.isEmpty ? "<span class=\"none\">not found</span>" : values.map(escape).joined(separator: "<br>")) + "</td>"
            html += "<td>\(confidence.map { String(format: "%.2f", $0) } ?? "-")\(low && !values.isEmpty ? " <span class=\"flag\">check</span>" : "")</td>"
            html += "<td>\(escape(sources[field] ?? "-"))</td></tr>\n"
        }
        return html + "</tbody>\n</table>\n"
    }

    static func detection(_ parts: [String]) -> String {
        parts.isEmpty ? "" : "<p class=\"detection\">\(escape(parts.joined(separator: "; ")))</p>\n"
    }

    static func label(_ field: Contact.Field) -> String {
        switch field {
        case .name: return "Name"
        case .title: return "Title"
        case .organization: return "Organisation"
        case .phones: return "Phones"
        case .emails: return "E-mail"
        case .urls: return "Web"
        case .address: return "Address"
        }
    }

    /// Text for HTML: & < > " ' escaped.
    static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        TextEscaping.append(s, to: &out, replacing: htmlEscapes)
        return out
    }

    static let htmlEscapes: [Unicode.Scalar: String] = ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"]

    static let style = """
        :root{color-scheme:light dark;--bg:#fff;--fg:#1b1b1f;--muted:#5c5f66;--line:#d5d7dc;--low:#fff3cd;--err:#fde2e1;--card:#f6f7f9}
        @media (prefers-color-scheme:dark){:root{--bg:#16171a;--fg:#e8e9ec;--muted:#a3a7b0;--line:#3a3d44;--low:#4a3b05;--err:#5c1f1c;--card:#1f2125}}
        body{font:15px/1.45 system-ui,sans-serif;background:var(--bg);color:var(--fg);margin:0 auto;max-width:1200px;padding:1rem}
        h1{font-size:1.5rem;margin:.2rem 0}h2{font-size:1.05rem;margin:0 0 .5rem;overflow-wrap:anywhere}
        table{border-collapse:collapse}th,td{border-bottom:1px solid var(--line);padding:.25rem .6rem;text-align:left;vertical-align:top}
        caption{text-align:left;font-weight:600;padding:.3rem 0;color:var(--muted)}
        .summary td{text-align:right}.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:1rem;margin:1rem 0;break-inside:avoid}
        .body{display:flex;flex-wrap:wrap;gap:1rem;align-items:flex-start}.body img{flex:0 1 420px;max-width:min(100%,420px);min-width:0;height:auto;border:1px solid var(--line)}
        .fields{flex:1 1 360px;min-width:0}.fields td{overflow-wrap:anywhere}tr.low{background:var(--low)}.flag{font-size:.8em;font-weight:600}.none{color:var(--muted);font-style:italic}
        .error{background:var(--err);padding:.5rem;border-radius:4px}.detection,.warnings{color:var(--muted);font-size:.9em;margin:.5rem 0 0}
        @media print{body{max-width:none;font-size:11pt}.card{border:1px solid #999;background:none}tr.low{background:#eee}.body img{max-width:45%}}
        """
}

/// A small picture of the straightened card, for the review page: a metadata-free JPEG.
public struct CardPicture: Sendable, Equatable {
    public let jpeg: [UInt8]
    public let width: Int
    public let height: Int

    public init(jpeg: [UInt8], width: Int, height: Int) {
        self.jpeg = jpeg; self.width = width; self.height = height
    }
}

extension Contact {
    /// A field's values as text lines, for the report (empty when the field was not found).
    func values(of field: Field) -> [String] {
        switch field {
        case .name: return name.map { [$0.full] } ?? []
        case .title: return title.map { [$0] } ?? []
        case .organization: return organization.map { [$0] } ?? []
        case .phones: return phones.map { p in "\(p.type.rawValue): \(p.e164 ?? p.number)" }
        case .emails: return emails
        case .urls: return urls
        case .address: return address?.lines ?? []
        }
    }
}
