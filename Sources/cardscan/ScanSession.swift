import CardScan
import FileAccess
import Foundation

/// One run of `scan`: the inputs through the scanner into the sink, with the progress line,
/// interrupts and the exit status.
struct ScanSession {
    let scanner: CardScanner
    let sink: RecordSink
    let input: InputOptions
    let output: OutputOptions
    /// Sources recorded by an earlier run (--resume): not scanned again.
    let alreadyDone: Set<String>
    let maxBytes: Int
    /// The review page's records (--report), written when the batch completes.
    let report: ReportCollector?
    /// The contact book (--db): each contact read is added as its record completes.
    let book: BookWriter?

    /// Runs the batch; returns the exit status (0, 1, or 130 when interrupted).
    func run() -> Int32 {
        let interruption = Interruption.install()
        var inputs = inputSequence(stop: { interruption.requested })
        let showProgress = output.progress.shows(quiet: output.quiet)
        var total: Int?
        if showProgress && input.listable {
            let listed = Array(inputs)
            total = listed.count
            inputs = AnySequence(listed)
        }
        let progressLine = ProgressLine(enabled: showProgress, total: total)
        var tally = Tally()
        let started = ContinuousClock.now
        scanner.scan(inputs, shouldStop: { interruption.requested || interruption.failed }) { scanned in
            guard tally.writeFailure == nil else { return }
            var record = scanned
            tally.count(record)
            do throws(FileError) {
                try sink.write(record)
                record.bookID = try book?.add(record)
            } catch {
                tally.writeFailure = error
                interruption.fail()
            }
            report?.add(record)
            progressLine.advance()
        }
        progressLine.finish()
        scanner.releaseEngines()
        let status = finish(tally, interrupted: interruption.requested)
        guard let report, status != 130, tally.writeFailure == nil else { return status }
        do {
            try report.write(elapsed: ContinuousClock.now - started)
        } catch {
            Diagnostics.error(error.description + "; the report was not written")
            return 1
        }
        return status
    }

    /// The inputs in order: the plan's, cut to this shard, without those already recorded.
    func inputSequence(stop: @escaping @Sendable () -> Bool) -> AnySequence<ScanInput> {
        let limits = scanner.configuration.limits
        let plan = InputPlan(paths: input.paths, stream: input.stream, filesFrom: input.filesFrom, nulSeparated: input.nulSeparated,
                             maxBytes: maxBytes, maxStreamImageBytes: min(limits.maxBytes, limits.maxDecodeBytes),
                             followLinks: input.followLinks, shouldStop: stop)
        var inputs = plan.inputs()
        if let shard = input.shard {
            inputs = AnySequence(inputs.enumerated().lazy.filter { $0.offset % shard.count == shard.index - 1 }.map(\.element))
        }
        if !alreadyDone.isEmpty {
            let done = alreadyDone
            inputs = AnySequence(inputs.lazy.filter { !done.contains($0.source) })
        }
        return inputs
    }

    /// What the batch came to.
    struct Tally {
        var scanned = 0
        var failures = 0
        var writeFailure: FileError?

        /// Counts a record, and says on stderr what failed in it.
        mutating func count(_ record: ScanRecord) {
            scanned += 1
            if record.status == .error {
                failures += 1
                Diagnostics.error(record.error?.message ?? "\(record.source): failed")
            } else if record.status == .noCard {
                failures += 1
                Diagnostics.warning("\(record.source): no card and no contact field found in the photo (status no-card)")
            }
            for problem in record.outputErrors {
                failures += 1
                Diagnostics.error(problem.message)
            }
        }
    }

    /// Completes or abandons the output and gives the exit status.
    func finish(_ tally: Tally, interrupted: Bool) -> Int32 {
        if let failure = tally.writeFailure {
            sink.abandon()
            var message = failure.description + "; the scan was stopped"
            if let partial = sink.partialPath { message += ", and the records written so far are in \(partial.display) (go on with --resume)" }
            Diagnostics.error(message)
            return 1
        }
        if interrupted {
            sink.abandon()
            if let partial = sink.partialPath {
                Diagnostics.error("interrupted: the records finished so far are in \(partial.display); run again with --resume to go on")
            }
            return 130
        }
        do {
            try sink.finish()
        } catch {
            Diagnostics.error(error.description)
            return 1
        }
        if tally.scanned == 0 && alreadyDone.isEmpty {
            let named = input.paths + (input.filesFrom.map { ["--files-from " + $0] } ?? [])
            Diagnostics.error("no images found to scan in \(named.map { DisplayText.escaping($0) }.joined(separator: ", "))")
            return 1
        }
        return tally.failures > 0 ? 1 : 0
    }
}
