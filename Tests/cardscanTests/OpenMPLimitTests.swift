import Foundation
import Testing
import TestSupport

/// libtesseract's OpenMP would start its own team of threads for every reading; cardscan keeps each
/// reading on its worker's thread unless OMP_THREAD_LIMIT says otherwise. Seen from outside: the
/// threads the process creates, counted by strace.
@Suite(.serialized) struct OpenMPLimitTests {
    static func threadsCreated(ompThreadLimit: String?) throws -> Int? {
        var environment = ProcessInfo.processInfo.environment
        environment["OMP_THREAD_LIMIT"] = ompThreadLimit
        let card = try #require(try FileManager.default.contentsOfDirectory(atPath: TestPaths.cards.path).sorted().first { $0.hasSuffix(".jpg") })
        let arguments = ["scan", "--jobs", "1", TestPaths.cards.appendingPathComponent(card).path]
        guard let (result, trace) = try NetworkLockdownTests.traced("clone,clone3", arguments, environment: environment) else { return nil }
        #expect(result.status == 0, "\(result.stderr)")
        return trace.split(separator: "\n").filter { $0.contains("clone") && !$0.contains("resumed") }.count
    }

    @Test func withoutTheVariableAReadingStartsNoOpenMPThreads() throws {
        guard let unset = try Self.threadsCreated(ompThreadLimit: nil),
              let one = try Self.threadsCreated(ompThreadLimit: "1"),
              let many = try Self.threadsCreated(ompThreadLimit: "64") else { return }
        print("threads created for one card: \(unset) with OMP_THREAD_LIMIT unset, \(one) with 1, \(many) with 64")
        #expect(unset == one)
        // The check can fail: an explicit limit above 1 is the user's choice and lets OpenMP start its team.
        #expect(many > one)
    }
}
