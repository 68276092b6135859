// cardscan-bench scan-text DIR: the text `cardscan scan` parses, one JSON line per photo, for
// measuring OCR recall against the truth without the parser (scripts/ocr-recall.py).
import CardScan
import Foundation

/// Scans every image of `dir` as `cardscan scan --jobs 1` does (the same configuration and the
/// same reading) and prints, per photo, the text of the reading the parser was given, how the
/// card was found, the turn applied to its text and the OCR time.
func dumpScanText(_ dir: String) throws {
    var configuration = ScanConfiguration()
    configuration.workers = 1
    configuration.keepText = true
    let scanner = try CardScanner(configuration: configuration)
    defer { scanner.releaseEngines() }
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
    for name in names where [".jpg", ".jpeg", ".png"].contains(where: { name.lowercased().hasSuffix($0) }) {
        let record = scanner.scan(file: dir + "/" + name)
        var row: [String: Any] = ["file": name, "text": record.text ?? "", "status": record.status.rawValue]
        if let image = record.image {
            row["rotation"] = image.textRotation.degrees
            row["found"] = image.card?.method.rawValue ?? "whole-frame"
        }
        row["ocrMs"] = record.timings[.ocr] ?? 0
        row["totalMs"] = record.timings[.total] ?? 0
        let json = try JSONSerialization.data(withJSONObject: row, options: [.sortedKeys])
        print(String(decoding: json, as: UTF8.self))
    }
}
