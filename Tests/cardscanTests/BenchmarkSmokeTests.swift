import Foundation
import Testing
import TestSupport

/// `make bench` and `make eval` are programs, not tests: this only checks they still run and
/// print their tables, on two cards and one run. No time is compared.
@Suite(.serialized) struct BenchmarkSmokeTests {
    @Test func benchScriptRunsOnTwoCards() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tesseract"),
              FileManager.default.isExecutableFile(atPath: TestPaths.packageRoot.appendingPathComponent(".build/release/cardscan").path) else {
            try Test.cancel("the release build or the tesseract CLI is missing (make bench builds them)")
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-bench-\(getpid())")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["card-us-plain.jpg", "card-ca-split.jpg"] {
            try FileManager.default.copyItem(at: TestPaths.cards.appendingPathComponent(name), to: dir.appendingPathComponent(name))
        }
        let result = try runProcess(URL(fileURLWithPath: "/bin/bash"),
                                    [TestPaths.packageRoot.appendingPathComponent("scripts/bench.sh").path, dir.path, "1"],
                                    environment: ProcessInfo.processInfo.environment.merging(["BENCH_CV": "0"]) { $1 })
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("tesseract FILE stdout"))
        #expect(result.stdout.contains("x tesseract"))
        #expect(result.stdout.contains("OMP_THREAD_LIMIT=1"))
        #expect(result.stdout.contains("ocr"))
    }
}
