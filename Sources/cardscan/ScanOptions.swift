import ArgumentParser
import CardScan
import FileAccess
import Foundation

/// What to scan: paths, standard input (as one image or a stream), lists of paths.
struct InputOptions: ParsableArguments {
    @Argument(help: "Image files or folders; '-' reads one image from standard input.")
    var paths: [String] = []

    @Flag(name: .long, help: "Read '-' as a stream of concatenated JPEG or PNG images (e.g. cat *.jpg, or MJPEG frames).")
    var stream = false

    @Option(name: .long, help: "Also scan the paths listed in this file, one per line ('-' for standard input).")
    var filesFrom: String?

    @Flag(name: [.customShort("0"), .customLong("null")], help: "Paths in --files-from are separated by NUL bytes, not newlines.")
    var nulSeparated = false

    @Flag(name: .long, help: "Follow symbolic links to folders, and links that lead out of a scanned folder.")
    var followLinks = false

    @Option(name: .long, help: "Scan only the K-th of N shares of the inputs (K/N, K from 1 to N, e.g. 2/8), to spread a large archive over machines.",
            transform: Shard.parse)
    var shard: Shard?

    func validate() throws {
        if paths.isEmpty && filesFrom == nil {
            throw ValidationError("name at least one image file or folder, - for standard input, or --files-from LIST")
        }
        if paths.filter({ $0 == "-" }).count + (filesFrom == "-" ? 1 : 0) > 1 {
            throw ValidationError("standard input can be read only once: use '-' or '--files-from -', not both")
        }
        if stream && !paths.contains("-") { throw ValidationError("--stream reads standard input: add '-' to the paths") }
    }

    /// True when the inputs can be listed without reading standard input (for a progress total).
    var listable: Bool { !paths.contains("-") && filesFrom != "-" }

    /// The files named on the command line (the --files-from list among them), as bytes.
    var namedFiles: [FilePathBytes] {
        (paths + [filesFrom].compactMap { $0 }).filter { $0 != "-" }.map(RawArguments.path)
    }
}

/// How to read: OCR languages, the region fallback, card finding, workers.
struct ReadingOptions: ParsableArguments {
    @Option(name: [.short, .long], parsing: .unconditional,
            help: "Parallel workers, each with its own OCR engine (default and most: the number of cores).")
    var jobs: Int?

    @Flag(name: .long, help: "Allow --jobs over the number of cores (each worker holds an engine: about 40 MB more).")
    var forceJobs = false

    @Option(name: .long, help: "Tesseract languages, e.g. eng or eng+deu (default: eng).", transform: { text in
        guard let languages = OCRLanguages(text) else {
            throw ValidationError("--lang takes Tesseract language codes joined by '+', such as eng or eng+deu")
        }
        return languages
    })
    var lang: OCRLanguages = .english

    @Option(name: .long, help: "Region for phone numbers without a country code when the card gives no clue (ISO 3166, e.g. US, GB, DE; default: the locale's, from LC_ALL or LANG).")
    var region: String?

    @Option(name: .long, help: "The English model: fast (Debian's, tessdata_fast; the default) or standard (tessdata's, installed by make model-standard).")
    var model: ModelChoice = .fast

    @Option(name: .long, help: "Tesseract page segmentation: auto (3), block (6) or sparse (11).")
    var pageSegmentation: PageSegmentationChoice = .block

    @Flag(name: .long, help: "Read the whole frame instead of finding the card (for scans already cropped to the card).")
    var wholeFrame = false

    @Option(name: .long, help: "Codes to read on the card, whose data wins over OCR for the fields it holds: qr (the default), all (QR and bar codes) or off.")
    var codes: CodeScanning = .qr

    @Flag(name: .long, inversion: .prefixedNo,
          help: "Read a card from a country of another language a second time with that language's data (accents, umlauts, ß).")
    var nativeReading = true

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1 (it was \(jobs))") }
        if let region, !CardScanner.isKnownRegion(region) {
            throw ValidationError("--region takes an ISO 3166 country code such as US, GB or DE; \(DisplayText.escaping(region)) is none")
        }
        _ = try model.folder(languages: lang)
    }

    /// Applies these options; more workers than cores are capped unless forced (with a warning).
    func apply(to configuration: inout ScanConfiguration) {
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
        configuration.detectCard = !wholeFrame
        configuration.nativeSecondReading = nativeReading
        configuration.codes = codes
        configuration.pageSegmentation = pageSegmentation.mode
        configuration.tessdataPath = try? model.folder(languages: lang)
    }
}

/// Limits against hostile input.
struct LimitOptions: ParsableArguments {
    @Option(name: .long, help: "Refuse images with more pixels than this (megapixels).")
    var maxMegapixels: Int = 100

    @Option(name: .long, help: "Refuse input files larger than this (megabytes).")
    var maxMegabytes: Int = 256

    @Option(name: .long, help: "Memory decoding may take at once, shared by all workers (megabytes); an image that needs more alone is refused.")
    var maxDecodeMegabytes: Int = 192

    func validate() throws {
        if maxMegabytes < 1 { throw ValidationError("--max-megabytes must be at least 1") }
        if maxMegapixels < 1 { throw ValidationError("--max-megapixels must be at least 1") }
        if maxDecodeMegabytes < 16 { throw ValidationError("--max-decode-megabytes must be at least 16") }
    }

    func apply(to configuration: inout ScanConfiguration) {
        configuration.limits.maxPixels = maxMegapixels * 1_000_000
        configuration.limits.maxBytes = maxMegabytes << 20
        configuration.limits.maxDecodeBytes = maxDecodeMegabytes << 20
    }
}

/// Where records and side outputs go, and what is said on stderr.
struct OutputOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Output format: jsonl, json, csv, vcard (4.0), vcard3, google-csv or outlook-csv.",
        discussion: "Without it: a readable table (file, name, organisation, phone, e-mail, status) when standard output is a terminal, JSON Lines otherwise. vcard, vcard3, google-csv and outlook-csv hold contacts only, merged (see --merge)."))
    var format: ExportFormat?

    @Flag(name: .long, help: "Merge photos of the same person (front and back, or twice) into one contact, by the contact book's rules: the default for vcard, vcard3, google-csv and outlook-csv (--no-merge keeps each).")
    var merge = false

    @Option(name: [.short, .customLong("output")], help: "Write the records to this file (atomically: FILE.partial while running, renamed at the end); - is standard output.")
    var output: String?

    @Flag(name: .long, help: "With -o FILE: skip inputs already recorded in FILE or FILE.partial, keeping their records.")
    var resume = false

    @Flag(name: .long, help: "Let -o replace an existing file that does not hold cardscan's records.")
    var force = false

    @Option(name: .long, help: "Also write a sanitized copy (no metadata) of each scanned JPEG or PNG into this folder.")
    var stripTo: String?

    @Option(name: .long, help: ArgumentHelp(
        "Write NAME.card.png (the straightened card) and NAME.overlay.png (the outlines weighed, the one chosen) per photo into this folder.",
        discussion: "They show the card's text as pixels: mode 0600, no metadata, never written over an existing file."))
    var debugDir: String?

    @Option(name: .long, help: ArgumentHelp(
        "Also write a review page: one self-contained HTML file with every card beside its record, worst first.",
        discussion: "It holds the cards' text and pictures: written only when asked, atomically, mode 0600; an existing file is replaced only when it is a cardscan report (or with --force)."))
    var report: String?

    @Option(name: .long, help: ArgumentHelp(
        "Also add each contact read to this local contact book (SQLite; created when missing); see `cardscan contacts`.",
        discussion: "A contact sharing an e-mail address, an E.164 number, or its name at its organisation with one already there is merged into it. The source file name and scan time are stored; no picture, and no OCR text unless --keep-text."))
    var db: String?

    @Flag(name: .long, help: "Keep each contact apart: in the book (--db), even when it matches one already stored, and in vcard or CSV contact outputs.")
    var noMerge = false

    @Flag(name: .long, help: "With --db: also store the OCR text of each card.")
    var keepText = false

    @Option(name: .long, help: "Progress line on stderr: auto (when stderr is a terminal that is not also standard output), always or never.")
    var progress: ProgressMode = .auto

    @Flag(name: [.short, .long], help: "No progress line (whatever --progress says).")
    var quiet = false

    @Flag(name: [.short, .long], help: "More diagnostics on stderr (never text read from a card).")
    var verbose = false

    func validate() throws {
        try requireFolder(stripTo, option: "--strip-to")
        try requireFolder(debugDir, option: "--debug-dir")
        if resume && (output == nil || output == "-") {
            throw ValidationError("--resume needs -o FILE: it continues the records in FILE or FILE.partial")
        }
        if resume && effectiveFormat != .jsonl { throw ValidationError("--resume works with --format jsonl") }
        if merge && !effectiveFormat.holdsContactsOnly {
            throw ValidationError("--merge works with --format vcard, vcard3, google-csv or outlook-csv (the other formats keep one record per photo)")
        }
        if merge && noMerge { throw ValidationError("--merge and --no-merge ask for opposite things; give one") }
    }

    /// The records' format: --format, else JSON Lines (the table on a terminal is `showsTable`).
    var effectiveFormat: ExportFormat { format ?? .jsonl }

    /// True when no --format was given and the records go to a terminal: a readable table.
    var showsTable: Bool { format == nil && (output == nil || output == "-") && isatty(STDOUT_FILENO) == 1 }

    /// True when the contacts of the batch are merged before they are written.
    var mergesOutput: Bool { effectiveFormat.holdsContactsOnly && !noMerge }

    func apply(to configuration: inout ScanConfiguration) {
        configuration.stripDirectory = stripTo
        configuration.debugDirectory = debugDir
        configuration.cardPictures = report != nil
        configuration.keepText = db != nil && keepText
        configuration.fingerprints = db != nil
    }

    /// Refuses a --db that names an input, an image, or what is not a regular file (a book that
    /// is not SQLite is refused when opened).
    func checkBook(inputs: [FilePathBytes]) throws(FileError) {
        guard let db else { return }
        _ = try OutputTarget.existing(db, option: "--db", inputs: inputs, writes: "a contact book", elsewhere: "")
    }

    /// Refuses outputs that name the same file (-o, --report, --db and the files each writes beside it).
    func claims(records: FilePathBytes?, report: FilePathBytes?) throws(FileError) {
        var claims = OutputClaims()
        if let records { try claims.claim("-o", OutputClaims.records(records)) }
        if let report { try claims.claim("--report", [report]) }
        if let db { try claims.claim("--db", OutputClaims.book(RawArguments.path(db))) }
    }

    /// The output file (nil for standard output), checked so that nothing a user has is lost,
    /// with the records of an earlier run when resuming.
    func target(inputs: [FilePathBytes]) throws(FileError) -> (path: FilePathBytes?, carryOver: [String], done: Set<String>) {
        guard let output, output != "-" else { return (nil, [], []) }
        let path = try OutputTarget.check(output, format: effectiveFormat, inputs: inputs, resume: resume, force: force)
        let partial = path.appendingSuffix(".partial")
        if resume {
            let (lines, done) = try ResumeState.load(path)
            Diagnostics.info("resuming: \(done.count) inputs already recorded in \(path.display) or \(partial.display)")
            return (path, lines, done)
        }
        if (try? SystemFile.status(partial, followLinks: false)) != nil {
            throw FileError(.exists, path: partial.display,
                            reason: "holds the records of an interrupted run; continue it with --resume, or delete it")
        }
        return (path, [], [])
    }
}
