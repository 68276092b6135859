import Foundation

/// Requests' work for N worker threads, through a queue of bounded length.
///
/// `@unchecked Sendable` is safe because every mutable field is only touched with `condition`
/// locked; the work items themselves are `@Sendable`.
final class WorkQueue: @unchecked Sendable {
    /// A submitted item, to cancel it while it still waits.
    struct Ticket: Hashable, Sendable { fileprivate let id: UInt64 }

    private struct Item {
        let ticket: Ticket
        let work: @Sendable () -> Void
    }

    private let condition = NSCondition()
    private var waiting: [Item] = []
    private var running = 0
    private var nextID: UInt64 = 0
    private var stopping = false
    let capacity: Int
    let workers: Int

    /// Starts `workers` threads; at most `capacity` items wait beyond those running. Each thread
    /// holds the queue until `drainAndStop()` ends it (with an unowned reference, a service that
    /// cannot listen and is released at once would leave threads reading a queue that is gone).
    init(workers: Int, capacity: Int) {
        self.workers = max(1, workers)
        self.capacity = max(1, capacity)
        for index in 0..<self.workers {
            let thread = Thread { [self] in self.workLoop() }
            thread.name = "cardscan-worker-\(index + 1)"
            // OCR recurses deeply on some pages; the default 512 KiB of a secondary thread is too little.
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Queues `work`; nil when the queue is full (or stopping).
    func submit(_ work: @escaping @Sendable () -> Void) -> Ticket? {
        condition.lock()
        defer { condition.unlock() }
        guard !stopping, waiting.count < capacity else { return nil }
        nextID += 1
        let ticket = Ticket(id: nextID)
        waiting.append(Item(ticket: ticket, work: work))
        condition.signal()
        return ticket
    }

    /// Removes the item if it has not started; true when it was removed.
    @discardableResult
    func cancel(_ ticket: Ticket) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard let index = waiting.firstIndex(where: { $0.ticket == ticket }) else { return false }
        waiting.remove(at: index)
        condition.broadcast()
        return true
    }

    /// Items waiting and items running now.
    var load: (waiting: Int, running: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (waiting.count, running)
    }

    /// Refuses new items, lets every queued and running one finish, and ends the threads.
    func drainAndStop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while !waiting.isEmpty || running > 0 { condition.wait() }
        condition.unlock()
    }

    private func workLoop() {
        while true {
            condition.lock()
            while waiting.isEmpty && !stopping { condition.wait() }
            if waiting.isEmpty {
                condition.unlock()
                return
            }
            let item = waiting.removeFirst()
            running += 1
            condition.unlock()
            item.work()
            condition.lock()
            running -= 1
            condition.broadcast()
            condition.unlock()
        }
    }
}
