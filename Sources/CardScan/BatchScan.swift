import Foundation

extension CardScanner {
    /// Scans many inputs on `configuration.workers` threads and calls `onRecord` with each record
    /// in input order, whatever order they finish in. At most a few images per worker are in
    /// flight at once, so memory stays flat however long the input sequence is.
    ///
    /// - Parameters:
    ///   - inputs: read lazily, one element at a time, as workers become free.
    ///   - shouldStop: asked before each new input is taken; return true to stop early (Ctrl-C).
    ///   - onRecord: called on one thread at a time, in input order.
    public func scan<Inputs: Sequence>(
        _ inputs: Inputs,
        shouldStop: @escaping @Sendable () -> Bool = { false },
        onRecord: @escaping (ScanRecord) -> Void
    ) where Inputs.Element == ScanInput {
        let workers = max(1, configuration.workers)
        let state = BatchState(iterator: AnyIteratorBox(inputs.makeIterator()), window: workers * 4,
                               onRecord: onRecord)
        let group = DispatchGroup()
        for _ in 0..<workers {
            group.enter()
            let thread = Thread { [self] in
                defer { group.leave() }
                while !shouldStop(), let (index, input) = state.next() {
                    let record: ScanRecord
                    switch input {
                    case .file(let path): record = self.scan(file: path)
                    case .bytes(let bytes, let source): record = self.scan(bytes: bytes, source: source)
                    case .failure(let error, let source): record = .failure(source, error)
                    }
                    state.finish(index, record)
                }
                state.workerDone()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        group.wait()
    }

    /// The records of `inputs`, in input order, as an async sequence.
    public func records<Inputs: Sequence & Sendable>(for inputs: Inputs) -> AsyncStream<ScanRecord>
    where Inputs.Element == ScanInput {
        AsyncStream { continuation in
            let thread = Thread { [self] in
                self.scan(inputs, onRecord: { continuation.yield($0) })
                continuation.finish()
            }
            thread.start()
        }
    }
}

/// A sequence iterator behind a reference, so workers can share it under a lock.
final class AnyIteratorBox<Element> {
    private var base: AnyIterator<Element>
    init<I: IteratorProtocol>(_ iterator: I) where I.Element == Element {
        var it = iterator
        base = AnyIterator { it.next() }
    }
    func next() -> Element? { base.next() }
}

/// Shared state of one batch.
///
/// `@unchecked Sendable` is safe because every field is read and written only with `condition`
/// locked; `onRecord` is only called with the lock held, so calls never overlap.
final class BatchState: @unchecked Sendable {
    private let condition = NSCondition()
    private let iterator: AnyIteratorBox<ScanInput>
    private var nextIndex = 0
    private var nextToDeliver = 0
    private var finished: [Int: ScanRecord] = [:]
    private var exhausted = false
    private let window: Int
    private let onRecord: (ScanRecord) -> Void

    init(iterator: AnyIteratorBox<ScanInput>, window: Int, onRecord: @escaping (ScanRecord) -> Void) {
        self.iterator = iterator
        self.window = window
        self.onRecord = onRecord
    }

    /// The next input and its index, or nil when the inputs are exhausted.
    func next() -> (Int, ScanInput)? {
        condition.lock()
        defer { condition.unlock() }
        // Bound the reorder buffer: do not run too far ahead of the oldest unfinished input.
        while !exhausted && nextIndex >= nextToDeliver + window { condition.wait() }
        guard !exhausted, let input = iterator.next() else {
            exhausted = true
            condition.broadcast()
            return nil
        }
        defer { nextIndex += 1 }
        return (nextIndex, input)
    }

    func finish(_ index: Int, _ record: ScanRecord) {
        condition.lock()
        defer { condition.unlock() }
        finished[index] = record
        while let r = finished.removeValue(forKey: nextToDeliver) {
            onRecord(r)
            nextToDeliver += 1
        }
        condition.broadcast()
    }

    func workerDone() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }
}
