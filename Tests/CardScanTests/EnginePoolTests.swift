import CardOCR
import Foundation
import Synchronization
import Testing
@testable import CardScan

@Suite struct EnginePoolTests {
    /// `waitForBackgroundWork` returns only after the background engine and the work after it are
    /// done: a CLI run whose only photo fails at once must not end (and destroy Tesseract's static
    /// data) under them.
    @Test func waitingForBackgroundWorkWaitsForTheEngineAndWhatFollows() throws {
        let order = Mutex<[String]>([])
        // The engine is made only once the test lets it (no sleeps: a gate).
        let engineMayLoad = DispatchSemaphore(value: 0)
        let pool = EnginePool(capacity: 1) { () throws(OCRError) -> OCREngine in
            engineMayLoad.wait()
            let engine = try OCREngine()
            order.withLock { $0.append("engine") }
            return engine
        }
        pool.prewarmInBackground(then: {
            order.withLock { $0.append("then") }
        })
        #expect(order.withLock { $0 }.isEmpty)  // the engine waits for the gate: prewarmInBackground returned at once
        engineMayLoad.signal()
        pool.waitForBackgroundWork()
        #expect(order.withLock { $0 } == ["engine", "then"])
        #expect(pool.createdTotal == 1)
        pool.waitForBackgroundWork()  // nothing under way: returns at once
    }
}
