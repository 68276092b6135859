// libFuzzer targets for the parsers that read untrusted bytes. Built only by `make fuzz`
// (scripts/fuzz.sh), with -sanitize=fuzzer,address and -DFUZZING; a plain build gives a stub
// that says how to run it.
//
//   cardscan-fuzz TARGET [libFuzzer options] [CORPUS ...]
//
// Targets: jpeg-segments, exif-tiff, metadata (JPEG/PNG/HEIC walkers and the stripper),
// stream-splitter, image-header (format sniffing and every decoder's header read),
// contact-parser, code-payload (vCard, MeCard and the rest a QR code may hold), privacy-linter.
import CardCodes
import PrivacyManifest
import ContactParser
import Foundation
import ImageIngest
import MetadataStripper

enum FuzzTarget: String, CaseIterable {
    case jpegSegments = "jpeg-segments"
    case exifTIFF = "exif-tiff"
    case metadata
    case streamSplitter = "stream-splitter"
    case imageHeader = "image-header"
    case contactParser = "contact-parser"
    case codePayload = "code-payload"
    case privacyLinter = "privacy-linter"

    /// Every decoder's header read; BMP and TIFF are also decoded (uncompressed ones row by row
    /// from their bytes, RawLayout), up to 64 K pixels: larger decodes under ASan grew the
    /// process past -rss_limit_mb (freed memory kept by its allocator) in 640,000 runs, without a leak.
    static func readHeader(_ bytes: [UInt8]) {
        let limits = ImageLimits(maxPixels: 4_000_000, maxBytes: 1 << 20, maxDecodeBytes: 32 << 20)
        guard let image = try? EncodedImage(bytes: bytes, source: "fuzz", limits: limits),
              image.format == .bmp || image.format == .tiff, image.storedWidth * image.storedHeight <= 1 << 16 else { return }
        _ = try? image.decode(minimumLongSide: 64, grayscale: true)
    }

    /// Runs one input through the target; a crash, a sanitizer report or a hang is a finding.
    func run(_ bytes: [UInt8]) {
        switch self {
        case .jpegSegments:
            guard let structure = JPEGStructure(bytes) else { return }
            _ = structure.frameSize(in: bytes)
            _ = structure.isProgressive
            if let exif = structure.exifPayload(in: bytes), let tiff = TIFFReader(bytes, range: exif) { _ = tiff.orientation }
        case .exifTIFF:
            guard let tiff = TIFFReader(bytes, range: 0..<bytes.count) else { return }
            _ = tiff.orientation
            var ifd: Int? = tiff.firstIFD
            var hops = 0
            while let offset = ifd, hops < 64 {
                _ = tiff.entries(ofIFDAt: offset)
                ifd = tiff.nextIFD(after: offset)
                hops += 1
            }
        case .metadata:
            _ = MetadataReport.read(bytes, values: true)
            _ = try? Stripper.strip(bytes, source: "fuzz")
        case .streamSplitter:
            var offset = 0
            // Small, uneven reads: boundaries fall anywhere.
            let splitter = ImageStreamSplitter(maxBytes: 1 << 16) { n in
                guard offset < bytes.count else { return nil }
                let k = min(n, 1 + (offset * 7919) % 97, bytes.count - offset)
                defer { offset += k }
                return Array(bytes[offset..<(offset + k)])
            }
            var count = 0
            while splitter.next() != nil, count < 10_000 { count += 1 }
        case .imageHeader:
            Self.readHeader(bytes)
        case .contactParser:
            let text = String(decoding: bytes, as: UTF8.self)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).prefix(200).map { TextLine(text: String($0.prefix(400))) }
            _ = ContactParser(fallbackRegion: "US", source: "option").parse(lines: lines)
        case .codePayload:
            _ = try? CodePayload.parse(bytes, region: "DE")
            // As a QR code's bytes: UTF-8, or ISO 8859-1 when they are not.
            if let text = DecodedCode(symbology: "QR-Code", payload: bytes).text { _ = try? CodePayload.parse(text, region: nil) }
        case .privacyLinter:
            _ = PrivacyManifestLinter.lint(data: Data(bytes), file: "fuzz.xcprivacy")
        }
    }
}

#if FUZZING
nonisolated(unsafe) var selectedTarget = FuzzTarget.jpegSegments

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<Int32>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

@main
struct FuzzMain {
    static func main() {
        var args = CommandLine.arguments
        guard args.count >= 2, let target = FuzzTarget(rawValue: args[1]) else {
            FileHandle.standardError.write(Data("usage: cardscan-fuzz \(FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")) [libFuzzer options] [corpus ...]\n".utf8))
            exit(2)
        }
        selectedTarget = target
        args.remove(at: 1)
        var cArgs: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
        var argc = Int32(args.count)
        let rc = cArgs.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = buffer.baseAddress
            return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
                let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
                selectedTarget.run(bytes)
                return 0
            }
        }
        exit(rc)
    }
}
#else
@main
struct FuzzMain {
    /// Without libFuzzer: runs each named file through a target once (to replay a finding).
    static func main() {
        let args = CommandLine.arguments
        guard args.count >= 3, let target = FuzzTarget(rawValue: args[1]) else {
            FileHandle.standardError.write(Data("cardscan-fuzz: build it with `make fuzz` to fuzz; here: cardscan-fuzz TARGET FILE... replays files\n".utf8))
            exit(2)
        }
        for path in args.dropFirst(2) {
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            target.run([UInt8](data))
        }
    }
}
#endif
