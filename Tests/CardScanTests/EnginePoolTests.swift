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
        let pool = EnginePool(capacity: 1) { () throws(OCRError) -> OCREngine in
            Thread.sleep(forTimeInterval: 0.2)
            let engine = try OCREngine()
            order.withLock { $0.append("engine") }
            return engine
        }
        pool.prewarmInBackground(then: {
            Thread.sleep(forTimeInterval: 0.1)
            order.withLock { $0.append("then") }
        })
        #expect(order.withLock { $0 }.isEmpty)  // still loading: prewarmInBackground returned at once
        pool.waitForBackgroundWork()
        #expect(order.withLock { $0 } == ["engine", "then"])
        #expect(pool.createdTotal == 1)
        pool.waitForBackgroundWork()  // nothing under way: returns at once
    }
}
