import ArgumentParser
import CardScan
import Foundation

extension ExportFormat: ExpressibleByArgument {}

/// Tesseract's page segmentation modes, as the command line names them.
enum PageSegmentationChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, block, sparse
    var mode: PageSegmentation {
        switch self {
        case .auto: return .auto
        case .block: return .singleBlock
        case .sparse: return .sparse
        }
    }
}

struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Scan card photos (files, folders, or - for stdin) and print one record per image.",
        discussion: """
            Folders are walked recursively in sorted order; files are recognised as images by \
            their content, not their name. Records come out in input order as JSON Lines. Exit \
            status: 0 when every input was scanned, 1 when some failed, 2 for usage errors.
            """
    )

    @Argument(help: "Image files or folders; '-' reads one image from standard input.")
    var paths: [String] = []

    @Flag(name: .long, help: "Read '-' as a stream of concatenated JPEG or PNG images (e.g. cat *.jpg, or MJPEG frames).")
    var stream = false

    @Option(name: .long, help: "Also scan the paths listed in this file, one per line ('-' for standard input).")
    var filesFrom: String?

    @Flag(name: [.customShort("0"), .customLong("null")], help: "Paths in --files-from are separated by NUL bytes, not newlines.")
    var nulSeparated = false

    @Option(name: [.short, .long], help: "Parallel workers, each with its own OCR engine (default: number of cores).")
    var jobs: Int?

    @Option(name: .long, help: "Tesseract languages, e.g. eng or eng+deu.")
    var lang: String = "eng"

    @Option(name: .long, help: "Region for phone numbers without a country code when the card gives no clue (ISO 3166, e.g. US, GB, DE).")
    var region: String = "US"

    @Option(name: .long, help: "Output format.")
    var format: ExportFormat = .jsonl

    @Option(name: .long, help: "Refuse images with more pixels than this (megapixels).")
    var maxMegapixels: Int = 100

    @Option(name: .long, help: "Refuse input files larger than this (megabytes).")
    var maxMegabytes: Int = 256

    @Option(name: .long, help: "Tesseract page segmentation: auto (3), block (6) or sparse (11).")
    var pageSegmentation: PageSegmentationChoice = .block

    @Flag(name: .long, help: "Read the whole frame instead of finding the card (for scans already cropped to the card).")
    var wholeFrame = false

    @Option(name: .long, help: "Also write a sanitized copy (no metadata) of each scanned JPEG or PNG into this folder.")
    var stripTo: String?

    func validate() throws {
        if let stripTo {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: stripTo, isDirectory: &isDir), isDir.boolValue else {
                throw ValidationError("\(stripTo): no such folder; create it first")
            }
        }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if paths.isEmpty && filesFrom == nil {
            throw ValidationError("name at least one image file or folder, - for standard input, or --files-from LIST")
        }
        if paths.filter({ $0 == "-" }).count + (filesFrom == "-" ? 1 : 0) > 1 {
            throw ValidationError("standard input can be read only once: use '-' or '--files-from -', not both")
        }
        if stream && !paths.contains("-") { throw ValidationError("--stream reads standard input: add '-' to the paths") }
        if maxMegabytes < 1 { throw ValidationError("--max-megabytes must be at least 1") }
        if region.count != 2 || !region.allSatisfy(\.isLetter) { throw ValidationError("--region takes a two-letter country code such as US, GB or DE") }
        if maxMegapixels < 1 { throw ValidationError("--max-megapixels must be at least 1") }
    }

    func run() throws {
        var configuration = ScanConfiguration()
        configuration.languages = lang
        configuration.fallbackRegion = region.uppercased()
        if let jobs { configuration.workers = jobs }
        configuration.stripDirectory = stripTo
        configuration.detectCard = !wholeFrame
        configuration.pageSegmentation = pageSegmentation.mode
        configuration.limits.maxPixels = maxMegapixels * 1_000_000
        configuration.limits.maxBytes = maxMegabytes << 20
        let scanner: CardScanner
        do {
            scanner = try CardScanner(configuration: configuration)
        } catch {
            Diagnostics.error(error.message)
            throw ExitCode(2)
        }
        let plan = InputPlan(paths: paths, stream: stream, filesFrom: filesFrom, nulSeparated: nulSeparated,
                             maxBytes: configuration.limits.maxBytes)
        var failures = 0
        let output = RecordWriter(format: format)
        scanner.scan(plan.inputs()) { record in
            if record.status == .error {
                failures += 1
                Diagnostics.error(record.error?.message ?? "\(record.source): failed")
            }
            output.write(record)
        }
        output.finish()
        scanner.releaseEngines()
        if failures > 0 { throw ExitCode(1) }
    }
}

/// Writes records to standard output as they come, flushing each one.
final class RecordWriter {
    private var exporter: RecordExporter

    init(format: ExportFormat) {
        exporter = RecordExporter(format: format)
        let header = exporter.header()
        if !header.isEmpty { Self.emit(header) }
    }

    func write(_ record: ScanRecord) {
        let text = exporter.text(for: record)
        if !text.isEmpty { Self.emit(text) }
    }

    func finish() {
        let footer = exporter.footer()
        if !footer.isEmpty { Self.emit(footer) }
    }

    static func emit(_ s: String) {
        // One write(2) per record: a consumer of the pipe sees each record as soon as it is done.
        FileHandle.standardOutput.write(Data(s.utf8))
    }
}

/// One line per problem on stderr; never any text read from a card.
enum Diagnostics {
    static func error(_ message: String) {
        FileHandle.standardError.write(Data("cardscan: \(message)\n".utf8))
    }
}
