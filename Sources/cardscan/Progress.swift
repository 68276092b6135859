import Foundation

/// One updating line on stderr: done/total, cards per second, time left. Only on a terminal
/// unless asked for; never any text read from a card.
final class ProgressLine {
    private let enabled: Bool
    private let total: Int?
    private var done = 0
    private let start = ContinuousClock.now
    private var lastDraw = ContinuousClock.now - .seconds(1)

    init(enabled: Bool, total: Int?) {
        self.enabled = enabled
        self.total = total
    }

    func advance() {
        done += 1
        guard enabled else { return }
        let now = ContinuousClock.now
        guard now - lastDraw >= .milliseconds(200) || done == total else { return }
        lastDraw = now
        draw()
    }

    func draw() {
        let elapsed = max((ContinuousClock.now - start).seconds, 0.001)
        let rate = Double(done) / elapsed
        var line = "\r\(done)"
        if let total { line += "/\(total)" }
        line += String(format: " cards  %.1f cards/s", rate)
        if let total, rate > 0, done < total {
            let left = Int(Double(total - done) / rate)
            line += String(format: "  ETA %d:%02d", left / 60, left % 60)
        }
        FileHandle.standardError.write(Data((line + "\u{1B}[K").utf8))
    }

    func finish() {
        guard enabled, done > 0 else { return }
        draw()
        FileHandle.standardError.write(Data("\n".utf8))
    }
}

extension Duration {
    var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }
}
