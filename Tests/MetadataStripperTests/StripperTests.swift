import Foundation
import ImageIngest
import Testing
import TestSupport
@testable import MetadataStripper

/// The practice of exiftool's and mat2's own test suites: strip, then read the result back with
/// exiftool and a structural walk; strip again and compare; decode both and compare pixels.
@Suite(.serialized) struct StripperTests {
    /// exiftool groups (-G1) a clean file may show: the file itself, computed values, the
    /// decoder's Adobe colour transform, and IFD0 holding the orientation only.
    static let allowedGroups: Set<String> = ["ExifTool", "System", "File", "Composite", "Adobe", "IFD0", "PNG"]
    /// PNG tags exiftool reads from the chunks a clean PNG keeps (IHDR, PLTE, tRNS, gAMA, cHRM, sRGB, sBIT).
    static let allowedPNGTags: Set<String> = [
        "ImageWidth", "ImageHeight", "BitDepth", "ColorType", "Compression", "Filter", "Interlace", "Gamma",
        "SRGBRendering", "WhitePointX", "WhitePointY", "RedX", "RedY", "GreenX", "GreenY", "BlueX", "BlueY",
        "Palette", "Transparency", "SignificantBits",
    ]

    struct Outcome {
        var cleaned: [(name: String, input: [UInt8], output: [UInt8])] = []
        var refused: [(name: String, reason: String)] = []
    }

    /// Strips every JPEG and PNG under `root`; writes the outputs to `outDir` under unique names.
    static func stripAll(under root: URL, into outDir: URL) throws -> Outcome {
        var outcome = Outcome()
        let names = (FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []).sorted()
        for name in names {
            let url = root.appendingPathComponent(name)
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir), !isDir.boolValue else { continue }
            let bytes = try TestPaths.bytes(url)
            guard let format = ImageFormat.detect(bytes), format == .jpeg || format == .png else { continue }
            // Only files that decode are stripped: a sanitized copy is promised to show the same pixels.
            guard (try? EncodedImage(bytes: bytes, source: name).decode()) != nil else {
                outcome.refused.append((name, "does not decode"))
                continue
            }
            do {
                let clean = try Stripper.strip(bytes, source: name)
                let flat = name.replacingOccurrences(of: "/", with: "__")
                try Data(clean).write(to: outDir.appendingPathComponent(flat))
                outcome.cleaned.append((flat, bytes, clean))
            } catch let error as StripError {
                outcome.refused.append((name, error.reason))
            }
        }
        return outcome
    }

    static func exiftool(_ dir: URL) throws -> [[String: Any]] {
        let result = try runProcess(URL(fileURLWithPath: "/usr/bin/exiftool"), ["-j", "-a", "-G1", "-q", "-q", dir.path])
        let data = Data(result.stdout.utf8)
        return (try JSONSerialization.jsonObject(with: data) as? [[String: Any]]) ?? []
    }

    /// What exiftool still finds in a stripped file that is not allowed.
    static func leftovers(_ tags: [String: Any]) -> [String] {
        tags.keys.filter { key in
            guard key != "SourceFile", let colon = key.firstIndex(of: ":") else { return false }
            let group = String(key[..<colon]), name = String(key[key.index(after: colon)...])
            if group == "File" && name.hasPrefix("Warning") { return false }
            guard Self.allowedGroups.contains(group) else { return true }
            if group == "IFD0" { return name != "Orientation" }
            if group == "PNG" { return !Self.allowedPNGTags.contains(name) }
            return false
        }.sorted()
    }

    static func checkStructure(_ output: [UInt8], input: [UInt8]) -> [String] {
        var problems: [String] = []
        if ImageFormat.detect(output) == .jpeg {
            guard let outS = JPEGStructure(output), let inS = JPEGStructure(input) else { return ["no structure"] }
            for s in outS.segments where s.kind == .marker {
                let m = s.marker ?? 0
                let allowed = Stripper.keepsMarker(m) || m == 0xD8 || (0xD0...0xD7).contains(m) || m == 0xEE
                    || (m == 0xE1 && output[s.payload].starts(with: Array("Exif".utf8)) && s.payload.count <= 32)
                if !allowed { problems.append(String(format: "marker %02X", m)) }
            }
            if outS.segments.contains(where: { $0.kind == .trailer }) { problems.append("trailer") }
            let entropy: (JPEGStructure, [UInt8]) -> [ArraySlice<UInt8>] = { st, b in
                st.segments.filter { $0.kind == .entropyCoded }.map { b[$0.range] }
            }
            if entropy(outS, output) != entropy(inS, input) { problems.append("entropy-coded data differs") }
        } else {
            var walk = PNGChunks(output)
            while let c = walk.next() {
                if !Stripper.keepsChunk(c.type, options: StripOptions()) { problems.append("chunk \(c.type)") }
            }
        }
        return problems
    }

    static func pixels(_ bytes: [UInt8]) throws -> PixelImage {
        try EncodedImage(bytes: bytes, source: "x").decode(grayscale: false, applyOrientation: false).image
    }

    static func runSuite(on root: URL, label: String) throws -> Outcome {
        let outDir = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-strip-\(label)-\(getpid())")
        try? FileManager.default.removeItem(at: outDir)
        try FileManager.default.createDirectory(at: outDir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: outDir) }
        let outcome = try stripAll(under: root, into: outDir)
        for file in outcome.cleaned {
            #expect(checkStructure(file.output, input: file.input).isEmpty, "\(file.name): \(checkStructure(file.output, input: file.input))")
            // Idempotent: a second strip changes nothing.
            #expect(try Stripper.strip(file.output, source: file.name) == file.output, "\(file.name) not idempotent")
            // Same pixels.
            #expect(try pixels(file.output) == pixels(file.input), "\(file.name): pixels differ")
        }
        let report = try exiftool(outDir)
        #expect(report.count == outcome.cleaned.count)
        for tags in report {
            let left = leftovers(tags)
            #expect(left.isEmpty, "\(tags["SourceFile"] ?? "?"): exiftool still reads \(left)")
        }
        print("strip \(label): \(outcome.cleaned.count) stripped cleanly, \(outcome.refused.count) refused")
        for r in outcome.refused { print("  refused \(r.name): \(r.reason)") }
        return outcome
    }

    @Test func fixturesComeOutCleanByExiftoolsReading() throws {
        let outcome = try Self.runSuite(on: TestPaths.cards, label: "fixtures")
        #expect(outcome.cleaned.count == (try ExpectedCard.all()).count)
        #expect(outcome.refused.isEmpty)
    }

    @Test func everyReadableCorpusFileComesOutClean() throws {
        guard let corpus = TestPaths.shared?.appendingPathComponent("corpora/metadata") else {
            try Test.cancel("../shared is not beside the checkout")
        }
        let outcome = try Self.runSuite(on: corpus, label: "corpus")
        #expect(outcome.cleaned.count > 100)
    }

    @Test func orientationIsKeptByDefaultAndDroppedOnRequest() throws {
        let bytes = try TestPaths.bytes(TestPaths.cards.appendingPathComponent("card-gb-dark.jpg"))
        let kept = try Stripper.strip(bytes, source: "gb")
        #expect(try EncodedImage(bytes: kept, source: "gb").orientation == .right)
        #expect(MetadataReport.read(kept).kinds == [.exif])
        let dropped = try Stripper.strip(bytes, source: "gb", options: StripOptions(keepOrientation: false))
        #expect(try EncodedImage(bytes: dropped, source: "gb").orientation == .up)
        #expect(MetadataReport.read(dropped).kinds.isEmpty)
    }

    @Test func iccIsKeptOnlyWhenAsked() throws {
        guard let corpus = TestPaths.shared?.appendingPathComponent("corpora/metadata/exif-samples/jpg/Canon_40D.jpg") else {
            try Test.cancel("../shared is not beside the checkout")
        }
        let bytes = try TestPaths.bytes(corpus)
        #expect(MetadataReport.read(try Stripper.strip(bytes, source: "c")).kinds.contains(.icc) == false)
        #expect(MetadataReport.read(try Stripper.strip(bytes, source: "c", options: StripOptions(keepICC: true))).kinds.contains(.icc))
    }

    @Test func otherFormatsAreRefusedClearly() {
        let gif = Array("GIF89a".utf8) + [UInt8](repeating: 0, count: 40)
        #expect(throws: StripError.self) { try Stripper.strip(gif, source: "a.gif") }
        do { _ = try Stripper.strip(gif, source: "a.gif") } catch {
            #expect(error.code == .unsupportedFormat && error.description.hasPrefix("a.gif: "))
        }
    }
}
