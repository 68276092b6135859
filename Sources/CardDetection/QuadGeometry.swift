import Foundation

/// Plane geometry for card outlines: hulls, quadrilaterals, areas, corner order.
enum QuadGeometry {
    static func convexHull(_ input: [Point]) -> [Point] {
        let pts = input.sorted { $0.x == $1.x ? $0.y < $1.y : $0.x < $1.x }
        guard pts.count > 2 else { return pts }
        return Array(chain(pts, turn: 1).dropLast() + chain(pts.reversed(), turn: 1).dropLast())
    }

    /// One chain of Andrew's monotone chain over points in their sorted order: a point is dropped
    /// while it and the next make a turn whose cross product times `turn` is not positive (1 with
    /// x as the major key; -1 with y, the axes swapped). Multiplying by -1 is exact.
    @inline(__always)
    static func chain(_ points: some Sequence<Point>, turn: Double) -> [Point] {
        func cross(_ o: Point, _ a: Point, _ b: Point) -> Double {
            (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
        }
        var out: [Point] = []
        for p in points {
            while out.count >= 2 && turn * cross(out[out.count - 2], out[out.count - 1], p) <= 0 { out.removeLast() }
            out.append(p)
        }
        return out
    }

    /// A row of pixels from `x0` up to (not including) `x1`, whose outer corners are (x0, y),
    /// (x1, y), (x0, y + 1) and (x1, y + 1).
    struct Row {
        var y: Int
        var x0: Int
        var x1: Int
    }

    /// `convexHull` of the outer corners of `rows` (in increasing y), the same array, from far
    /// fewer points: at each level y only the leftmost and the rightmost corner can be a vertex
    /// (a point between two others on a line is not), and of those only the vertices of their
    /// hull, found in the levels' order (y, then x) without sorting, go on to `convexHull`.
    static func convexHull(ofRows rows: [Row]) -> [Point] {
        // The levels' extreme corners; a row adds to its own level and opens the next.
        var levels: [(y: Int, lo: Int, hi: Int)] = []
        levels.reserveCapacity(2 * rows.count)
        for row in rows {
            if let last = levels.last, last.y == row.y {
                levels[levels.count - 1] = (row.y, min(last.lo, row.x0), max(last.hi, row.x1))
            } else {
                levels.append((row.y, row.x0, row.x1))
            }
            levels.append((row.y + 1, row.x0, row.x1))
        }
        var sorted: [Point] = []
        sorted.reserveCapacity(2 * levels.count)
        for level in levels {
            sorted.append(Point(Double(level.lo), Double(level.y)))
            if level.hi != level.lo { sorted.append(Point(Double(level.hi), Double(level.y))) }
        }
        guard sorted.count > 2 else { return convexHull(sorted) }
        // The monotone chain with y as the major key: the axes swapped, turns of the other sense.
        return convexHull(chain(sorted, turn: -1) + chain(sorted.reversed(), turn: -1))
    }

    /// Removes hull vertices one at a time, always the one whose removal adds the least area,
    /// until four remain; each removal replaces the two neighbouring edges by their extensions'
    /// intersection, so the polygon keeps enclosing the hull.
    static func reduceToQuadrilateral(_ hull: [Point]) -> [Point]? {
        var poly = hull
        while poly.count > 4 {
            var bestIndex = -1
            var bestCost = Double.infinity
            var bestPoint = Point(0, 0)
            let n = poly.count
            for i in 0..<n {
                let a = poly[(i - 1 + n) % n], b = poly[i], c = poly[(i + 1) % n], d = poly[(i + 2) % n]
                guard let p = intersect(a, b, c, d) else { continue }
                let cost = abs((p.x - b.x) * (c.y - b.y) - (p.y - b.y) * (c.x - b.x)) / 2
                if cost < bestCost { bestCost = cost; bestIndex = i; bestPoint = p }
            }
            guard bestIndex >= 0 else { return nil }
            let n1 = (bestIndex + 1) % n
            poly[bestIndex] = bestPoint
            poly.remove(at: n1)
        }
        return poly.count == 4 ? poly : nil
    }

    /// Intersection of the lines through (a, b) and (c, d), when they meet ahead of b and behind c.
    static func intersect(_ a: Point, _ b: Point, _ c: Point, _ d: Point) -> Point? {
        let r = Point(b.x - a.x, b.y - a.y), s = Point(d.x - c.x, d.y - c.y)
        let denom = r.x * s.y - r.y * s.x
        guard abs(denom) > 1e-9 else { return nil }
        let t = ((c.x - a.x) * s.y - (c.y - a.y) * s.x) / denom
        let u = ((c.x - a.x) * r.y - (c.y - a.y) * r.x) / denom
        guard t >= 1, u <= 0 else { return nil }
        return Point(a.x + t * r.x, a.y + t * r.y)
    }

    static func area(_ p: [Point]) -> Double {
        var s = 0.0
        for i in 0..<p.count {
            let a = p[i], b = p[(i + 1) % p.count]
            s += a.x * b.y - b.x * a.y
        }
        return abs(s) / 2
    }

    static func isConvex(_ q: [Point]) -> Bool {
        var sign = 0.0
        for i in 0..<q.count {
            let a = q[i], b = q[(i + 1) % q.count], c = q[(i + 2) % q.count]
            let cross = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x)
            if abs(cross) < 1e-9 { return false }
            if sign == 0 { sign = cross } else if (cross > 0) != (sign > 0) { return false }
        }
        return true
    }

    /// The largest |cos| of the four corner angles (0 for right angles).
    static func cornerSkew(_ q: [Point]) -> Double {
        var worst = 0.0
        for k in 0..<4 {
            let a = q[(k + 3) % 4], b = q[k], c = q[(k + 1) % 4]
            let v1 = Point(a.x - b.x, a.y - b.y), v2 = Point(c.x - b.x, c.y - b.y)
            let n = distance(a, b) * distance(c, b)
            guard n > 0 else { return 1 }
            worst = max(worst, abs((v1.x * v2.x + v1.y * v2.y) / n))
        }
        return worst
    }

    /// Long side over short side, from the means of opposite sides.
    static func aspect(_ q: [Point]) -> Double {
        let a = (distance(q[0], q[1]) + distance(q[2], q[3])) / 2
        let b = (distance(q[1], q[2]) + distance(q[3], q[0])) / 2
        return max(a, b) / max(1e-9, min(a, b))
    }

    /// True when `p` lies inside the convex quadrilateral `q` or within `tolerance` pixels of it.
    static func contains(_ q: [Point], _ p: Point, tolerance: Double = 0) -> Bool {
        let c = Point(q.map(\.x).reduce(0, +) / 4, q.map(\.y).reduce(0, +) / 4)
        for i in 0..<4 {
            let a = q[i], b = q[(i + 1) % 4]
            let len = distance(a, b)
            guard len > 0 else { return false }
            // Signed distance of p from the side, positive on the centre's side.
            let side = ((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)) / len
            let centreSide = ((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)) / len
            if (centreSide > 0 ? side : -side) < -tolerance { return false }
        }
        return true
    }

    /// How many sides of `a` lie along a side of `b` (nearly parallel, both ends close to it).
    static func sharedSides(_ a: [Point], _ b: [Point]) -> Int {
        var shared = 0
        for i in 0..<4 {
            let p = a[i], q = a[(i + 1) % 4]
            for j in 0..<4 {
                let r = b[j], s = b[(j + 1) % 4]
                let len = distance(r, s)
                guard len > 0 else { continue }
                func off(_ x: Point) -> Double { abs((s.x - r.x) * (x.y - r.y) - (s.y - r.y) * (x.x - r.x)) / len }
                let tolerance = max(3, 0.02 * len)
                if off(p) <= tolerance && off(q) <= tolerance { shared += 1; break }
            }
        }
        return shared
    }

    /// True when every corner of each outline lies within 15% of the smaller one's short side (3
    /// pixels at least) of a corner of the other: nearly the same outline.
    static func sameOutline(_ a: [Point], _ b: [Point]) -> Bool {
        let short = min(min(distance(a[0], a[1]), distance(a[1], a[2])), min(distance(b[0], b[1]), distance(b[1], b[2])))
        let tolerance = max(3, 0.15 * short)
        return a.allSatisfy { p in b.contains { distance($0, p) <= tolerance } }
            && b.allSatisfy { p in a.contains { distance($0, p) <= tolerance } }
    }

    /// The share of the convex outline `a` inside the convex outline `b`, estimated on a grid of
    /// points in `a` (8 x 5).
    static func insideShare(_ a: [Point], _ b: [Point]) -> Double {
        let points = HypothesisJudge.grid(a, cols: 8, rows: 5, inset: 0)
        return Double(points.filter { contains(b, $0) }.count) / Double(points.count)
    }

    /// Intersection over union of two convex outlines, estimated on a grid of points in each
    /// (`insideShare`), times its area.
    static func overlap(_ a: [Point], _ b: [Point]) -> Double {
        let areaA = area(a), areaB = area(b)
        let common = (insideShare(a, b) * areaA + insideShare(b, a) * areaB) / 2
        let union = areaA + areaB - common
        return union > 0 ? common / union : 0
    }

    static func orderClockwiseFromTopLeft(_ quad: [Point]) -> [Point] {
        let cx = quad.map(\.x).reduce(0, +) / 4, cy = quad.map(\.y).reduce(0, +) / 4
        // Clockwise in image coordinates (y down) is increasing angle.
        let sorted = quad.sorted { atan2($0.y - cy, $0.x - cx) < atan2($1.y - cy, $1.x - cx) }
        let start = sorted.indices.min { sorted[$0].x + sorted[$0].y < sorted[$1].x + sorted[$1].y } ?? 0
        return (0..<4).map { sorted[(start + $0) % 4] }
    }
}
