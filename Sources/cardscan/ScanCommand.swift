import ArgumentParser
import CardScan
import ContactParser
import ContactBook
import FileAccess
import Foundation

struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Scan card photos (files, folders, or - for stdin) and print one record per image.",
        discussion: """
            Folders are walked recursively in sorted order; files are recognised as images by \
            their content, not their name. Records come out in input order as JSON Lines (a \
            readable table when standard output is a terminal). Exit status: 0 when every input \
            was scanned, 1 when some failed or showed no card, 2 for usage errors.
            """
    )

    @OptionGroup(title: "Inputs") var input: InputOptions
    @OptionGroup(title: "Reading") var reading: ReadingOptions
    @OptionGroup(title: "Limits") var limits: LimitOptions
    @OptionGroup(title: "Output") var output: OutputOptions

    func run() throws {
        Diagnostics.setVerbose(output.verbose)
        var configuration = ScanConfiguration()
        reading.apply(to: &configuration)
        limits.apply(to: &configuration)
        output.apply(to: &configuration)
        // Nothing is read or written before the output is known to be safe to write.
        let target: (path: FilePathBytes?, carryOver: [String], done: Set<String>)
        let scanner: CardScanner
        let sink: RecordSink
        let report: ReportCollector?
        let book: ContactBook?
        do {
            target = try output.target(inputs: input.namedFiles)
            let reportPath = try output.report.map { try ReportTarget.check($0, inputs: input.namedFiles, force: output.force) }
            try output.checkBook(inputs: input.namedFiles)
            try output.claims(records: target.path, report: reportPath)
            report = reportPath.map { ReportCollector(path: $0) }
            book = try output.db.map { try ContactBook(path: $0) }
            scanner = try CardScanner(configuration: configuration)
            sink = try RecordSink(format: output.effectiveFormat, path: target.path, carryOver: target.carryOver,
                                  table: output.showsTable, merge: output.mergesOutput)
        } catch let error as FileError {
            Diagnostics.error(error.description)
            // A write that failed (the JSON array's "[" or the CSV header to a full disk) is exit
            // 1 as every failed write is; a refused output is a usage error.
            throw ExitCode(error.code == .writeFailed ? 1 : 2)
        } catch let error as ScanError {
            Diagnostics.error(error.message)
            throw ExitCode(2)
        } catch let error as ContactBookError {
            Diagnostics.error(error.message)
            throw ExitCode(2)
        }
        let session = ScanSession(scanner: scanner, sink: sink, input: input, output: output,
                                  alreadyDone: target.done, maxBytes: configuration.limits.maxBytes, report: report,
                                  book: book.map { BookWriter(book: $0, merge: !output.noMerge) })
        let status = session.run()
        // Said after the run, by when the parser has read the list (never in the way of the first card).
        if let problem = ContactParser.publicSuffixListError { Diagnostics.warning(problem.message) }
        throw ExitCode(status)
    }
}
