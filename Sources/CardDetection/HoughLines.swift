import CDetectionKernels
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
        let threshold = max(4, edges.magnitudePercentile(0.75))
        let (isEdge, angles) = edgePixels(edges, threshold: threshold)
        var acc = Accumulator(width: edges.width, height: edges.height)
        vote(edges, isEdge: isEdge, angles: angles, strong: 3 * threshold, into: &acc)
        acc.smooth()
        return acc.peaks(count: count)
    }

    /// Votes per (rho, theta) cell: rho in pixels from -diag to diag, theta in whole degrees.
    struct Accumulator {
        let diag: Int
        let rhoBins: Int
        let thetaBins = 180
        var cells: [Float]
        let cosT: [Float]
        let sinT: [Float]

        init(width w: Int, height h: Int) {
            diag = Int((Float(w * w + h * h)).squareRoot()) + 1
            rhoBins = 2 * diag + 1
            cells = [Float](repeating: 0, count: rhoBins * 180)
            cosT = (0..<180).map { cos(Float($0) * .pi / 180) }
            sinT = (0..<180).map { sin(Float($0) * .pi / 180) }
        }

        /// The accumulator smoothed a little (a 3x3 binomial kernel, theta wrapping around), in
        /// place (`cs_smooth_accumulator`: the rows above and at the one being written are kept as
        /// they were in two rows of scratch; eight cells at a time with AVX2 unless `vector` is false).
        mutating func smooth(vector: Bool = true) {
            let n = thetaBins, rows = rhoBins
            withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * n) { scratch in
                _ = cs_smooth_accumulator(&cells, Int32(rows), Int32(n), scratch.baseAddress, vector ? 1 : 0)
            }
        }

        /// Greedy peaks: the strongest cell, then the strongest not within (5 degrees, 10 px) of
        /// one taken. Cells are sorted once (ties by position, as a scan would meet them) instead
        /// of scanning the whole accumulator for every line.
        func peaks(count: Int) -> [Line] {
            let minVotes: Float = 4
            var order: [Int] = []
            cells.withUnsafeBufferPointer { sm in
                for i in 0..<sm.count where sm[i] >= minVotes { order.append(i) }
                order.sort { sm[$0] != sm[$1] ? sm[$0] > sm[$1] : $0 < $1 }
            }
            var lines: [Line] = []
            var taken: [(r: Int, t: Int)] = []
            for i in order where lines.count < count {
                let r = i / thetaBins, t = i % thetaBins
                guard !suppressed(r, t, by: taken) else { continue }
                taken.append((r, t))
                lines.append(Line(rho: Float(r - diag), theta: Float(t) * .pi / 180, votes: cells[i]))
            }
            return lines
        }

        /// True when (r, t) lies within 5 degrees and 10 px of a peak already taken.
        func suppressed(_ r: Int, _ t: Int, by taken: [(r: Int, t: Int)]) -> Bool {
            for peak in taken {
                var dt = t - peak.t
                var rr = peak.r
                if dt > 5 || dt < -5 {
                    // Across theta = 0/180 the sign of rho flips.
                    dt = dt > 0 ? dt - thetaBins : dt + thetaBins
                    guard dt >= -5, dt <= 5 else { continue }
                    rr = 2 * diag - peak.r
                }
                if abs(r - rr) <= 10 { return true }
            }
            return false
        }
    }

    /// Edge pixels: local maxima across the edge, above `threshold` (the texture's level), with their
    /// gradient direction in degrees (0..<180) (`cs_edge_pixels`).
    static func edgePixels(_ edges: EdgeMap, threshold: Float, vector: Bool = true) -> (isEdge: [UInt8], angles: [Float]) {
        let w = edges.width, h = edges.height
        var isEdge = [UInt8](repeating: 0, count: w * h)
        var angles = [Float](repeating: 0, count: w * h)
        _ = cs_edge_pixels(edges.magnitude, edges.gx, edges.gy, Int32(w), Int32(h), threshold, &isEdge, &angles, vector ? 1 : 0)
        return (isEdge, angles)
    }

    /// Each edge pixel votes with its strength times how straight the edge runs through it:
    /// the share of its neighbours along the edge (up to 4 px each way) that are edge pixels of
    /// the same direction. Letters and texture are made of short curved strokes; a card's side
    /// runs straight for its whole length (`cs_hough_vote`; the tests hold its definition).
    static func vote(_ edges: EdgeMap, isEdge: [UInt8], angles: [Float], strong: Float, into acc: inout Accumulator,
                     vector: Bool = true) {
        _ = cs_hough_vote(edges.magnitude, isEdge, angles, Int32(edges.width), Int32(edges.height), strong, acc.cosT, acc.sinT,
                          Int32(acc.diag), Int32(acc.rhoBins), &acc.cells, vector ? 1 : 0)
    }

    /// The photo's four borders as lines.
    static func frame(width: Int, height: Int) -> [Line] {
        [Line(rho: 0, theta: 0, votes: 0, isFrame: true),
         Line(rho: Float(width - 1), theta: 0, votes: 0, isFrame: true),
         Line(rho: 0, theta: .pi / 2, votes: 0, isFrame: true),
         Line(rho: Float(height - 1), theta: .pi / 2, votes: 0, isFrame: true)]
    }
}
