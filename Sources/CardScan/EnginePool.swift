import CardOCR
import Foundation

/// Hands out OCR engines, one caller at a time each; creates them lazily up to `capacity`.
///
/// `@unchecked Sendable` is safe because every mutable field is only touched with `condition`
/// locked, and an engine is owned by exactly one caller between `checkOut` and `checkIn`: no
/// engine is ever used by two threads at once.
final class EnginePool: @unchecked Sendable {
    private let condition = NSCondition()
    private var idle: [OCREngine] = []
    private var total = 0
    private var everCreated = 0
    private let capacity: Int
    /// Background loads under way (`prewarmInBackground`), guarded by their own condition so that
    /// their end never takes a wake-up meant for a caller waiting for an engine.
    private let background = NSCondition()
    private var backgroundLoads = 0
    private let make: @Sendable () throws(OCRError) -> OCREngine

    init(capacity: Int, make: @escaping @Sendable () throws(OCRError) -> OCREngine) {
        self.capacity = capacity
        self.make = make
    }

    /// Engines created over the pool's life (released ones included).
    var createdTotal: Int {
        condition.lock()
        defer { condition.unlock() }
        return everCreated
    }

    /// Makes sure `count` engines (at most `capacity`) exist: all are checked out at once, so
    /// those missing are created, then all are checked in.
    func prewarm(count: Int = 1) throws(OCRError) {
        var held: [OCREngine] = []
        defer { held.forEach(checkIn) }
        for _ in 0..<min(count, capacity) { held.append(try checkOut()) }
    }

    /// Starts creating one engine on a background thread and returns at once. The engine takes
    /// a place in the pool from now on, so a caller that needs one while it loads waits for it
    /// when the pool is full, rather than loading another. Should the load fail, the place is
    /// given back and the next caller meets the error when it creates its own. `then` runs on
    /// the same thread after the engine is ready.
    func prewarmInBackground(then next: @escaping @Sendable () -> Void = {}) {
        condition.lock()
        let room = total < capacity
        if room { reservePlace() }
        condition.unlock()
        background.lock()
        backgroundLoads += 1
        background.unlock()
        Thread.detachNewThread { [self] in
            if room, let engine = try? makeInReservedPlace() { checkIn(engine) }
            next()
            background.lock()
            backgroundLoads -= 1
            background.broadcast()
            background.unlock()
        }
    }

    /// Waits for the loads `prewarmInBackground` started. A process must not end while one runs:
    /// Tesseract's and libphonenumber's static data would be destroyed under it (a batch whose
    /// only photo fails at once ends before the first engine is ready).
    func waitForBackgroundWork() {
        background.lock()
        while backgroundLoads > 0 { background.wait() }
        background.unlock()
    }

    func withEngine<T>(_ body: (OCREngine) throws(OCRError) -> T) throws(OCRError) -> T {
        let engine = try checkOut()
        defer { checkIn(engine) }
        return try body(engine)
    }

    private func checkOut() throws(OCRError) -> OCREngine {
        condition.lock()
        while idle.isEmpty && total >= capacity { condition.wait() }
        if let engine = idle.popLast() {
            condition.unlock()
            return engine
        }
        reservePlace()
        condition.unlock()
        return try makeInReservedPlace()
    }

    /// Counts an engine about to be created. Called with `condition` locked.
    private func reservePlace() {
        total += 1
        everCreated += 1
    }

    /// Creates the engine a reserved place is for; when that fails, gives the place back (a
    /// waiting caller may then create one) and throws.
    private func makeInReservedPlace() throws(OCRError) -> OCREngine {
        do {
            return try make()
        } catch {
            condition.lock()
            total -= 1
            condition.signal()
            condition.unlock()
            throw error
        }
    }

    /// Frees every idle engine now (they are created again on demand).
    func releaseIdle() {
        condition.lock()
        let engines = idle
        idle.removeAll()
        total -= engines.count
        condition.unlock()
        _ = engines  // the last references go here, outside the lock
    }

    private func checkIn(_ engine: OCREngine) {
        condition.lock()
        idle.append(engine)
        condition.signal()
        condition.unlock()
    }
}
