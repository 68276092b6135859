import CardFormats
import ContactParser
import Foundation
import ImageIngest

extension ReportPage {
    /// The page for `records` (see `render(_:summary:)`).
    public static func render(_ records: [ScanRecord], summary: Summary) -> String {
        render(records.map(\.reportCard), summary: summary)
    }

    /// How badly a record reads (see `badness(_:)`): from its contact alone, which a failed record lacks.
    public static func badness(_ record: ScanRecord) -> Double { badness(of: record.contact) }
}

extension ScanRecord {
    /// The record as the review page shows it.
    public var reportCard: ReportPage.Card {
        var card = ReportPage.Card(source: source, error: error.map { .init(code: $0.code.rawValue, message: $0.message) },
                                   contact: contact)
        card.noCard = status == .noCard
        card.sources = sources
        card.picture = cardPicture
        card.bookID = bookID
        card.detection = detection
        card.warnings = warnings
        return card
    }

    /// How the card was found and read, one phrase each (empty when the photo was never decoded).
    var detection: [String] {
        guard let image else { return [] }
        var parts: [String] = []
        if let card = image.card {
            let how = ["outline": "by its outline", "text-region": "by its text (no outline)", "whole-frame": "not found: the whole photo was read"]
            parts.append("Card found \(how[card.method.rawValue] ?? card.method.rawValue)"
                         + (card.method == .wholeFrame ? "" : String(format: " (confidence %.2f)", card.confidence)))
        }
        if image.textRotation.degrees != 0 { parts.append("text turned \(image.textRotation.degrees)°") }
        parts.append("photo \(image.width)×\(image.height)")
        for code in codes { parts.append("\(code.symbology)" + (code.contact.map { " (\($0))" } ?? "")) }
        if let total = timings[.total] { parts.append(String(format: "%.0f ms", total)) }
        return parts
    }
}

extension CardPicture {
    /// `card` scaled to `longSide` pixels on its long side (never up) and encoded as a JPEG.
    init(_ card: PixelImage, longSide: Int = ReportPage.pictureLongSide, source: String) throws(IngestError) {
        let small = card.longSide > longSide ? card.resized(longSide: longSide) : card
        self.init(jpeg: try JPEGEncoder.encode(small, quality: 70, source: source), width: small.width, height: small.height)
    }
}
