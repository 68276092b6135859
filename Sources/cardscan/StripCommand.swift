import ArgumentParser
import CardScan
import FileAccess
import Foundation

struct StripCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strip",
        abstract: "Write copies of JPEG and PNG photos without their metadata (GPS, camera, thumbnails, XMP, IPTC, comments).",
        discussion: """
            Lossless: segments and chunks are dropped, the image data is copied byte for byte. By \
            default a minimal EXIF block keeps the orientation, so the copy still displays upright. \
            Input files are never modified unless --in-place is given; then each is replaced \
            atomically (a temporary file in the same folder, flushed, renamed over it).
            """
    )

    @Argument(help: "JPEG or PNG files.")
    var inputs: [String]

    @Option(name: [.short, .customLong("output")], help: "Folder to write the sanitized copies to (same file names).")
    var outputDirectory: String?

    @Flag(name: .long, help: "Replace each input with its sanitized copy.")
    var inPlace = false

    @Flag(name: .long, help: "Also remove the orientation (the copy may then display sideways).")
    var dropOrientation = false

    @Flag(name: .long, help: "Keep ICC colour profiles.")
    var keepICC = false

    @Flag(name: .long, help: "Replace files that already exist in the output folder.")
    var overwrite = false

    func validate() throws {
        if (outputDirectory == nil) == !inPlace {
            throw ValidationError("give exactly one of -o DIR or --in-place")
        }
        try requireFolder(outputDirectory, option: nil)
    }

    func run() throws {
        var failures = 0
        for input in inputs {
            do {
                try strip(input)
            } catch {
                failures += 1
                Diagnostics.error(error.message)
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }

    private func strip(_ name: String) throws(ScanError) {
        let input = RawArguments.path(name)
        do {
            let data = try SystemFile.readRegularFile(input, maxBytes: Self.maxBytes)
            let clean = try Sanitizer.strip(bytes: data, source: input.display, keepOrientation: !dropOrientation, keepICC: keepICC)
            if inPlace {
                // Through a symbolic link the real file is stripped (the link stays a link).
                try AtomicFile.write(clean, to: input, permissionsFrom: input)
                return
            }
            guard let outputDirectory else { return }
            let target = FilePathBytes(outputDirectory).appending(input.lastComponent)
            if let existing = try? SystemFile.status(target), let original = try? SystemFile.status(input),
               existing.isSameFile(as: original) {
                throw ScanError(.writeFailed, "\(input.display): the copy would replace the photo itself; use --in-place for that")
            }
            try AtomicFile.write(clean, to: target, replace: overwrite)
        } catch let error as FileError {
            if error.code == .exists {
                throw ScanError(.writeFailed, "\(error.path): already exists; use --overwrite to replace it")
            }
            throw ScanError(error)
        } catch let error as ScanError {
            throw error
        } catch {
            throw ScanError(.writeFailed, "\(input.display): \(error)")
        }
    }

    /// The largest photo read (the same default as scan's --max-megabytes).
    static let maxBytes = 256 << 20
}
