import Foundation

/// Card outlines from straight lines: two nearly parallel lines crossed by two others, with the
/// photo's borders standing in for the sides of a card cut off by the frame. Each line's edge
/// support is measured once along its whole length, so any side cut from it is judged in
/// constant time, and only the best few hundred quadrilaterals go on to the full judgement.
enum LineQuads {
    /// Edge support along a line, as prefix sums over unit steps of its parameter t.
    struct Profile {
        var line: Line
        var origin: (Float, Float)
        var tStart: Float
        var prefix: [Float]   // prefix[k] = support summed over the first k steps

        /// Mean support and the share of [t1, t2] that lies in the photo.
        func support(from t1: Float, to t2: Float) -> (mean: Double, visible: Double) {
            let lo = min(t1, t2), hi = max(t1, t2)
            let span = hi - lo
            guard span > 1 else { return (0, 0) }
            let a = max(0, min(prefix.count - 1, Int(lo + 0.06 * span - tStart)))
            let b = max(0, min(prefix.count - 1, Int(hi - 0.06 * span - tStart)))
            guard b > a else { return (0, 0) }
            return (Double((prefix[b] - prefix[a]) / Float(b - a)), Double(b - a) / Double(0.88 * span))
        }

        /// `support` along the stretch of the line between two points on it.
        func support(between a: Point, and b: Point) -> (mean: Double, visible: Double) {
            support(from: parameter(of: a), to: parameter(of: b))
        }

        func parameter(of p: Point) -> Float {
            let (dx, dy) = line.direction
            return (Float(p.x) - origin.0) * dx + (Float(p.y) - origin.1) * dy
        }
    }

    static func profile(_ line: Line, edges: EdgeMap) -> Profile {
        let (nx, ny) = line.normal, (dx, dy) = line.direction
        let origin = (line.rho * nx, line.rho * ny)
        // Clip the line to the photo: the t range for which the point is inside.
        var lo: Float = -1e9, hi: Float = 1e9
        let w = Float(edges.width - 1), h = Float(edges.height - 1)
        for (o, d, limit) in [(origin.0, dx, w), (origin.1, dy, h)] {
            if abs(d) < 1e-6 {
                if o < 0 || o > limit { lo = 1; hi = 0 }
            } else {
                let t1 = (0 - o) / d, t2 = (limit - o) / d
                lo = max(lo, min(t1, t2)); hi = min(hi, max(t1, t2))
            }
        }
        guard hi > lo else { return Profile(line: line, origin: origin, tStart: 0, prefix: [0]) }
        let strong = edges.strongEdge * 0.5
        let n = Int(hi - lo) + 1
        var prefix = [Float](repeating: 0, count: n + 1)
        for k in 0..<n {
            let t = lo + Float(k)
            let px = origin.0 + t * dx, py = origin.1 + t * dy
            var best: Float = 0
            for j in -2...2 { best = max(best, edges.projected(px + Float(j) * nx, py + Float(j) * ny, nx, ny)) }
            prefix[k + 1] = prefix[k] + (best >= strong ? 1 : 0)
        }
        return Profile(line: line, origin: origin, tStart: lo, prefix: prefix)
    }

    /// How many of the strongest lines are combined.
    static let lineCount = 30

    /// Lines within this angle of each other are a pair of opposite sides; sides that meet at a
    /// corner cross at more than `crossing`.
    static let parallel: Float = 25 * .pi / 180, crossing: Float = 55 * .pi / 180

    /// How many outlines closed by a card's proportions (`completed`) go on to the judge. Ranked
    /// by their three sides' edge support only, a card's lies among many closed from a printed
    /// page's lines of text: of 116 generated photos of cards on pages, the 20 best held an
    /// outline of the card (IoU 0.85 or more) for 68, the 120 best for 84, the 300 best for 90.
    static let completedKept = 120

    /// The `keep` best outlines of four lines (or of lines and the frame), by the edge support
    /// along their sides, then the `completedKeep` best of three lines closed by a card's
    /// proportions (`completed`).
    static func proposals(in edges: EdgeMap, lineCount: Int = lineCount, keep: Int = 80,
                          completedKeep: Int = completedKept) -> [(corners: [Point], source: Hypothesis.Source)] {
        let w = Double(edges.width), h = Double(edges.height)
        let lines = HoughLines.find(in: edges, count: lineCount)
        let profiles = lines.map { profile($0, edges: edges) }
        let frame = HoughLines.frame(width: edges.width, height: edges.height)
        let all: [(Line, Profile?)] = zip(lines, profiles).map { ($0, Optional($1)) } + frame.map { ($0, nil) }
        var pairs: [(Int, Int)] = []
        for i in 0..<all.count {
            for j in (i + 1)..<all.count where all[i].0.angle(to: all[j].0) < parallel {
                if all[i].0.isFrame && all[j].0.isFrame { continue }
                pairs.append((i, j))
            }
        }
        let closed = self.closed(all, pairs: pairs, w: w, h: h).prefix(keep)
        let completed = completedKeep > 0 ? self.completed(lines: lines, profiles: profiles, pairs: pairs, w: w, h: h) : []
        return closed.map { (QuadGeometry.orderClockwiseFromTopLeft($0), Hypothesis.Source.lines) }
            + completed.prefix(completedKeep).map { (QuadGeometry.orderClockwiseFromTopLeft($0), Hypothesis.Source.completed) }
    }

    /// Two pairs of nearly parallel lines (of `all`, the photo's lines and its frame) that cross
    /// into a convex outline of a plausible aspect (`HypothesisJudge.aspectFit` above 0), best
    /// first by the edge support along its sides that are lines, summed over the four sides (a
    /// frame side counts 0) and weighed by the aspect's fit.
    static func closed(_ all: [(Line, Profile?)], pairs: [(Int, Int)], w: Double, h: Double) -> [[Point]] {
        var scored: [(Double, [Point])] = []
        for a in 0..<pairs.count {
            let (i, j) = pairs[a]
            for b in (a + 1)..<pairs.count {
                let (k, l) = pairs[b]
                if i == k || i == l || j == k || j == l { continue }
                guard all[i].0.angle(to: all[k].0) > crossing else { continue }
                let frames = [i, j, k, l].filter { all[$0].0.isFrame }.count
                guard frames <= 2 else { continue }
                guard let c0 = all[i].0.intersection(all[k].0), let c1 = all[k].0.intersection(all[j].0),
                      let c2 = all[j].0.intersection(all[l].0), let c3 = all[l].0.intersection(all[i].0) else { continue }
                let q = [c0, c1, c2, c3]
                guard q.allSatisfy({ $0.x > -0.5 * w && $0.x < 1.5 * w && $0.y > -0.5 * h && $0.y < 1.5 * h }) else { continue }
                guard QuadGeometry.isConvex(q) else { continue }
                let fit = HypothesisJudge.aspectFit(QuadGeometry.aspect(q))
                guard fit > 0 else { continue }
                // Sides: i from c3 to c0, k from c0 to c1, j from c1 to c2, l from c2 to c3.
                var total = 0.0, known = 0
                for (index, p, r) in [(i, c3, c0), (k, c0, c1), (j, c1, c2), (l, c2, c3)] {
                    guard let prof = all[index].1 else { continue }
                    let s = prof.support(between: p, and: r)
                    guard s.visible >= 0.5 else { continue }
                    total += s.mean
                    known += 1
                }
                guard known >= 2 else { continue }
                let areaShare = QuadGeometry.area(q) / (w * h)
                guard known >= 3 || areaShare > 0.3 else { continue }
                scored.append((total / 4 * (0.6 + 0.4 * fit), q))
            }
        }
        scored.sort { $0.0 > $1.0 }
        return scored.map(\.1)
    }

    /// Card shapes a card's long or short side gives, as a multiple of the other (ISO 7810's
    /// 85.6 x 54 mm, the US 3.5 x 2 in).
    static let cardAspects: [Double] = [1.586, 1.75]

    /// Outlines of cards one of whose sides is no line: a card lying on a printed page or on paper
    /// as light as it is shows three clear sides, the fourth lost in the page's print. Two
    /// parallel lines crossed by a third close into a card of a card's proportions with a fourth
    /// side parallel to the third, on either side of it; the best (by the edge support along the
    /// three sides), all in the photo, for the judge, which weighs the fourth side's evidence
    /// (colour step, plain margin) as any other.
    static func completed(lines: [Line], profiles: [Profile], pairs: [(Int, Int)], w: Double, h: Double) -> [[Point]] {
        let count = lines.count
        var scored: [(Double, [Point])] = []
        for (i, j) in pairs where i < count && j < count {
            for k in 0..<count where k != i && k != j && lines[i].angle(to: lines[k]) > crossing {
                guard let c0 = lines[i].intersection(lines[k]), let c1 = lines[j].intersection(lines[k]) else { continue }
                let a = distance(c0, c1)
                guard a > 12 else { continue }
                let sk = profiles[k].support(between: c0, and: c1)
                guard sk.visible >= 0.5 else { continue }
                let (dx, dy) = lines[i].direction
                let (kx, ky) = lines[k].normal
                for sign in [-1.0, 1.0] {
                    for aspect in cardAspects {
                        for b in [a * aspect, a / aspect] {
                            let p = Point(c0.x + sign * Double(dx) * b, c0.y + sign * Double(dy) * b)
                            let far = Line(rho: Float(p.x) * kx + Float(p.y) * ky, theta: lines[k].theta, votes: 0)
                            guard let c2 = lines[j].intersection(far), let c3 = lines[i].intersection(far) else { continue }
                            let q = [c0, c1, c2, c3]
                            guard q.allSatisfy({ $0.x >= 0 && $0.x <= w - 1 && $0.y >= 0 && $0.y <= h - 1 }),
                                  QuadGeometry.isConvex(q), HypothesisJudge.aspectFit(QuadGeometry.aspect(q)) >= 0.9 else { continue }
                            let si = profiles[i].support(between: c3, and: c0)
                            let sj = profiles[j].support(between: c1, and: c2)
                            guard si.visible >= 0.5, sj.visible >= 0.5 else { continue }
                            scored.append(((si.mean + sj.mean + sk.mean) / 3, q))
                        }
                    }
                }
            }
        }
        scored.sort { $0.0 > $1.0 }
        return scored.map(\.1)
    }
}
