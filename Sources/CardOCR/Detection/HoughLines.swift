import Foundation

/// A straight line x cos(theta) + y sin(theta) = rho, in preview pixels.
struct Line {
    var rho: Float
    var theta: Float
    /// Votes it had (its strength among the photo's lines).
    var votes: Float
    /// True for the photo's own borders, which stand in for the edges of a card cut off by the frame.
    var isFrame: Bool = false

    var normal: (Float, Float) { (cos(theta), sin(theta)) }
    var direction: (Float, Float) { (-sin(theta), cos(theta)) }

    /// The point where two lines cross; nil when nearly parallel.
    func intersection(_ other: Line) -> Point? {
        let (a1, b1) = normal, (a2, b2) = other.normal
        let det = a1 * b2 - a2 * b1
        guard abs(det) > 1e-4 else { return nil }
        return Point(Double((rho * b2 - other.rho * b1) / det), Double((a1 * other.rho - a2 * rho) / det))
    }

    /// The unsigned angle between two lines, 0...pi/2.
    func angle(to other: Line) -> Float {
        var d = abs(theta - other.theta).truncatingRemainder(dividingBy: .pi)
        if d > .pi / 2 { d = .pi - d }
        return d
    }
}

/// Straight lines of a photo by a Hough transform in which each edge pixel votes only near its
/// own gradient direction, weighted by its strength: long, clean edges (a card's sides) stand out
/// from texture, whose pixels vote for every direction.
enum HoughLines {
    static func find(in edges: EdgeMap, count: Int) -> [Line] {
        let w = edges.width, h = edges.height
        let diag = Int((Float(w * w + h * h)).squareRoot()) + 1
        let rhoBins = 2 * diag + 1
        let thetaBins = 180
        var acc = [Float](repeating: 0, count: rhoBins * thetaBins)
        let cosT = (0..<thetaBins).map { cos(Float($0) * .pi / 180) }
        let sinT = (0..<thetaBins).map { sin(Float($0) * .pi / 180) }
        let threshold = max(4, EdgeMap.percentile(edges.magnitude, 0.75))
        let strong = 3 * threshold
        let spread = 3
        // Edge pixels: local maxima across the edge, above the texture's level.
        var isEdge = [UInt8](repeating: 0, count: w * h)
        var angles = [Float](repeating: 0, count: w * h)
        edges.magnitude.withUnsafeBufferPointer { mag in
            for y in 1..<(h - 1) {
                for x in 1..<(w - 1) {
                    let i = y * w + x
                    let m = mag[i]
                    guard m > threshold else { continue }
                    let gx = edges.gx[i], gy = edges.gy[i]
                    let ax = abs(gx), ay = abs(gy)
                    let (a, b): (Float, Float)
                    if ay <= 0.414 * ax { (a, b) = (mag[i - 1], mag[i + 1]) }
                    else if ax <= 0.414 * ay { (a, b) = (mag[i - w], mag[i + w]) }
                    else if (gx > 0) == (gy > 0) { (a, b) = (mag[i - w - 1], mag[i + w + 1]) }
                    else { (a, b) = (mag[i - w + 1], mag[i + w - 1]) }
                    guard m >= a, m >= b else { continue }
                    var angle = atan2(gy, gx) * 180 / .pi
                    if angle < 0 { angle += 180 }
                    isEdge[i] = 1
                    angles[i] = angle
                }
            }
        }
        // Each edge pixel votes with its strength times how straight the edge runs through it:
        // the share of its neighbours along the edge (up to 4 px each way) that are edge pixels
        // of the same direction. Letters and texture are made of short curved strokes; a card's
        // side runs straight for its whole length.
        edges.magnitude.withUnsafeBufferPointer { mag in
            for y in 1..<(h - 1) {
                for x in 1..<(w - 1) {
                    let i = y * w + x
                    guard isEdge[i] != 0 else { continue }
                    let angle = angles[i]
                    let rad = angle * .pi / 180
                    let tx = -sin(rad), ty = cos(rad)
                    var straight = 0
                    for k in [-4, -3, -2, -1, 1, 2, 3, 4] {
                        let nx = x + Int((Float(k) * tx).rounded()), ny = y + Int((Float(k) * ty).rounded())
                        guard nx >= 0, ny >= 0, nx < w, ny < h else { continue }
                        let j = ny * w + nx
                        guard isEdge[j] != 0 else { continue }
                        var d = abs(angles[j] - angle)
                        if d > 90 { d = 180 - d }
                        if d < 15 { straight += 1 }
                    }
                    let coherence = Float(straight) / 8
                    let weight = min(1, mag[i] / strong) * coherence
                    guard weight > 0 else { continue }
                    let t0 = Int(angle.rounded()) % thetaBins
                    for dt in -spread...spread {
                        // The line through (x, y) whose normal has angle t (wrapped into 0..<180).
                        let t = (t0 + dt + thetaBins) % thetaBins
                        let rho = Float(x) * cosT[t] + Float(y) * sinT[t]
                        let r = Int(rho.rounded()) + diag
                        guard r >= 0, r < rhoBins else { continue }
                        acc[r * thetaBins + t] += weight * (1 - Float(abs(dt)) / Float(spread + 1))
                    }
                }
            }
        }
        // Smooth the accumulator a little, then take peaks, each clearing its neighbourhood.
        var smoothed = acc
        for r in 1..<(rhoBins - 1) {
            for t in 0..<thetaBins {
                let tl = (t + thetaBins - 1) % thetaBins, tr = (t + 1) % thetaBins
                var s = 4 * acc[r * thetaBins + t]
                s += 2 * (acc[(r - 1) * thetaBins + t] + acc[(r + 1) * thetaBins + t] + acc[r * thetaBins + tl] + acc[r * thetaBins + tr])
                s += acc[(r - 1) * thetaBins + tl] + acc[(r - 1) * thetaBins + tr] + acc[(r + 1) * thetaBins + tl] + acc[(r + 1) * thetaBins + tr]
                smoothed[r * thetaBins + t] = s / 16
            }
        }
        // Greedy peaks: the strongest cell, then the strongest not within (5 degrees, 10 px) of
        // one taken. Cells are sorted once (ties by position, as a scan would meet them) instead
        // of scanning the whole accumulator for every line.
        let minVotes: Float = 4
        var cells: [Int] = []
        smoothed.withUnsafeBufferPointer { sm in
            for i in 0..<sm.count where sm[i] >= minVotes { cells.append(i) }
            cells.sort { sm[$0] != sm[$1] ? sm[$0] > sm[$1] : $0 < $1 }
        }
        var lines: [Line] = []
        var taken: [(r: Int, t: Int)] = []
        func suppressed(_ r: Int, _ t: Int) -> Bool {
            for peak in taken {
                var dt = t - peak.t
                var rr = peak.r
                if dt > 5 || dt < -5 {
                    // Across theta = 0/180 the sign of rho flips.
                    dt = dt > 0 ? dt - thetaBins : dt + thetaBins
                    guard dt >= -5, dt <= 5 else { continue }
                    rr = 2 * diag - peak.r
                } else if peak.t + dt != t {
                    continue
                }
                if abs(r - rr) <= 10 { return true }
            }
            return false
        }
        for i in cells where lines.count < count {
            let r = i / thetaBins, t = i % thetaBins
            guard !suppressed(r, t) else { continue }
            taken.append((r, t))
            lines.append(Line(rho: Float(r - diag), theta: Float(t) * .pi / 180, votes: smoothed[i]))
        }
        return lines
    }

    /// The photo's four borders as lines.
    static func frame(width: Int, height: Int) -> [Line] {
        [Line(rho: 0, theta: 0, votes: 0, isFrame: true),
         Line(rho: Float(width - 1), theta: 0, votes: 0, isFrame: true),
         Line(rho: 0, theta: .pi / 2, votes: 0, isFrame: true),
         Line(rho: Float(height - 1), theta: .pi / 2, votes: 0, isFrame: true)]
    }
}
