// cardscan-bench scan-text DIR: the text `cardscan scan` parses, one JSON line per photo, for
// measuring OCR recall against the truth without the parser (scripts/ocr-recall.py).
import CardDetection
import CardOCR
import CardScan
import ImageIngest
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
    FileHandle.standardError.write(Data("scan-text: \(CardScanner.wholeFrameReadings) cards read a second time as the whole frame, \(CardScanner.rivalReadings) along a rival outline, \(CardScanner.closerReadings) closer, \(CardScanner.levelledReadings) levelled, \(CardScanner.colourReadings) in colour contrast\n".utf8))
}

/// cardscan-bench orientations DIR: per photo, what `TextDirection` estimates on the normalised
/// card and each of the four quarter-turn readings (mean word confidence, reading evidence, words
/// and text), one JSON line per photo: which evidence picks the right turn (scripts/ocr-recall.py
/// tells which reading holds the truth).
func dumpOrientations(_ dir: String) throws {
    let engine = try OCREngine(pageSegmentation: .singleBlock)
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
    for name in names where [".jpg", ".jpeg", ".png"].contains(where: { name.lowercased().hasSuffix($0) }) {
        let path = dir + "/" + name
        let encoded = try EncodedImage(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), source: path)
        let card = try CardPreparer.prepare(encoded)
        let normalized = CardNormalizer.normalize(card.image)
        let estimate = TextDirection.estimate(normalized)
        var readings: [[String: Any]] = []
        for turn in QuarterTurn.allCases {
            let page = try engine.recognize(normalized.rotated(clockwise: turn), normalize: false)
            readings.append(["turn": turn.degrees, "conf": page.meanWordConfidence, "evidence": page.readingEvidence,
                             "words": page.wordCount, "text": page.text,
                             "wordConf": page.lines.flatMap(\.words).map { [$0.text, $0.confidence] as [Any] }])
        }
        let row: [String: Any] = ["file": name, "estimate": estimate.rotation.degrees, "sideways": estimate.sidewaysEvidence,
                                  "upright": estimate.uprightEvidence, "uncertain": estimate.isUncertain,
                                  "width": card.image.width, "height": card.image.height, "readings": readings]
        let json = try JSONSerialization.data(withJSONObject: row, options: [.sortedKeys])
        print(String(decoding: json, as: UTF8.self))
    }
}

/// cardscan-bench read-cards DIR: reads every image of `dir` as an already straightened card
/// (no detection; turned upright and normalised as `cardscan scan` reads a card), one JSON line
/// per image with its text, the turn, and the reading's confidence and evidence: for trying other
/// preparations of a card's pixels made outside (a file NAME.EXT.png stands for NAME.EXT).
func readCards(_ dir: String) throws {
    let psm = ProcessInfo.processInfo.environment["PSM"].flatMap(Int32.init).flatMap(PageSegmentation.init(rawValue:)) ?? .singleBlock
    let engine = try OCREngine(pageSegmentation: psm)
    let normalize = ProcessInfo.processInfo.environment["NORMALIZE"] != "0"
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
    for name in names where name.lowercased().hasSuffix(".png") || name.lowercased().hasSuffix(".jpg") {
        let path = dir + "/" + name
        let encoded = try EncodedImage(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), source: path)
        let image = try encoded.decode(minimumLongSide: nil, grayscale: true).image
        let (page, turn) = try engine.recognizeUpright(image, normalize: normalize)
        let file = name.hasSuffix(".png") && name.dropLast(4).contains(".") ? String(name.dropLast(4)) : name
        let row: [String: Any] = ["file": file, "text": page.text, "rotation": turn.degrees, "conf": page.meanWordConfidence,
                                  "evidence": page.readingEvidence, "words": page.wordCount,
                                  "wordConf": page.lines.flatMap(\.words).map { [$0.text, $0.confidence] as [Any] }]
        let json = try JSONSerialization.data(withJSONObject: row, options: [.sortedKeys])
        print(String(decoding: json, as: UTF8.self))
    }
}

/// cardscan-bench script-check DIR [ROUNDS]: what the look for a Japanese, Chinese or Korean card
/// costs a card that is not one. Every photo of `dir` is scanned by two scanners, one with
/// `cardScripts` and one without, alternately (ROUNDS times, default 3, `--jobs 1`), and the mean
/// time per card of each is printed, with their difference.
func benchScriptCheck(_ dir: String, rounds: Int) throws {
    try benchSwitch(dir, rounds: rounds, \.cardScripts, "the script check")
}

/// cardscan-bench colour-check DIR [ROUNDS]: the same for the colour-contrast reading of poor,
/// colourful cards (`ScanConfiguration.colourReading`).
func benchColourCheck(_ dir: String, rounds: Int) throws {
    try benchSwitch(dir, rounds: rounds, \.colourReading, "the colour reading")
}

/// cardscan-bench unread-check DIR [ROUNDS]: the same for the reading of the rows of print a
/// card's reading left out (`ScanConfiguration.unreadLines`).
func benchUnreadCheck(_ dir: String, rounds: Int) throws {
    try benchSwitch(dir, rounds: rounds, \.unreadLines, "the unread lines")
}

/// Every photo of `dir` scanned by two scanners, one with `option` off and one with it on,
/// alternately (ROUNDS times, `--jobs 1`); the mean time per card of each, and their difference.
func benchSwitch(_ dir: String, rounds: Int, _ option: WritableKeyPath<ScanConfiguration, Bool>, _ what: String) throws {
    var with = ScanConfiguration()
    with.workers = 1
    var without = with
    without[keyPath: option] = false
    let scanners = [try CardScanner(configuration: without), try CardScanner(configuration: with)]
    defer { scanners.forEach { $0.releaseEngines() } }
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
        .filter { name in [".jpg", ".jpeg", ".png"].contains { name.lowercased().hasSuffix($0) } }
    for scanner in scanners { _ = names.first.map { scanner.scan(file: dir + "/" + $0) } }  // engines loaded
    var totals = [0.0, 0.0]
    var cards = 0
    for round in 0..<rounds {
        for name in names {
            for k in (round % 2 == 0 ? [0, 1] : [1, 0]) {
                let start = ContinuousClock.now
                _ = scanners[k].scan(file: dir + "/" + name)
                totals[k] += (ContinuousClock.now - start).milliseconds
            }
            cards += 1
        }
    }
    let perCard = totals.map { $0 / Double(max(1, cards)) }
    print("\(dir): \(names.count) photos x \(rounds) rounds: " + String(format: "without \(what) %.1f ms/card, with it %.1f ms/card, difference %+.2f ms/card (%+.1f%%)",
                 perCard[0], perCard[1], perCard[1] - perCard[0], 100 * (perCard[1] / max(perCard[0], 1e-9) - 1)))
}

/// cardscan-bench skew DIR: per photo, the slants of print on its card as the scan cuts it
/// (`TextSkew.partSlants`, each tile's slant/prominence/detail points), the time the measure
/// takes, and what the card levelled at each slant still shows. SKEW_DUMP=DIR writes each
/// levelled card there as PGM.
func benchSkew(_ dir: String) throws {
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
    for name in names where [".jpg", ".jpeg", ".png"].contains(where: { name.lowercased().hasSuffix($0) }) {
        let path = dir + "/" + name
        let encoded = try EncodedImage(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), source: path)
        let card = try CardPreparer.prepare(encoded).image
        let start = ContinuousClock.now
        let slants = TextSkew.partSlants(of: card)
        let ms = (ContinuousClock.now - start).milliseconds
        let tiles = TextSkew.tileSlants(of: card).map { String(format: "%.0f/%.1f/%d", $0.degrees, $0.prominence, $0.points) }
        print(name, slants, String(format: "%.1f ms", ms), "tiles:", tiles.joined(separator: " "))
        for slant in slants {
            let levelled = TextSkew.levelled(card, degrees: slant)
            print("  levelled \(slant):", TextSkew.partSlants(of: levelled, limit: 3))
            if let out = ProcessInfo.processInfo.environment["SKEW_DUMP"] {
                var data = Data("P5\n\(levelled.width) \(levelled.height)\n255\n".utf8)
                data.append(contentsOf: levelled.channels == 1 ? levelled.pixels : levelled.grayscale().pixels)
                try data.write(to: URL(fileURLWithPath: out + "/" + name + ".\(Int(slant)).pgm"))
            }
        }
    }
}
