import Foundation
import Testing
import TestSupport

/// `--model standard` reads from the standard model's folder, and says how to install it when it is missing.
@Suite struct ModelOptionTests {
    static let card = TestPaths.cards.appendingPathComponent("card-us-plain.jpg").path

    @Test func aMissingStandardModelIsAUsageErrorThatSaysHowToInstallIt() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["CARDSCAN_TESSDATA_STANDARD"] = "/nonexistent/tessdata-standard"
        let installed = ["/usr/local/share/tessdata-standard", "/usr/share/tessdata-standard"]
            .contains { FileManager.default.fileExists(atPath: $0 + "/eng.traineddata") }
        let result = try runProcess(TestPaths.binary, ["scan", "--model", "standard", Self.card], environment: environment)
        if installed {
            #expect(result.status == 0, "\(result.stderr)")
        } else {
            #expect(result.status == 2)
            #expect(result.stderr.contains("make model-standard") && result.stderr.contains("/nonexistent/tessdata-standard"), "\(result.stderr)")
        }
    }

    @Test func theStandardFolderIsTheOneRead() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-model-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var environment = ProcessInfo.processInfo.environment
        environment["CARDSCAN_TESSDATA_STANDARD"] = folder.path
        // A model file that is not one: if the folder is read, the engine cannot load it.
        try Data(repeating: 0x42, count: 4096).write(to: folder.appendingPathComponent("eng.traineddata"))
        let broken = try runProcess(TestPaths.binary, ["scan", "--model", "standard", Self.card], environment: environment)
        #expect(broken.status != 0, "a damaged model in the standard folder is not silently replaced by the fast one")
        #expect(broken.stderr.contains(folder.path), "\(broken.stderr)")
        // Debian's model in that folder reads the card as the default does.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("eng.traineddata"))
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("eng.traineddata").path,
                                                   withDestinationPath: "/usr/share/tesseract-ocr/5/tessdata/eng.traineddata")
        let read = try runProcess(TestPaths.binary, ["scan", "--model", "standard", Self.card], environment: environment)
        let fast = try runProcess(TestPaths.binary, ["scan", "--model", "fast", Self.card])
        #expect(read.status == 0 && fast.status == 0, "\(read.stderr)")
        #expect(try NetworkLockdownTests.withoutTimings(read.stdout) == NetworkLockdownTests.withoutTimings(fast.stdout))
    }
}
