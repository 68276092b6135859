import CardFormats
import ArgumentParser
import CardScan
import FileAccess
import Foundation

struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Report which kinds of metadata photos carry (EXIF, GPS, XMP, IPTC, ICC, COM, Thumbnail, MakerNote, MPF, Trailer).",
        discussion: "Values (coordinates, serial numbers) are printed only with --show-values."
    )

    @Argument(help: "Image files.")
    var inputs: [String]

    @Flag(name: .long, help: "Also print each tag's value.")
    var showValues = false

    @Option(name: .long, help: "Output format: text or json.")
    var format: InspectFormat = .text

    enum InspectFormat: String, ExpressibleByArgument, CaseIterable { case text, json }

    func run() throws {
        var failures = 0
        for name in inputs {
            let path = RawArguments.path(name)
            let input = path.display
            let bytes: [UInt8]
            do {
                bytes = try SystemFile.readRegularFile(path, maxBytes: StripCommand.maxBytes)
            } catch {
                Diagnostics.error(error.description)
                failures += 1
                continue
            }
            guard CardScanner.looksLikeImage(Array(bytes.prefix(32))) else {
                Diagnostics.error("\(input): not an image")
                failures += 1
                continue
            }
            let report = Sanitizer.inspect(bytes: bytes, values: showValues)
            switch format {
            case .text:
                var text = "\(input): " + (report.kinds.isEmpty ? "no metadata" : report.kinds.map(\.rawValue).joined(separator: ", "))
                text += report.hadLocation ? " (has location)\n" : "\n"
                for v in report.values { text += "  [\(v.group)] \(v.name) = \(v.value)\n" }
                RecordWriter.emit(text)
            case .json:
                var pairs: [(String, JSONValue)] = [
                    ("source", .string(input)),
                    ("metadata", .array(report.kinds.map { .string($0.rawValue) })),
                    ("hadLocation", .bool(report.hadLocation)),
                ]
                if showValues {
                    pairs.append(("values", .array(report.values.map {
                        .object([("group", .string($0.group)), ("name", .string($0.name)), ("value", .string($0.value))])
                    })))
                }
                RecordWriter.emit(JSONValue.object(pairs).serialized() + "\n")
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }
}
