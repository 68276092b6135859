// cardscan-bench: figures for the claims in the README, each next to its anchor in the same run.
// A program, not a test: it prints numbers and never fails on a time.
//
//   cardscan-bench decode DIR [--reps N]   full-size decode vs the working-size decode cardscan does
import CardCodes
import CardDetection
import CardOCR
import ContactBook
import CardScan
import ContactParser
import Foundation
import ImageIngest

struct Options {
    var command = ""
    var directory = ""
    var reps = 5
}

func parseOptions() -> Options? {
    var o = Options()
    var args = Array(CommandLine.arguments.dropFirst())
    guard args.count >= 2 else { return nil }
    o.command = args.removeFirst()
    o.directory = args.removeFirst()
    while !args.isEmpty {
        let a = args.removeFirst()
        if a == "--reps", let v = args.first.flatMap(Int.init) { o.reps = v; args.removeFirst() }
    }
    return o
}

func jpegFiles(in dir: String) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
    return names.sorted().map { dir + "/" + $0 }.filter { path in
        guard let h = FileHandle(forReadingAtPath: path), let head = try? h.read(upToCount: 4) else { return false }
        return ImageFormat.detect([UInt8](head)) == .jpeg
    }
}

func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    return s.isEmpty ? 0 : (s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2)
}

func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    try body()
    return (clock.now - start).milliseconds
}

/// Full-size RGB decode (what a naive pipeline does) against cardscan's path: one colour decode
/// at the smallest DCT scale that still gives 1.5 x 1024 px (detection works on a small copy of
/// it), and the whole preparation (decode, detect, warp). Alternated per file, median over the
/// repetitions.
func benchDecode(_ o: Options) throws {
    let files = jpegFiles(in: o.directory)
    guard !files.isEmpty else { print("no JPEG files in \(o.directory)"); return }
    var fullTimes: [Double] = [], workTimes: [Double] = [], detectTimes: [Double] = []
    print("file             size, orientation     full-ms  working-ms  ratio  prepare-ms")
    for path in files {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let encoded = try EncodedImage(bytes: bytes, source: path)
        var full: [Double] = [], work: [Double] = [], detect: [Double] = []
        for _ in 0..<o.reps {
            full.append(try milliseconds { _ = try encoded.decode(minimumLongSide: nil, grayscale: false) })
            // The decode CardPreparer does: colour (for card detection), stored orientation (folded
            // into the warp), at the working size; and, separately, the whole preparation (decode,
            // detect, warp).
            work.append(try milliseconds {
                _ = try encoded.decode(minimumLongSide: Int(1024 * CardPreparer.workingFactor), grayscale: false,
                                       applyOrientation: false)
            })
            var prepared: PreparedCard?
            detect.append(try milliseconds { prepared = try CardPreparer.prepare(encoded) })
            _ = prepared
        }
        let f = median(full), w = median(work), d = median(detect)
        fullTimes.append(f); workTimes.append(w); detectTimes.append(d)
        let name = (path as NSString).lastPathComponent.padding(toLength: 16, withPad: " ", startingAt: 0)
        print("\(name) \(encoded.storedWidth)x\(encoded.storedHeight) o=\(encoded.orientation)".padding(toLength: 36, withPad: " ", startingAt: 0)
              + String(format: "%10.1f  %12.1f  %5.2f  %9.1f", f, w, w / f, d))
    }
    let f = fullTimes.reduce(0, +), w = workTimes.reduce(0, +), d = detectTimes.reduce(0, +)
    print(String(format: "total: full-size %.1f ms, working-size %.1f ms, ratio %.3f (target <= 0.25); whole preparation (decode, detect, warp) %.1f ms; %d files, median of %d runs each",
                 f, w, w / f, d, files.count, o.reps))
}

guard let options = parseOptions() else {
    print("usage: cardscan-bench decode DIR [--reps N]")
    exit(2)
}
switch options.command {
case "decode": try benchDecode(options)
case "serve":
    let soak = CommandLine.arguments.firstIndex(of: "--soak").flatMap { i in CommandLine.arguments.dropFirst(i + 1).first.flatMap { Int($0) } } ?? 0
    try await ServeBench.run(options.directory, soakSeconds: soak)
case "split": try benchPrepareSplit(options.directory)
case "prepare-split": try prepareSplit(options.directory)
case "detect": try detectNotes(options.directory)
case "detect-profile": try detectProfile(options.directory)
case "codes": try benchCodes(options.directory)
case "book": try benchBook(count: Int(options.directory) ?? 10_000)
case "ocr-ratio": try benchOCRRatio(options.directory)
case "engines": try benchEngines(options.directory)
case "osd": try benchOSD(options.directory)
case "osd-script": try benchOSDScript(options.directory)
case "ocr": try printOCR(options.directory)
case "hypotheses": try dumpHypotheses(options.directory)
case "ocr-lines": try dumpLines(options.directory)
case "scan-text": try dumpScanText(options.directory)
case "script-check": try benchScriptCheck(options.directory, rounds: CommandLine.arguments.count > 3 ? Int(CommandLine.arguments[3]) ?? 3 : 3)
case "colour-check": try benchColourCheck(options.directory, rounds: CommandLine.arguments.count > 3 ? Int(CommandLine.arguments[3]) ?? 3 : 3)
case "unread-check": try benchUnreadCheck(options.directory, rounds: CommandLine.arguments.count > 3 ? Int(CommandLine.arguments[3]) ?? 3 : 3)
case "orientations": try dumpOrientations(options.directory)
case "read-cards": try readCards(options.directory)
case "parse-lines": try parseLines(options.directory)
case "role-data": try roleData(options.directory)
case "parse-text":
    let region = ProcessInfo.processInfo.environment["REGION"]
    let parser = ContactParser(fallbackRegion: region == "none" ? nil : region)
    let record = ScanRecord.scanned("text", parser.parse(text: options.directory.replacingOccurrences(of: "\\n", with: "\n")))
    print(record.json().serialized())
case "edges":
    let path = options.directory
    let encoded = try EncodedImage(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), source: path)
    let image = try encoded.decode(minimumLongSide: CardDetector.previewLongSide, grayscale: false, applyOrientation: true).image
        .resized(longSide: CardDetector.previewLongSide)
    let e = CardDetector.edgeImage(of: image)
    var data = Data("P5\n\(e.width) \(e.height)\n255\n".utf8)
    data.append(contentsOf: e.pixels)
    try data.write(to: URL(fileURLWithPath: "/tmp/edges.pgm"))
case "ocr-jsonl": try ocrJSONL(options.directory, wholeFrame: CommandLine.arguments.contains("--whole-frame"))
case "skew": try benchSkew(options.directory)
case "dump": try dumpPrepared(options.directory, to: CommandLine.arguments.count > 3 ? CommandLine.arguments[3] : "/tmp/card.pgm")
default:
    print("unknown benchmark '\(options.command)'")
    exit(2)
}

/// Where preparation spends its time, on one file.
func benchPrepareSplit(_ path: String) throws {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    let encoded = try EncodedImage(bytes: bytes, source: path)
    for _ in 0..<3 {
        var working: DecodedImage?
        let d = try milliseconds { working = try encoded.decode(minimumLongSide: 2048, grayscale: true, applyOrientation: false) }
        guard let image = working?.image else { return }
        var preview: PixelImage?
        let r = milliseconds { preview = image.resized(longSide: CardDetector.previewLongSide) }
        var det: CardDetector.Detection?
        let t = milliseconds { det = CardDetector.detect(in: preview!) }
        var warped: PixelImage?
        let w = milliseconds { warped = det.flatMap { Rectifier.warp(image, quad: $0.quad, longSide: 1024) } }
        print(image.width, image.height, warped?.width ?? 0, warped?.height ?? 0, det?.quad.corners ?? [])
        print(String(format: "decode %.1f  resize %.1f  detect %.1f  warp %.1f", d, r, t, w))
    }
}

/// Why detection found or missed the card, per file.
func detectNotes(_ dir: String) throws {
    var isDir: ObjCBool = false
    let files = FileManager.default.fileExists(atPath: dir, isDirectory: &isDir) && isDir.boolValue ? jpegFiles(in: dir) : [dir]
    for path in files {
        let encoded = try EncodedImage(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), source: path)
        let image = try encoded.decode(minimumLongSide: 1536, grayscale: false, applyOrientation: false).image
        let d = CardDetector.detect(in: image.resized(longSide: CardDetector.previewLongSide))
        print((path as NSString).lastPathComponent, d != nil ? "card \(Int((d?.areaFraction ?? 0) * 100))%, confidence \(d?.confidence ?? 0)" : "none")
    }
}

/// Median milliseconds per step of card detection over a folder's photos (previews made first).
func detectProfile(_ dir: String) throws {
    var steps = StepTimes()
    for path in jpegFiles(in: dir) {
        let encoded = try EncodedImage(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), source: path)
        let image = try encoded.decode(minimumLongSide: 1536, grayscale: false, applyOrientation: false).image
        var preview: PixelImage?
        let r = milliseconds { preview = image.resized(longSide: CardDetector.previewLongSide) }
        let g = milliseconds { _ = image.grayscale() }
        for (name, ms) in [("resize-preview", r), ("gray-working", g)] + CardDetector.profile(preview!) {
            steps.add(name.components(separatedBy: "(").first!, ms)
        }
    }
    steps.print(width: 16)
}

/// Writes the image CardPreparer hands to OCR as a PGM file, to look at.
func dumpPrepared(_ path: String, to out: String) throws {
    let encoded = try EncodedImage(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), source: path)
    let card = try CardPreparer.prepare(encoded)
    var data = Data("P5\n\(card.image.width) \(card.image.height)\n255\n".utf8)
    data.append(contentsOf: CardNormalizer.normalize(card.image).pixels)
    try data.write(to: URL(fileURLWithPath: out))
    print("\(path): card detected \(card.cardDetected), \(card.image.width)x\(card.image.height) -> \(out)")
}

/// Prints the OCR lines of one photo with their geometry (a developer's view; the tool itself
/// never logs card text).
func printOCR(_ path: String) throws {
    let encoded = try EncodedImage(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), source: path)
    let card = try CardPreparer.prepare(encoded)
    let engine = try OCREngine()
    let page = try engine.recognize(card.image)
    for line in page.lines {
        print(String(format: "h=%5.1f conf=%.2f top=%4d left=%4d | ", line.textHeight, line.confidence, line.box.top, line.box.left) + line.text)
    }
}

/// Orientation detection on a card turned by each multiple of 90 degrees.
func benchOSD(_ path: String) throws {
    let encoded = try EncodedImage(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), source: path)
    let card = CardNormalizer.normalize(try CardPreparer.prepare(encoded).image)
    let osd = try OrientationDetector()
    for turn in QuarterTurn.allCases {
        let turned = card.rotated(clockwise: turn)
        var result: (turn: QuarterTurn, confidence: Double)?
        let ms = milliseconds { result = osd.uprightRotation(of: turned) }
        let small = turned.resized(longSide: 640)
        var smallResult: (turn: QuarterTurn, confidence: Double)?
        let smallMs = milliseconds { smallResult = osd.uprightRotation(of: small) }
        let engine = try OCREngine()
        let page = try engine.recognize(turned)
        let words = page.lines.flatMap(\.words)
        let meanConf = words.isEmpty ? 0 : words.map(\.confidence).reduce(0, +) / Double(words.count)
        print("turned \(turn.degrees) cw: detector says rotate \(result?.turn.degrees ?? -1) cw, confidence \(String(format: "%.2f", result?.confidence ?? 0)), \(String(format: "%.1f", ms)) ms; at 640 px: \(smallResult?.turn.degrees ?? -1) (\(String(format: "%.2f", smallResult?.confidence ?? 0)), \(String(format: "%.1f", smallMs)) ms); OCR mean word confidence \(String(format: "%.2f", meanConf)) over \(words.count) words")
    }
}

/// Tesseract's script detection on each photo's card (as the scan prepares it, upright as the
/// English reading turned it), with its time and the English reading's unread lines.
func benchOSDScript(_ dir: String) throws {
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
    let osd = try OrientationDetector()
    let engine = try OCREngine()
    for name in names where name.hasSuffix(".jpg") || name.hasSuffix(".png") {
        let path = dir + "/" + name
        let encoded = try EncodedImage(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), source: path)
        let card = try CardPreparer.prepare(encoded).image
        let (page, rotation) = try engine.recognizeUpright(card)
        let normal = CardNormalizer.normalize(card)
        var found: OrientationDetector.Detection?
        let ms = milliseconds { found = osd.detect(normal.rotated(clockwise: rotation)) }
        var foundRaw: OrientationDetector.Detection?
        let msRaw = milliseconds { foundRaw = osd.detect(normal) }
        let unread = ForeignScriptEvidence.unreadLines(in: page).count
        func show(_ d: OrientationDetector.Detection?, _ ms: Double) -> String {
            "\(d?.script ?? "-") " + String(format: "%.2f turn %d (%.1f ms)", d?.scriptConfidence ?? 0, d?.turn.degrees ?? -1, ms)
        }
        print("\(name) unread=\(unread) rot=\(rotation.degrees) | upright: \(show(found, ms)) | as cut: \(show(foundRaw, msRaw))")
    }
}

/// One JSON line per image of DIR: {"file", "text"} as the scan pipeline reads it (a developer's
/// view for measuring OCR recall; the tool itself never logs card text).
func ocrJSONL(_ dir: String, wholeFrame: Bool) throws {
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
    let psm = ProcessInfo.processInfo.environment["PSM"].flatMap(Int32.init).flatMap(PageSegmentation.init(rawValue:)) ?? .singleBlock
    let engine = try OCREngine(pageSegmentation: psm)
    for name in names where name.hasSuffix(".jpg") || name.hasSuffix(".png") {
        let path = dir + "/" + name
        let encoded = try EncodedImage(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), source: path)
        let card = try CardPreparer.prepare(encoded, detectCard: !wholeFrame)
        let (page, _) = try engine.recognizeUpright(card.image)
        let text = page.lines.map(\.text).joined(separator: "\n")
        let json = try JSONSerialization.data(withJSONObject: ["file": name, "text": text])
        print(String(decoding: json, as: UTF8.self))
    }
}

/// One JSON line per photo of DIR: every card hypothesis with its features, corners normalised
/// to the upright photo (for fitting the judge's weights against known outlines).
func dumpHypotheses(_ dir: String) throws {
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
    for name in names where name.hasSuffix(".jpg") || name.hasSuffix(".png") {
        let path = dir + "/" + name
        let encoded = try EncodedImage(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), source: path)
        // As CardPreparer sees the photo: as stored (the orientation is applied by the warp).
        let decoded = try encoded.decode(minimumLongSide: Int(1024 * CardPreparer.workingFactor), grayscale: false,
                                         applyOrientation: false)
        let image = decoded.image.resized(longSide: CardDetector.previewLongSide)
        let clock = ContinuousClock()
        let start = clock.now
        let candidates = CardDetector.candidates(in: image)
        let ms = (clock.now - start).milliseconds
        // Corners normalised to the upright photo, comparable with the truth's card_quad.
        let rows: [[String: Any]] = candidates.map { c in
            ["corners": c.corners.map { p -> [Double] in
                let u = PixelImage.uprightPoint(fromStored: (p.x, p.y), orientation: encoded.orientation)
                return [u.x, u.y]
            }, "source": c.source, "features": c.features, "score": c.score]
        }
        let json = try JSONSerialization.data(withJSONObject: ["file": name, "ms": ms, "width": image.width, "height": image.height,
                                                               "candidates": rows, "names": CardDetector.featureNames,
                                                               "lines": CardDetector.lines(in: image)])
        print(String(decoding: json, as: UTF8.self))
    }
}

/// One JSON line per photo of DIR: the OCR lines with their geometry as the scan pipeline reads
/// them (`LANG` picks the languages), so that the parser can be measured without OCR.
func dumpLines(_ dir: String) throws {
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
    let langs = ProcessInfo.processInfo.environment["LANG_OCR"] ?? "eng"
    let engine = try OCREngine(languages: OCRLanguages(langs) ?? .english, pageSegmentation: ProcessInfo.processInfo.environment["PSM"] == "3" ? .auto : .singleBlock)
    for name in names where name.hasSuffix(".jpg") || name.hasSuffix(".png") {
        let path = dir + "/" + name
        let encoded = try EncodedImage(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), source: path)
        let card = try CardPreparer.prepare(encoded)
        let (page, rotation) = try engine.recognizeUpright(card.image)
        let lines: [[String: Any]] = page.lines.map { line in
            ["text": line.text, "conf": line.confidence, "h": line.textHeight, "top": line.box.top, "left": line.box.left,
             "words": line.words.map { ["t": $0.text, "l": $0.box.left, "r": $0.box.right, "c": $0.confidence] as [String: Any] }]
        }
        let json = try JSONSerialization.data(withJSONObject: ["file": name, "width": page.width, "height": page.height,
                                                               "rotation": rotation.degrees, "lines": lines])
        print(String(decoding: json, as: UTF8.self))
    }
}

/// The OCR lines of FILE (as `ocr-lines` or scripts/cardgen.py write them) as JSON objects.
func readLineCards(_ file: String) throws -> [(name: String, lines: [TextLine], object: [String: Any])] {
    let text = try String(contentsOfFile: file, encoding: .utf8)
    return text.split(separator: "\n").compactMap { row in
        guard let obj = try? JSONSerialization.jsonObject(with: Data(row.utf8)) as? [String: Any],
              let name = obj["file"] as? String, let lines = obj["lines"] as? [[String: Any]] else { return nil }
        let textLines = lines.map { l -> TextLine in
            let words = (l["words"] as? [[String: Any]] ?? []).map { w in
                TextWord(text: w["t"] as? String ?? "", left: w["l"] as? Double ?? 0, right: w["r"] as? Double ?? 0,
                         confidence: w["c"] as? Double ?? 0)
            }
            return TextLine(text: l["text"] as? String ?? "", confidence: l["conf"] as? Double, height: l["h"] as? Double,
                            top: l["top"] as? Double, left: l["left"] as? Double, words: words)
        }
        return (name, textLines, obj)
    }
}

/// Training rows for the line-role model from generated cards with their truth (scripts/cardgen.py):
/// one JSON line per candidate line, {card, role, text, f: [features]}.
func roleData(_ file: String) throws {
    let region = ProcessInfo.processInfo.environment["REGION"] ?? "none"
    for card in try readLineCards(file) {
        let truth = card.object["truth"] as? [String: Any] ?? [:]
        var values: [String: String] = [:]
        for (key, label) in [("name", "name"), ("title", "title"), ("organization", "org")] {
            if let v = truth[key] as? String { values[label] = v }
        }
        let roles = card.object["roles"] as? [String]
        for example in LineRoleTraining.examples(lines: card.lines, truth: values, roles: roles, fallbackRegion: region == "none" ? nil : region) {
            let row: [String: Any] = ["card": card.name, "role": example.role, "text": example.text, "f": example.features,
                                      "p": example.probabilities.map { ($0 * 1000).rounded() / 1000 }]
            let json = try JSONSerialization.data(withJSONObject: row)
            print(String(decoding: json, as: UTF8.self))
        }
    }
}

/// Parses the OCR lines of FILE (as `ocr-lines` writes them) into records (`REGION` sets the
/// fallback region).
func parseLines(_ file: String) throws {
    let region = ProcessInfo.processInfo.environment["REGION"] ?? "US"
    let parser = ContactParser(fallbackRegion: region == "none" ? nil : region)
    for card in try readLineCards(file) {
        let record = ScanRecord.scanned(card.name, parser.parse(lines: card.lines))
        print(record.json().serialized())
    }
}

/// Where card preparation spends its time, per phase, median over the photos of DIR.
func prepareSplit(_ dir: String) throws {
    var steps = StepTimes()
    for path in jpegFiles(in: dir) {
        let encoded = try EncodedImage(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), source: path)
        for (name, ms) in try CardPreparer.prepare(encoded).phases { steps.add(name, ms) }
    }
    steps.print(width: 14)
}

/// Milliseconds per named step over many photos, printed as median and maximum in first-seen order.
struct StepTimes {
    private var times: [String: [Double]] = [:]
    private var order: [String] = []

    mutating func add(_ name: String, _ milliseconds: Double) {
        if times[name] == nil { order.append(name) }
        times[name, default: []].append(milliseconds)
    }

    func print(width: Int) {
        for key in order {
            let v = times[key]!
            Swift.print(key.padding(toLength: width, withPad: " ", startingAt: 0), String(format: "median %6.1f ms   max %6.1f ms", median(v), v.max()!))
        }
    }
}

/// zbar on the straightened cards of a folder, several ways: milliseconds (median, max) and
/// how many cards had a code found (`--frames`: also on the whole photo at full size; `--large`:
/// on the card straightened at 2048 px).
func benchCodes(_ dir: String) throws {
    var cards: [(String, PixelImage)] = []
    for path in jpegFiles(in: dir) {
        let encoded = try EncodedImage(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), source: path)
        cards.append(((path as NSString).lastPathComponent, try CardPreparer.prepare(encoded).image))
    }
    let variants: [(String, (PixelImage) -> [DecodedCode])] = [
        ("all, density 1", { CodeReader.read($0) }),
        ("qr, density 1", { CodeReader.read($0, options: .init(qrOnly: true)) }),
        ("all, density 2", { CodeReader.read($0, options: .init(density: 2)) }),
        ("qr, density 2", { CodeReader.read($0, options: .init(qrOnly: true, density: 2)) }),
        ("qr, half size", { CodeReader.read($0.downsampled(by: 2), options: .init(qrOnly: true)) }),
        ("qr d2, 0.8 size", { CodeReader.read($0.resized(longSide: $0.longSide * 4 / 5), options: .init(qrOnly: true, density: 2)) }),
        ("qr, density 3", { CodeReader.read($0, options: .init(qrOnly: true, density: 3)) }),
    ]
    for (name, read) in variants {
        var times: [Double] = [], found: [String] = []
        for (file, card) in cards {
            var codes: [DecodedCode] = []
            times.append(milliseconds { codes = read(card) })
            if !codes.isEmpty { found.append(file) }
        }
        print(name.padding(toLength: 16, withPad: " ", startingAt: 0),
              String(format: "median %5.1f ms  max %6.1f ms  found %d: ", median(times), times.max() ?? 0, found.count) + found.joined(separator: " "))
    }
    for path in jpegFiles(in: dir) where CommandLine.arguments.contains("--frames") {
        let encoded = try EncodedImage(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), source: path)
        let full = try encoded.decode(minimumLongSide: 100_000, grayscale: true, applyOrientation: false).image
        var line = (path as NSString).lastPathComponent + " full \(full.width)x\(full.height):"
        for (n, img) in [("full", full), ("half", full.downsampled(by: 2)), ("bin", localBinarized(full, radius: 20))] {
            var codes: [DecodedCode] = []
            let ms = milliseconds { codes = CodeReader.read(img, options: .init(qrOnly: true)) }
            line += " \(n) \(codes.count) (\(Int(ms)) ms)"
        }
        print(line)
    }
    for side in [2048] where CommandLine.arguments.contains("--large") {
        var times: [Double] = [], found: [String] = []
        for path in jpegFiles(in: dir) {
            let encoded = try EncodedImage(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), source: path)
            var codes: [DecodedCode] = []
            times.append(try milliseconds { codes = CodeReader.read(try CardPreparer.prepare(encoded, longSide: side).image, options: .init(qrOnly: true)) })
            if !codes.isEmpty { found.append((path as NSString).lastPathComponent) }
        }
        print("card at \(side)    ", String(format: "median %5.1f ms  max %6.1f ms  found %d: ", median(times), times.max() ?? 0, found.count) + found.joined(separator: " "))
    }
}

/// The mean of each pixel's (2r+1)^2 neighbourhood, from an integral image.
func boxMean(_ g: PixelImage, radius r: Int) -> [Float] {
    let w = g.width, h = g.height
    var integral = [Float](repeating: 0, count: (w + 1) * (h + 1))
    for y in 0..<h {
        var row: Float = 0
        for x in 0..<w {
            row += Float(g.pixels[y * w + x])
            integral[(y + 1) * (w + 1) + x + 1] = integral[y * (w + 1) + x + 1] + row
        }
    }
    var out = [Float](repeating: 0, count: w * h)
    for y in 0..<h {
        let y0 = max(0, y - r), y1 = min(h, y + r + 1)
        for x in 0..<w {
            let x0 = max(0, x - r), x1 = min(w, x + r + 1)
            let s = integral[y1 * (w + 1) + x1] - integral[y0 * (w + 1) + x1] - integral[y1 * (w + 1) + x0] + integral[y0 * (w + 1) + x0]
            out[y * w + x] = s / Float((y1 - y0) * (x1 - x0))
        }
    }
    return out
}

/// Black where a pixel is darker than its neighbourhood's mean, white elsewhere.
func localBinarized(_ g: PixelImage, radius: Int) -> PixelImage {
    let mean = boxMean(g, radius: radius)
    return PixelImage(width: g.width, height: g.height, channels: 1, pixels: zip(g.pixels, mean).map { Float($0) < $1 - 2 ? 0 : 255 })
}


/// The contact book: N contacts added one transaction each (as `scan --db` adds them), then
/// listed, in a book in the temporary folder that is deleted afterwards.
func benchBook(count: Int) throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-bench-book-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let book = try ContactBook(path: dir.appendingPathComponent("book.sqlite").path)
    let contacts: [Contact] = (0..<count).map { i in
        var c = Contact()
        c.name = PersonName(full: "Person \(i) Example", given: "Person", family: "\(i) Example")
        c.organization = "Company \(i % 997)"
        c.title = "Title \(i % 13)"
        c.emails = ["person\(i)@company\(i % 997).example"]
        c.phones = [Phone(type: .work, number: "+1 415 555 \(String(format: "%04d", i % 10_000))", e164: "+1415\(String(format: "%07d", i))")]
        for f in [Contact.Field.name, .organization, .title, .emails, .phones] { c.confidence[f] = 0.9 }
        return c
    }
    let insert = try milliseconds { for (i, c) in contacts.enumerated() { try book.add(c, source: "card-\(i).jpg") } }
    var listed = 0
    let list = try milliseconds { listed = try book.list().count }
    // Opening runs SQLite's integrity check first: what `contacts list` pays on top.
    let open = try milliseconds { _ = try ContactBook(path: dir.appendingPathComponent("book.sqlite").path) }
    print(String(format: "contact book: %d contacts added (one transaction each) in %.2f s (target <= 2 s); listed %d in %.3f s (target <= 0.2 s); opened again (integrity check) in %.3f s",
                 count, insert / 1000, listed, list / 1000, open / 1000))
}

/// cardscan's English reading of each straightened card (normaliser, text direction, a second
/// turn only when the first reading is unsure) against one plain TessBaseAPI read of the same
/// card (SetImage + Recognize with Tesseract's defaults, no normaliser), alternating, medians per card.
/// Making an engine: cardscan's (without the universal ambiguity table, when the language data
/// has no legacy recogniser) against Tesseract's own initialisation, alternating, for each of the
/// comma-separated languages given (default: eng,deu,fra).
func benchEngines(_ list: String) throws {
    let languages = list.isEmpty || list == "." ? ["eng", "deu", "fra"] : list.split(separator: ",").map(String.init)
    for code in languages {
        guard let language = OCRLanguages(code) else { continue }
        var lean: [Double] = [], stock: [Double] = []
        for _ in 0..<7 {
            lean.append(try milliseconds { _ = try OCREngine(languages: language) })
            stock.append(try milliseconds { _ = try OCREngine(languages: language, loadUniversalAmbiguities: true) })
        }
        print(String(format: "%@: cardscan's engine %.1f ms, Tesseract's own initialisation %.1f ms (medians of 7, alternating)",
                     code, median(lean), median(stock)))
    }
}

func benchOCRRatio(_ dir: String) throws {
    let engine = try OCREngine()
    let plainEngine = try OCREngine(retryInverted: true, compressLineImages: true, loadUniversalAmbiguities: true)  // Tesseract's defaults but one: its
    // fixed-pitch test is a process-wide setting, which the first engine switched off (see OCREngine)
    var plain: [Double] = [], upright: [Double] = [], ratios: [Double] = []
    var norm: [Double] = [], direction: [Double] = [], onNormalized: [Double] = []
    var steps = StepTimes()
    for path in jpegFiles(in: dir) {
        let encoded = try EncodedImage(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), source: path)
        let card = try CardPreparer.prepare(encoded).image
        let gray = card.grayscale()
        _ = try plainEngine.recognize(gray, normalize: false)  // warm
        let p = try milliseconds { _ = try plainEngine.recognize(gray, normalize: false) }
        let u = try milliseconds { _ = try engine.recognizeUpright(card) }
        plain.append(p); upright.append(u); ratios.append(u / p)
        var normalized = gray
        norm.append(milliseconds { normalized = CardNormalizer.normalize(card) })
        direction.append(milliseconds { _ = TextDirection.estimate(normalized) })
        onNormalized.append(try milliseconds { _ = try engine.recognize(normalized, normalize: false) })
        for (name, ms) in CardNormalizer.profile(card) { steps.add("normaliser " + name, ms) }
    }
    steps.print(width: 22)
    print(String(format: "  normaliser %.1f ms, text direction %.1f ms, one read of the normalised card %.1f ms", median(norm), median(direction), median(onNormalized)))
    print(String(format: "one plain read %.1f ms, cardscan's reading %.1f ms (medians per card); per card ratio median %.2f, max %.2f (target <= 1.15)",
                 median(plain), median(upright), median(ratios), ratios.max() ?? 0))
}
