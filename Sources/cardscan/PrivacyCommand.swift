import CardFormats
import ArgumentParser
import CardScan
import PrivacyManifest
import FileAccess
import Foundation

struct PrivacyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "privacy",
        abstract: "Check cardscan's no-network lockdown, or lint an app's privacy manifest.",
        subcommands: [PrivacyStatusCommand.self, PrivacyLintCommand.self],
        defaultSubcommand: PrivacyStatusCommand.self
    )
}

struct PrivacyStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the network lockdown and prove it: try to open network sockets from this process.",
        discussion: "Exit status 0 when every network socket is refused and a local (AF_UNIX) one still works, 1 otherwise."
    )

    @Option(name: .long, help: "Output format: text or json.")
    var format: InspectCommand.InspectFormat = .text

    func run() throws {
        let probes: [(String, Int32, Int32)] = [
            ("AF_INET", AF_INET, Int32(SOCK_STREAM.rawValue)), ("AF_INET6", AF_INET6, Int32(SOCK_DGRAM.rawValue)),
            ("AF_PACKET", AF_PACKET, Int32(SOCK_RAW.rawValue)), ("AF_NETLINK", AF_NETLINK, Int32(SOCK_RAW.rawValue)),
            ("AF_UNIX", AF_UNIX, Int32(SOCK_STREAM.rawValue)),
        ]
        var results: [(String, Int32?)] = []
        for (name, domain, type) in probes { results.append((name, NetworkLockdown.trySocket(domain: domain, type: type))) }
        if NetworkLockdown.hasX32 {
            // The same call through the x32 ABI, which a filter comparing numbers exactly lets by.
            results.insert(("AF_INET via x32", NetworkLockdown.trySocketThroughX32(domain: AF_INET, type: Int32(SOCK_STREAM.rawValue))), at: 1)
        }
        let networkRefused = results.filter { $0.0 != "AF_UNIX" }.allSatisfy { $0.1 == EACCES }
        let unixWorks = results.first { $0.0 == "AF_UNIX" }?.1 == nil
        switch format {
        case .text:
            var text = CardScanVersion.lockdown + "\n"
            text += "seccomp filter present: \(NetworkLockdown.filterPresent ? "yes" : "no")\n"
            for (name, errno) in results {
                let outcome = errno.map { $0 == EACCES ? "refused (EACCES)" : "failed (\(String(cString: strerror($0))))" } ?? "created"
                text += "socket(\(name)): \(outcome)\n"
            }
            RecordWriter.emit(text)
        case .json:
            let pairs: [(String, JSONValue)] = [
                ("lockdown", .string(CardScanVersion.lockdown)), ("filterPresent", .bool(NetworkLockdown.filterPresent)),
                ("sockets", .object(results.map { ($0.0, $0.1.map { .string($0 == EACCES ? "EACCES" : String(cString: strerror($0))) } ?? .string("created")) })),
            ]
            RecordWriter.emit(JSONValue.object(pairs).serialized() + "\n")
        }
        if !(networkRefused && unixWorks) { throw ExitCode(1) }
    }
}

struct PrivacyLintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check PrivacyInfo.xcprivacy files against Apple's rules.",
        discussion: """
            One line per finding, FILE:LINE: error|warning: message (the line of the offending key). \
            Exit status 1 when any file has an error.
            """
    )

    @Argument(help: "Privacy manifests (PrivacyInfo.xcprivacy).")
    var files: [String]

    @Option(name: .long, help: "Output format: text or json.")
    var format: InspectCommand.InspectFormat = .text

    func run() throws {
        var all: [PrivacyFinding] = []
        var unreadable = false
        for file in files {
            let data: [UInt8]
            do {
                data = try SystemFile.readRegularFile(RawArguments.path(file), maxBytes: 16 << 20)
            } catch {
                Diagnostics.error(error.description)
                unreadable = true
                continue
            }
            all += PrivacyManifestLinter.lint(data: Data(data), file: file)
        }
        switch format {
        case .text:
            RecordWriter.emit(all.map { $0.description + "\n" }.joined())
        case .json:
            let items: [JSONValue] = all.map {
                .object([("file", .string($0.file)), ("line", .integer($0.line)), ("severity", .string($0.severity.rawValue)),
                         ("message", .string($0.message))])
            }
            RecordWriter.emit(JSONValue.array(items).serialized() + "\n")
        }
        if unreadable { throw ExitCode(2) }
        if all.contains(where: { $0.severity == .error }) { throw ExitCode(1) }
    }
}
