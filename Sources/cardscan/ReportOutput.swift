import CardFormats
import CardScan
import ContactBook
import FileAccess
import Foundation

/// The records of the review page (--report), kept until the batch completes. At most
/// `maxPictures` keep their card picture (40-80 KB each): past that, the best-read records lose
/// theirs first, so the page shows the cards that need a look.
final class ReportCollector {
    let path: FilePathBytes
    static let maxPictures = 1000
    let maxPictures: Int
    private var records: [ScanRecord] = []
    /// The records that still have their picture: how badly each reads, and where it is.
    private var pictured: [(badness: Double, index: Int)] = []

    init(path: FilePathBytes, maxPictures: Int = ReportCollector.maxPictures) {
        self.path = path
        self.maxPictures = maxPictures
    }

    /// The records as collected (for tests).
    var collected: [ScanRecord] { records }

    func add(_ record: ScanRecord) {
        records.append(record)
        guard record.cardPicture != nil else { return }
        pictured.append((ReportPage.badness(record), records.count - 1))
        guard pictured.count > maxPictures,
              let best = pictured.indices.min(by: { pictured[$0].badness < pictured[$1].badness }) else { return }
        records[pictured[best].index].cardPicture = nil
        pictured.swapAt(best, pictured.count - 1)
        pictured.removeLast()
    }

    /// Writes the page atomically (a temporary file beside it, then a rename), mode 0600.
    func write(elapsed: Duration) throws(FileError) {
        let html = ReportPage.render(records, summary: ReportPage.Summary(elapsed: elapsed))
        try AtomicFile.write(Array(html.utf8), to: path, mode: 0o600)
    }
}

/// Checks made before --report FILE is touched: the same rules as -o.
enum ReportTarget {
    /// The path to write, after refusing a device, FIFO or folder, an input, and an existing file
    /// that is not a cardscan report (unless `force`).
    static func check(_ report: String, inputs: [FilePathBytes], force: Bool) throws(FileError) -> FilePathBytes {
        guard let (path, head) = try OutputTarget.existing(report, option: "--report", inputs: inputs, writes: "a report", elsewhere: "")
        else { return RawArguments.path(report) }
        if !force && !head.starts(with: Array(ReportPage.signature.utf8)) {
            throw FileError(.exists, path: path.display, reason: "exists and is not a cardscan report; choose another name, or --force to replace it")
        }
        return path
    }
}

/// Adds each contact read to the contact book (--db), one transaction per record: a batch
/// stopped at any point leaves every finished record stored.
struct BookWriter {
    let book: ContactBook
    let merge: Bool

    /// The id of the contact the record went to; nil when the record holds no contact an
    /// address book could use (a failed input, a photo without a card, an empty contact).
    /// A photo already in the book (same SHA-256) adds nothing to its history.
    /// - Throws: `FileError` naming the book when the record could not be stored.
    func add(_ record: ScanRecord) throws(FileError) -> Int64? {
        guard let contact = record.usableContact else { return nil }
        do {
            return try book.add(contact, source: record.source, text: record.text, merge: merge, fingerprint: record.fingerprint).id
        } catch {
            throw FileError(.writeFailed, path: book.path, reason: error.message)
        }
    }
}
