import FileAccess
import Foundation

/// Command-line paths as the bytes the shell passed. Swift decodes argv as UTF-8, replacing
/// what it cannot decode, so a file named in Latin-1 would become another name; the raw argv
/// entry that decodes to the same string gives the bytes back.
enum RawArguments {
    static let raw: [[UInt8]] = (0..<Int(CommandLine.argc)).compactMap { i in
        guard let p = CommandLine.unsafeArgv[i] else { return nil }
        return Array(UnsafeBufferPointer(start: UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self), count: strlen(p)))
    }

    /// The path the user typed as `argument`.
    static func path(_ argument: String) -> FilePathBytes {
        guard argument.contains("\u{FFFD}") else { return FilePathBytes(argument) }
        if let bytes = raw.first(where: { String(decoding: $0, as: UTF8.self) == argument && String(validating: $0, as: UTF8.self) == nil }) {
            return FilePathBytes(bytes: bytes)
        }
        return FilePathBytes(argument)
    }
}
