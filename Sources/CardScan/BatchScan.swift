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
                    case .path(let path): record = self.scan(path: path)
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

    /// The records of `inputs`, in input order, as an async sequence. Scanning keeps at most
    /// `buffer` records ahead of the consumer (it waits while they are not taken), and stops
    /// taking new inputs when the consuming task is cancelled.
    public func records<Inputs: Sequence & Sendable>(for inputs: Inputs, buffer: Int = 8) -> AsyncStream<ScanRecord>
    where Inputs.Element == ScanInput {
        let handoff = RecordHandoff(capacity: max(1, buffer))
        let thread = Thread { [self] in
            self.scan(inputs, shouldStop: { handoff.isCancelled }, onRecord: { handoff.put($0) })
            handoff.finish()
        }
        thread.start()
        return AsyncStream(unfolding: { await handoff.take() }, onCancel: { handoff.cancel() })
    }
}

/// Records passed from the scanning thread to an async consumer through a bounded queue.
///
/// `@unchecked Sendable` is safe because every field is touched only with `condition` locked.
final class RecordHandoff: @unchecked Sendable {
    private let condition = NSCondition()
    private let capacity: Int
    private var queue: [ScanRecord] = []
    private var waiting: CheckedContinuation<ScanRecord?, Never>?
    private var finished = false
    private var cancelled = false

    init(capacity: Int) { self.capacity = capacity }

    var isCancelled: Bool { condition.withLock { cancelled } }

    /// Called by the scanning thread: hands the record to a waiting consumer, or queues it,
    /// waiting while the queue is full (dropped once the consumer is gone).
    func put(_ record: ScanRecord) {
        condition.lock()
        if let waiting {
            self.waiting = nil
            condition.unlock()
            waiting.resume(returning: record)
            return
        }
        while queue.count >= capacity && !cancelled { condition.wait() }
        if !cancelled { queue.append(record) }
        condition.unlock()
    }

    func finish() {
        condition.lock()
        finished = true
        let waiting = self.waiting
        self.waiting = nil
        condition.unlock()
        waiting?.resume(returning: nil)
    }

    func cancel() {
        condition.lock()
        cancelled = true
        queue.removeAll()
        condition.broadcast()
        let waiting = self.waiting
        self.waiting = nil
        condition.unlock()
        waiting?.resume(returning: nil)
    }

    /// The next record, waiting for it; nil after the last one or once cancelled.
    func take() async -> ScanRecord? {
        await withCheckedContinuation { (continuation: CheckedContinuation<ScanRecord?, Never>) in
            condition.lock()
            if !queue.isEmpty {
                let record = queue.removeFirst()
                condition.broadcast()
                condition.unlock()
                continuation.resume(returning: record)
            } else if finished || cancelled {
                condition.unlock()
                continuation.resume(returning: nil)
            } else {
                waiting = continuation
                condition.unlock()
            }
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
/// `@unchecked Sendable` is safe because `iterator` is used only with `inputLock` held and every
/// other field is read and written only with `condition` locked; `onRecord` is only called with
/// `condition` held, so calls never overlap.
final class BatchState: @unchecked Sendable {
    private let condition = NSCondition()
    /// Held while one worker takes the next input from the iterator (inputs are taken in order).
    private let inputLock = NSLock()
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

    /// The next input and its index, or nil when the inputs are exhausted. Reading an input
    /// (which may wait on a pipe) happens outside the delivery lock, so records already
    /// finished go out while another worker waits for the next image.
    func next() -> (Int, ScanInput)? {
        inputLock.lock()
        defer { inputLock.unlock() }
        condition.lock()
        // Bound the reorder buffer: do not run too far ahead of the oldest unfinished input.
        while !exhausted && nextIndex >= nextToDeliver + window { condition.wait() }
        let done = exhausted
        condition.unlock()
        guard !done, let input = iterator.next() else {
            condition.lock()
            exhausted = true
            condition.broadcast()
            condition.unlock()
            return nil
        }
        condition.lock()
        defer { nextIndex += 1; condition.unlock() }
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
