/// A point in image coordinates (pixels, or 0...1 when normalised).
public struct Point: Sendable, Equatable, Codable {
    public var x: Double
    public var y: Double
    public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
}

/// A card's outline: four corners normalised (0...1) to the image they were found in (the photo
/// as stored while detecting), clockwise from the card's top-left once `CardPreparer` orders them.
public struct Quadrilateral: Sendable, Equatable {
    public var corners: [Point]

    public init(corners: [Point]) {
        precondition(corners.count == 4)
        self.corners = corners
    }

    func scaled(width: Double, height: Double) -> [Point] {
        corners.map { Point($0.x * width, $0.y * height) }
    }
}

/// A projective transform mapping destination pixels to source pixels.
struct Homography {
    var m: [Double]  // 3x3 row-major, m[8] == 1

    /// The transform sending the unit corners (0,0),(1,0),(1,1),(0,1) of a w x h rectangle to `quad`.
    init?(rectangleWidth w: Double, height h: Double, to quad: [Point]) {
        let src = [Point(0, 0), Point(w, 0), Point(w, h), Point(0, h)]
        var a = [[Double]](repeating: [Double](repeating: 0, count: 9), count: 8)
        for i in 0..<4 {
            let (x, y) = (src[i].x, src[i].y)
            let (u, v) = (quad[i].x, quad[i].y)
            a[2 * i] = [x, y, 1, 0, 0, 0, -u * x, -u * y, u]
            a[2 * i + 1] = [0, 0, 0, x, y, 1, -v * x, -v * y, v]
        }
        // Gaussian elimination with partial pivoting on the 8x8 system.
        for col in 0..<8 {
            var pivot = col
            for r in col..<8 where abs(a[r][col]) > abs(a[pivot][col]) { pivot = r }
            guard abs(a[pivot][col]) > 1e-12 else { return nil }
            a.swapAt(col, pivot)
            for r in 0..<8 where r != col {
                let f = a[r][col] / a[col][col]
                if f == 0 { continue }
                for c in col..<9 { a[r][c] -= f * a[col][c] }
            }
        }
        var h8 = [Double](repeating: 0, count: 9)
        for i in 0..<8 { h8[i] = a[i][8] / a[i][i] }
        h8[8] = 1
        m = h8
    }

    @inline(__always) func apply(_ x: Double, _ y: Double) -> (Double, Double) {
        let d = m[6] * x + m[7] * y + m[8]
        return ((m[0] * x + m[1] * y + m[2]) / d, (m[3] * x + m[4] * y + m[5]) / d)
    }
}

func distance(_ a: Point, _ b: Point) -> Double {
    ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
}
