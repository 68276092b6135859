import Foundation
import ImageIngest
import Testing
import TestSupport

/// `scan --report FILE`: the review page, rendered in headless Chromium (make test installs
/// Debian's chromium) to see what a person sees, and that it asks the network for nothing.
@Suite(.serialized) struct ReportTests {
    static let chromium = URL(fileURLWithPath: "/usr/bin/chromium")

    static func temporaryFolder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-report-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Chromium on `page` with Chromium's own background traffic kept down; its net log is written to `netLog`.
    static func browse(_ page: URL, _ arguments: [String], netLog: URL, profile: URL) throws -> ProcessResult {
        try #require(FileManager.default.isExecutableFile(atPath: chromium.path), "chromium is missing: make test installs it (scripts/setup.sh --tests)")
        return try runProcess(chromium, ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync",
                                         "--disable-background-networking", "--disable-component-update",
                                         "--user-data-dir=" + profile.path, "--log-net-log=" + netLog.path] + arguments + [page.absoluteString])
    }

    /// Requests the page itself made, from Chromium's net log: URL requests whose initiator is an
    /// origin (the browser's own, such as its update checks, have "not an origin").
    static func pageRequests(_ netLog: URL) throws -> [String] {
        let log = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: netLog)) as? [String: Any])
        let constants = try #require(log["constants"] as? [String: Any])
        let types = try #require(constants["logEventTypes"] as? [String: Int])
        let start = try #require(types["URL_REQUEST_START_JOB"])
        let events = log["events"] as? [[String: Any]] ?? []
        return events.compactMap { event -> String? in
            // The job's begin event carries the URL and the initiator; its end event neither.
            guard event["type"] as? Int == start, let params = event["params"] as? [String: Any], let url = params["url"] as? String,
                  params["initiator"] as? String != "not an origin" else { return nil }
            return url
        }
    }

    @Test func theReportShowsEveryCardAndFetchesNothing() throws {
        let dir = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = dir.appendingPathComponent("report.html")
        let scan = try runProcess(TestPaths.binary, ["scan", "--quiet", "--report", report.path, TestPaths.cards.path])
        #expect(scan.status == 0, "\(scan.stderr)")
        let attributes = try FileManager.default.attributesOfItem(atPath: report.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let html = try String(contentsOf: report, encoding: .utf8)
        #expect(html.contains("content=\"default-src 'none'; img-src data:; style-src 'unsafe-inline'\""))
        #expect(!html.contains("<script") && !html.contains("<link") && !html.contains("src=\"http") && !html.contains("url("))

        let dom = try Self.browse(report, ["--dump-dom"], netLog: dir.appendingPathComponent("net.json"), profile: dir.appendingPathComponent("p1"))
        #expect(dom.status == 0, "\(dom.stderr)")
        let expected = try ExpectedCard.all()
        #expect(dom.stdout.components(separatedBy: "<section class=\"card\"").count - 1 == expected.count)
        #expect(dom.stdout.components(separatedBy: "<img src=\"data:image/jpeg;base64,").count - 1 == expected.count)
        for card in expected {
            #expect(dom.stdout.contains(">\(card.file)<") || dom.stdout.contains("/\(card.file)<"), "\(card.file)")
            #expect(dom.stdout.contains(card.name.replacingOccurrences(of: "&", with: "&amp;")), "\(card.file)")
            for email in card.emails { #expect(dom.stdout.contains(email), "\(card.file)") }
            #expect(dom.stdout.contains("alt=\"The straightened card of \(TestPaths.cards.appendingPathComponent(card.file).path)\""))
        }
        #expect(try Self.pageRequests(dir.appendingPathComponent("net.json")).isEmpty)

        let shot = dir.appendingPathComponent("shot.png")
        let screenshot = try Self.browse(report, ["--screenshot=" + shot.path, "--window-size=1280,1600", "--hide-scrollbars"],
                                         netLog: dir.appendingPathComponent("net2.json"), profile: dir.appendingPathComponent("p2"))
        #expect(screenshot.status == 0, "\(screenshot.stderr)")
        let encoded = try EncodedImage(bytes: try TestPaths.bytes(shot), source: "shot.png")
        let image = try encoded.decode(grayscale: true).image
        let levels = Set(image.pixels)
        #expect(image.width == 1280 && levels.count > 50, "the screenshot has \(levels.count) gray levels")
        #expect(try Self.pageRequests(dir.appendingPathComponent("net2.json")).isEmpty)
    }

    /// The net-log check can fail: a page with an external image shows its request.
    @Test func theNetLogCheckSeesARequestWhenAPageMakesOne() throws {
        let dir = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("external.html")
        try Data("<!DOCTYPE html><html><body><img src=\"http://127.0.0.1:9/x.png\"><p>x</p></body></html>".utf8).write(to: page)
        _ = try Self.browse(page, ["--dump-dom"], netLog: dir.appendingPathComponent("net.json"), profile: dir.appendingPathComponent("p"))
        #expect(try Self.pageRequests(dir.appendingPathComponent("net.json")).contains("http://127.0.0.1:9/x.png"))
    }

    @Test func aFileThatIsNotAReportIsNotReplacedAndAReportIs() throws {
        let dir = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let notes = dir.appendingPathComponent("notes.html")
        try Data("<html>my notes</html>".utf8).write(to: notes)
        let card = TestPaths.cards.appendingPathComponent("card-us-plain.jpg").path
        let refused = try runProcess(TestPaths.binary, ["scan", "--quiet", "--report", notes.path, card])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("is not a cardscan report"))
        #expect(try String(contentsOf: notes, encoding: .utf8) == "<html>my notes</html>")
        let report = dir.appendingPathComponent("report.html")
        for _ in 0..<2 {
            let run = try runProcess(TestPaths.binary, ["scan", "--quiet", "--report", report.path, card])
            #expect(run.status == 0, "\(run.stderr)")
        }
        #expect(try String(contentsOf: report, encoding: .utf8).contains("<section class=\"card\""))
        // No temporary file is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["notes.html", "report.html"])
    }

    @Test func anErrorIsShownWithItsMessage() throws {
        let dir = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = dir.appendingPathComponent("broken <b>.jpg")
        try Data("not a photo".utf8).write(to: bad)
        let report = dir.appendingPathComponent("report.html")
        let run = try runProcess(TestPaths.binary, ["scan", "--quiet", "--report", report.path, bad.path,
                                                    TestPaths.cards.appendingPathComponent("card-us-plain.jpg").path])
        #expect(run.status == 1)
        let html = try String(contentsOf: report, encoding: .utf8)
        #expect(html.contains("class=\"error\""))
        #expect(html.contains("broken &lt;b&gt;.jpg"))
        #expect(!html.contains("broken <b>"))
        // Worst first: the error's section comes before the card's.
        let error = try #require(html.range(of: "class=\"error\""))
        let image = try #require(html.range(of: "<img src="))
        #expect(error.lowerBound < image.lowerBound)
    }
}
