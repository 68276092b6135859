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

    @Option(name: .long, help: "Region for phone numbers without a country code when the card gives no clue (ISO 3166, e.g. US, GB, DE; default: the locale's, from LC_ALL or LANG).")
    var region: String?

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

    @Flag(name: .long, inversion: .prefixedNo,
          help: "Read a card from a country of another language a second time with that language's data (accents, umlauts, ß).")
    var nativeReading = true

    @Option(name: [.short, .customLong("output")], help: "Write the records to this file (atomically: FILE.partial while running, renamed at the end).")
    var output: String?

    @Flag(name: .long, help: "With -o FILE: skip inputs already recorded in FILE or FILE.partial, keeping their records.")
    var resume = false

    @Option(name: .long, help: "Scan only the K-th of N shares of the inputs (K/N, e.g. 2/8), to spread a large archive over machines.")
    var shard: Shard?

    @Option(name: .long, help: "Progress line on stderr: auto (when stderr is a terminal), always or never.")
    var progress: ProgressMode = .auto

    @Flag(name: [.short, .long], help: "No progress line.")
    var quiet = false

    @Flag(name: [.short, .long], help: "More diagnostics on stderr (never text read from a card).")
    var verbose = false

    @Option(name: .long, help: "Also write a sanitized copy (no metadata) of each scanned JPEG or PNG into this folder.")
    var stripTo: String?

    @Option(name: .long, help: ArgumentHelp(
        "Write NAME.card.png (the straightened card) and NAME.overlay.png (the outlines weighed, the one chosen) per photo into this folder.",
        discussion: "They show the card's text as pixels: mode 0600, no metadata, never written over an existing file."))
    var debugDir: String?

    func validate() throws {
        for (option, folder) in [("--strip-to", stripTo), ("--debug-dir", debugDir)] {
            guard let folder else { continue }
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDir), isDir.boolValue else {
                throw ValidationError("\(option) \(folder): no such folder; create it first")
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
        if resume && output == nil { throw ValidationError("--resume needs -o FILE: it continues the records in FILE or FILE.partial") }
        if resume && format != .jsonl { throw ValidationError("--resume works with --format jsonl") }
        if let region, region.count != 2 || !region.allSatisfy(\.isLetter) {
            throw ValidationError("--region takes a two-letter country code such as US, GB or DE")
        }
        if maxMegapixels < 1 { throw ValidationError("--max-megapixels must be at least 1") }
    }

    func run() throws {
        Diagnostics.setVerbose(verbose)
        var configuration = ScanConfiguration()
        configuration.languages = lang
        if let region {
            configuration.fallbackRegion = region.uppercased()
            configuration.fallbackRegionSource = "option"
        }
        if let jobs { configuration.workers = jobs }
        configuration.stripDirectory = stripTo
        configuration.debugDirectory = debugDir
        configuration.detectCard = !wholeFrame
        configuration.nativeSecondReading = nativeReading
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

        // Earlier records (--resume), and the output file's partial sibling.
        var done = Set<String>()
        var carryOver: [String] = []
        if resume, let output {
            (carryOver, done) = ResumeState.load(output)
            Diagnostics.info("resuming: \(done.count) inputs already recorded in \(output) or \(output).partial")
        } else if let output, FileManager.default.fileExists(atPath: output + ".partial") {
            Diagnostics.error("\(output).partial holds the records of an interrupted run; continue it with --resume, or delete it")
            throw ExitCode(2)
        }
        let sink: RecordSink
        do {
            sink = try RecordSink(format: format, path: output, carryOver: carryOver)
        } catch {
            Diagnostics.error(error.message)
            throw ExitCode(2)
        }

        let plan = InputPlan(paths: paths, stream: stream, filesFrom: filesFrom, nulSeparated: nulSeparated,
                             maxBytes: configuration.limits.maxBytes)
        var inputs = plan.inputs()
        if let shard {
            inputs = AnySequence(inputs.enumerated().lazy.filter { $0.offset % shard.count == shard.index - 1 }.map(\.element))
        }
        if !done.isEmpty {
            inputs = AnySequence(inputs.lazy.filter { !done.contains($0.source) })
        }
        // A total for the progress line, when the inputs can be listed without reading stdin.
        let showProgress = progress.shows(quiet: quiet)
        var total: Int?
        if showProgress && !paths.contains("-") && filesFrom != "-" {
            let listed = Array(inputs)
            total = listed.count
            inputs = AnySequence(listed)
        }
        let progressLine = ProgressLine(enabled: showProgress, total: total)

        let interruption = Interruption.install()
        var failures = 0
        scanner.scan(inputs, shouldStop: { interruption.requested }) { record in
            if record.status == .error {
                failures += 1
                Diagnostics.error(record.error?.message ?? "\(record.source): failed")
            }
            sink.write(record)
            progressLine.advance()
        }
        progressLine.finish()
        scanner.releaseEngines()
        if interruption.requested {
            sink.abandon()
            if let partial = sink.partialPath {
                Diagnostics.error("interrupted: the records finished so far are in \(partial); run again with --resume to go on")
            }
            throw ExitCode(130)
        }
        do {
            try sink.finish()
        } catch {
            Diagnostics.error(error.message)
            throw ExitCode(1)
        }
        if failures > 0 { throw ExitCode(1) }
    }
}

/// How many shares the inputs are cut into, and which one to scan: K/N.
struct Shard: ExpressibleByArgument {
    let index: Int
    let count: Int

    init?(argument: String) {
        let parts = argument.split(separator: "/")
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(k) else { return nil }
        index = k
        count = n
    }
}

/// When to draw the progress line.
enum ProgressMode: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never

    func shows(quiet: Bool) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto: return !quiet && isatty(STDERR_FILENO) == 1
        }
    }
}

/// SIGINT and SIGTERM: the first asks the scan to stop taking new images (those in flight are
/// finished and their records written); a second one ends the process at once.
final class Interruption: @unchecked Sendable {
    // Safe: `flag` is only touched with `lock` held; the signal sources run on their own queue.
    private let lock = NSLock()
    private var flag = false
    private var sources: [DispatchSourceSignal] = []

    var requested: Bool { lock.withLock { flag } }

    static func install() -> Interruption {
        let interruption = Interruption()
        let queue = DispatchQueue(label: "cardscan.signals")
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler {
                let again = interruption.lock.withLock { () -> Bool in
                    defer { interruption.flag = true }
                    return interruption.flag
                }
                if again { _exit(130) }
            }
            source.resume()
            interruption.sources.append(source)
        }
        return interruption
    }
}

/// Writes text to standard output at once.
enum RecordWriter {
    static func emit(_ s: String) {
        FileHandle.standardOutput.write(Data(s.utf8))
    }
}

