import CardScan
import FileAccess
import Foundation

/// What `scan` prints on a terminal: one line per photo (file, name, organisation, first phone,
/// first e-mail, status) under a header, and a summary line. Piped, or with --format, records.
struct ScanTable {
    static let widths = [28, 22, 22, 16, 28]
    private(set) var ok = 0, noCard = 0, failed = 0

    var header: String { Self.line(["FILE", "NAME", "ORGANIZATION", "PHONE", "E-MAIL", "STATUS"]) }

    mutating func row(_ record: ScanRecord) -> String {
        switch record.status {
        case .ok: ok += 1
        case .noCard: noCard += 1
        case .error: failed += 1
        }
        let c = record.contact
        let status = record.error.map { "error: " + $0.code.rawValue } ?? record.status.rawValue
        return Self.line([(record.source as NSString).lastPathComponent, c?.name?.full ?? "-", c?.organization ?? "-",
                          c?.phones.first.map { $0.e164 ?? $0.number } ?? "-", c?.emails.first ?? "-", status])
    }

    var summary: String {
        let total = ok + noCard + failed
        return "\(total) photo\(total == 1 ? "" : "s"): \(ok) read, \(noCard) without a card, \(failed) failed\n"
    }

    /// Columns padded or cut to their widths (by characters), the last one as it is; control
    /// characters a file name may hold are shown escaped.
    static func line(_ cells: [String]) -> String {
        var out = ""
        for (i, cell) in cells.enumerated() {
            let text = DisplayText.escaping(cell)
            guard i < widths.count else { out += text; break }
            let w = widths[i]
            out += text.count > w ? String(text.prefix(w - 1)) + "…" : text + String(repeating: " ", count: w - text.count)
            out += "  "
        }
        return out + "\n"
    }
}
