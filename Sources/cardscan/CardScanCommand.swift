import ArgumentParser
import CardScan
import Lockdown
import Foundation

@main
struct CardScanMain {
    static func main() {
        MallocPolicy.apply()
        // Over a file-size limit (ulimit -f) a write fails with EFBIG, which is reported, rather
        // than the process being killed mid-record.
        signal(SIGXFSZ, SIG_IGN)
        // Before any input is read, for every subcommand, with no way to turn it off.
        if case .failed(let reason) = NetworkLockdown.engage() {
            FileHandle.standardError.write(Data("cardscan: the network lockdown could not be installed (\(reason)); refusing to run without it\n".utf8))
            Foundation.exit(2)
        }
        do {
            var command = try CardScanCommand.parseAsRoot(ContactsCommand.reordered(Array(CommandLine.arguments.dropFirst())))
            try command.run()
        } catch {
            // Usage errors exit 2 (argument parser's default is 64), as the README documents.
            if CardScanCommand.exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((CardScanCommand.fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            // --help, --version, --generate-completion-script: their text is output like records
            // are, checked (argument parser's print ignored a failed write and exited 0).
            if CardScanCommand.exitCode(for: error) == .success {
                let text = CardScanCommand.fullMessage(for: error)
                if !text.isEmpty { RecordWriter.emit(text + "\n") }
                Foundation.exit(0)
            }
            CardScanCommand.exit(withError: error)
        }
    }
}

/// `cardscan`: business-card photos to contact records, on this machine only.
struct CardScanCommand: ParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "cardscan",
        abstract: "Turn photos of business cards into contact records, entirely on this device.",
        discussion: """
            Decodes each photo, drops its metadata, finds and straightens the card, reads it with \
            Tesseract and parses the text into a contact: name, title, organisation, phones, \
            e-mails, web sites and postal address. Nothing is sent anywhere.
            """,
        version: CardScanVersion.string + " (" + CardScanVersion.lockdown + ")",
        subcommands: [ScanCommand.self, ServeCommand.self, StripCommand.self, InspectCommand.self, PrivacyCommand.self, ContactsCommand.self],
        defaultSubcommand: ScanCommand.self
    ) }
}

enum CardScanVersion {
    static let string = "cardscan 0.1.0"

    static var lockdown: String {
        switch NetworkLockdown.status {
        case .active?: return "network lockdown: active, no socket but AF_UNIX can be created"
        case .unsupported?: return "network lockdown: not available on this platform"
        case .failed(let reason)?: return "network lockdown: failed (\(reason))"
        case nil: return "network lockdown: not engaged"
        }
    }
}

/// Photos and Tesseract's page structures are allocated and freed by the tens of megabytes. glibc
/// raises its mmap threshold each time such a block is freed, after which large blocks come from
/// the heap arenas and stay there: the peak then creeps up over a long batch. A fixed threshold
/// keeps large blocks in mmap, returned to the system when freed. 2 MB rather than lower: the
/// detection planes (about 1.2 MB each) then come from the heap instead of being mapped and zeroed
/// afresh for every photo, which costs time in the kernel. The trim threshold is 16 MB: each
/// worker frees about 10 MB of planes after a photo and allocates them again for the next, and
/// below the threshold they stay in its heap instead of being returned and faulted in and zeroed
/// afresh; the peak stays flat over a long batch (`make bench-memory`). The CLI's policy, not the
/// library's.
enum MallocPolicy {
    static func apply() {
        #if os(Linux)
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        _ = mallopt(-3, 2 * 1024 * 1024)  // M_MMAP_THRESHOLD
        _ = mallopt(-1, 16 * 1024 * 1024)  // M_TRIM_THRESHOLD
        #endif
    }
}
