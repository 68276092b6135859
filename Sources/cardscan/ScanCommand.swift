import ArgumentParser
import CardScan
import FileAccess
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

    @Option(name: [.short, .long], parsing: .unconditional,
            help: "Parallel workers, each with its own OCR engine (default and most: the number of cores).")
    var jobs: Int?

    @Flag(name: .long, help: "Allow --jobs over the number of cores (each worker holds an engine: about 40 MB more).")
    var forceJobs = false

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

    @Option(name: .long, help: "Memory decoding may take at once, shared by all workers (megabytes); an image that needs more alone is refused.")
    var maxDecodeMegabytes: Int = 192

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

    @Flag(name: .long, help: "Let -o replace an existing file that does not hold cardscan's records.")
    var force = false

    @Flag(name: .long, help: "Follow symbolic links to folders, and links that lead out of a scanned folder.")
    var followLinks = false

    @Option(name: .long, help: "Scan only the K-th of N shares of the inputs (K/N, K from 1 to N, e.g. 2/8), to spread a large archive over machines.",
            transform: Shard.parse)
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
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1 (it was \(jobs))") }
        if !Self.languagePattern.matches(lang) {
            throw ValidationError("--lang takes Tesseract language codes joined by '+', such as eng or eng+deu")
        }
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
        if let region, !CardScanner.isKnownRegion(region) {
            throw ValidationError("--region takes an ISO 3166 country code such as US, GB or DE; \(DisplayText.escaping(region)) is none")
        }
        if maxMegapixels < 1 { throw ValidationError("--max-megapixels must be at least 1") }
        if maxDecodeMegabytes < 16 { throw ValidationError("--max-decode-megabytes must be at least 16") }
    }

    /// Tesseract language codes (eng, chi_sim, deu_latf ...) joined by '+'.
    static let languagePattern = LanguagePattern()

    struct LanguagePattern {
        func matches(_ s: String) -> Bool {
            let parts = s.split(separator: "+", omittingEmptySubsequences: false)
            return !parts.isEmpty && parts.allSatisfy { part in
                (3...16).contains(part.count) && part.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") }
            }
        }
    }

    func run() throws {
        Diagnostics.setVerbose(verbose)
        var configuration = ScanConfiguration()
        configuration.languages = lang
        if let region {
            configuration.fallbackRegion = region.uppercased()
            configuration.fallbackRegionSource = "option"
        }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        if let jobs {
            configuration.workers = jobs
            if jobs > cores && !forceJobs {
                configuration.workers = cores
                Diagnostics.warning("--jobs \(jobs) is more than the \(cores) cores: using \(cores) (each worker holds an OCR engine; --force-jobs to insist)")
            }
        }
        configuration.stripDirectory = stripTo
        configuration.debugDirectory = debugDir
        configuration.detectCard = !wholeFrame
        configuration.nativeSecondReading = nativeReading
        configuration.pageSegmentation = pageSegmentation.mode
        configuration.limits.maxPixels = maxMegapixels * 1_000_000
        configuration.limits.maxBytes = maxMegabytes << 20
        configuration.limits.maxDecodeBytes = maxDecodeMegabytes << 20

        // Nothing is read or written before the output is known to be safe to write.
        let named = paths.filter { $0 != "-" }.map(RawArguments.path)
        var outputPath: FilePathBytes?
        var done = Set<String>()
        var carryOver: [String] = []
        if let output, output != "-" {
            do {
                let path = try OutputTarget.check(output, format: format, inputs: named, resume: resume, force: force)
                outputPath = path
                let partial = FilePathBytes(bytes: path.bytes + Array(".partial".utf8))
                if resume {
                    (carryOver, done) = try ResumeState.load(path)
                    Diagnostics.info("resuming: \(done.count) inputs already recorded in \(path.display) or \(partial.display)")
                } else if (try? SystemFile.status(partial, followLinks: false)) != nil {
                    Diagnostics.error("\(partial.display) holds the records of an interrupted run; continue it with --resume, or delete it")
                    throw ExitCode(2)
                }
            } catch let error as FileError {
                Diagnostics.error(error.description)
                throw ExitCode(2)
            }
        } else if resume {
            Diagnostics.error("--resume needs -o FILE: it continues the records in FILE or FILE.partial")
            throw ExitCode(2)
        }

        let scanner: CardScanner
        do {
            scanner = try CardScanner(configuration: configuration)
        } catch {
            Diagnostics.error(error.message)
            throw ExitCode(2)
        }
        let sink: RecordSink
        do {
            sink = try RecordSink(format: format, path: outputPath, carryOver: carryOver)
        } catch {
            Diagnostics.error(error.description)
            throw ExitCode(2)
        }

        let interruption = Interruption.install()
        let plan = InputPlan(paths: paths, stream: stream, filesFrom: filesFrom, nulSeparated: nulSeparated,
                             maxBytes: configuration.limits.maxBytes, followLinks: followLinks,
                             shouldStop: { interruption.requested })
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

        var failures = 0
        var scanned = 0
        var writeFailure: FileError?
        scanner.scan(inputs, shouldStop: { interruption.requested || interruption.failed }) { record in
            guard writeFailure == nil else { return }
            scanned += 1
            if record.status == .error {
                failures += 1
                Diagnostics.error(record.error?.message ?? "\(record.source): failed")
            }
            for problem in record.outputErrors {
                failures += 1
                Diagnostics.error(problem.message)
            }
            do throws(FileError) {
                try sink.write(record)
            } catch {
                writeFailure = error
                interruption.fail()
            }
            progressLine.advance()
        }
        progressLine.finish()
        scanner.releaseEngines()
        if let writeFailure {
            sink.abandon()
            var message = writeFailure.description + "; the scan was stopped"
            if let partial = sink.partialPath { message += ", and the records written so far are in \(partial.display) (go on with --resume)" }
            Diagnostics.error(message)
            throw ExitCode(1)
        }
        if interruption.requested {
            sink.abandon()
            if let partial = sink.partialPath {
                Diagnostics.error("interrupted: the records finished so far are in \(partial.display); run again with --resume to go on")
            }
            throw ExitCode(130)
        }
        do {
            try sink.finish()
        } catch {
            Diagnostics.error(error.description)
            throw ExitCode(1)
        }
        if scanned == 0 && done.isEmpty {
            Diagnostics.error("no images found to scan in \((paths + (filesFrom.map { ["--files-from " + $0] } ?? [])).map { DisplayText.escaping($0) }.joined(separator: ", "))")
            throw ExitCode(1)
        }
        if failures > 0 { throw ExitCode(1) }
    }
}

/// How many shares the inputs are cut into, and which one to scan: K/N.
struct Shard {
    let index: Int
    let count: Int

    static func parse(_ argument: String) throws -> Shard {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(k) else {
            throw ValidationError("--shard takes K/N with N at least 1 and K counting from 1 to N (e.g. 1/3, 2/3, 3/3)")
        }
        return Shard(index: k, count: n)
    }
}

/// When to draw the progress line.
enum ProgressMode: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never

    func shows(quiet: Bool) -> Bool {
        switch self {
        case _ where quiet: return false
        case .always: return true
        case .never: return false
        case .auto: return isatty(STDERR_FILENO) == 1 && !Self.sameTerminal(STDOUT_FILENO, STDERR_FILENO)
        }
    }

    /// True when both descriptors are the same terminal (records and the progress line would mix).
    static func sameTerminal(_ a: Int32, _ b: Int32) -> Bool {
        guard isatty(a) == 1, isatty(b) == 1 else { return false }
        var sa = stat(), sb = stat()
        guard fstat(a, &sa) == 0, fstat(b, &sb) == 0 else { return true }
        return sa.st_rdev == sb.st_rdev
    }
}

/// SIGINT and SIGTERM: the first asks the scan to stop taking new images (those in flight are
/// finished and their records written); a second one ends the process at once.
final class Interruption: @unchecked Sendable {
    // Safe: `flag` is only touched with `lock` held; the signal sources run on their own queue.
    private let lock = NSLock()
    private var flag = false
    private var failedFlag = false
    private var sources: [DispatchSourceSignal] = []

    var requested: Bool { lock.withLock { flag } }
    /// True once the run must stop for an error of its own (a failed write).
    var failed: Bool { lock.withLock { failedFlag } }
    func fail() { lock.withLock { failedFlag = true } }

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
    /// A failed write (a full disk, a closed pipe) ends the command with a message and exit 1.
    static func emit(_ s: String) {
        do {
            try SystemFile.writeAll(STDOUT_FILENO, Array(s.utf8), name: "standard output")
        } catch {
            Diagnostics.error(error.description)
            Foundation.exit(1)
        }
    }
}

