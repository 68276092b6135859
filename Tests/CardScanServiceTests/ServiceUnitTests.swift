import Foundation
import Testing
@testable import CardScanService

@Suite struct ServiceUnitTests {
    @Test func queryStringsAreDecodedAndRepeatsRefused() throws {
        let query = try #require(RequestQuery("region=de&name=Visitenkarte%20M%C3%BCller.jpg&format=json"))
        #expect(query["region"] == "de")
        #expect(query["name"] == "Visitenkarte Müller.jpg")
        #expect(query.unknown(among: ["region", "name"]) == ["format"])
        #expect(RequestQuery("region=DE&region=US") == nil)
        #expect(RequestQuery("name=%ZZ") == nil)
        #expect(RequestQuery(nil)?.values.isEmpty == true)
    }

    @Test func namesFromTheQueryAreOneLineAndBounded() {
        #expect(ServiceCore.cleanName("a\nb\u{1B}[2J.jpg") == "ab[2J.jpg")
        #expect(ServiceCore.cleanName("\n") == "upload")
        #expect(ServiceCore.cleanName(String(repeating: "x", count: 500)).count == 200)
    }

    @Test func theQueueIsBoundedAndAWaitingItemCanBeCancelled() {
        let queue = WorkQueue(workers: 1, capacity: 2)
        let gate = DispatchSemaphore(value: 0)
        let ran = Flag()
        let started = DispatchSemaphore(value: 0)
        #expect(queue.submit { started.signal(); gate.wait() } != nil)
        started.wait()
        let waiting = queue.submit { ran.set() }
        #expect(waiting != nil)
        #expect(queue.submit {} != nil)
        #expect(queue.submit {} == nil, "a third waiting item is refused")
        #expect(queue.cancel(waiting!))
        #expect(!queue.cancel(waiting!), "cancelled once")
        gate.signal()
        queue.drainAndStop()
        #expect(!ran.isSet, "the cancelled item never ran")
        #expect(queue.submit {} == nil, "a stopped queue takes nothing")
    }

    /// A queue released before its threads have begun (a service that cannot listen, released at
    /// once) is not read after it is gone: each thread holds the queue until it has stopped.
    @Test func aQueueStoppedAndReleasedAtOnceEndsItsThreadsCleanly() {
        for _ in 0..<200 {
            let queue = WorkQueue(workers: 4, capacity: 1)
            queue.drainAndStop()
        }
        let last = WorkQueue(workers: 2, capacity: 1)
        let ran = Flag()
        #expect(last.submit { ran.set() } != nil)
        last.drainAndStop()
        #expect(ran.isSet, "a queued item still runs before the threads end")
    }

    @Test func aSocketPathTooLongForSwiftNIOIsRefusedWithAReason() {
        // 104 bytes: sun_path would hold it, SwiftNIO's bind does not.
        let path = "/tmp/" + String(repeating: "d", count: 94) + ".sock"
        #expect(path.utf8.count == 104)
        #expect(throws: ServiceError.self) { try SocketFile(path: path).clearStale() }
        do { try SocketFile(path: path).clearStale() } catch { #expect(error.message.contains("at most 103 bytes")) }
        #expect(throws: Never.self) { try SocketFile(path: String(path.dropFirst())).clearStale() }
    }
}
