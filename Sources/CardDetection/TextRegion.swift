import Foundation

/// Where the text is, when no card outline convinces: the card fills the frame, lies cut off,
/// or shows no edge against its background. Fine detail is grouped into word-like blobs; blobs
/// that touch the frame or are too large for text (wood grain, fabric, a keyboard's outline) are
/// dropped; the densest cluster of what remains is the card's text. Its rectangle, turned to
/// the text's own direction and widened by a margin, stands in for the card's outline.
enum TextRegion {
    struct Region {
        /// Corners in preview pixels, clockwise from the top-left of the turned rectangle.
        var corners: [Point]
        /// Share of the preview the text blobs cover (their count and spread say how sure this is).
        var confidence: Double
    }

    static func find(detail: [UInt8], width w: Int, height h: Int) -> Region? {
        let merged = Morphology.close(detail, w: w, h: h, radius: 2)
        let (labels, components) = Components.label(merged, w: w, h: h)
        let maxHeight = max(6, min(w, h) / 10)
        var keep = [Bool](repeating: false, count: components.count + 1)  // by label
        var kept = 0
        for c in components {
            let bw = c.maxX - c.minX + 1, bh = c.maxY - c.minY + 1
            guard c.area >= 6, c.minX > 1, c.minY > 1, c.maxX < w - 2, c.maxY < h - 2 else { continue }
            guard min(bw, bh) <= maxHeight, max(bw, bh) <= max(w, h) * 2 / 3 else { continue }
            guard Double(c.area) / Double(bw * bh) >= 0.25 else { continue }
            keep[Int(c.label)] = true
            kept += 1
        }
        guard kept >= 3 else { return nil }
        var text = [UInt8](repeating: 0, count: w * h)
        for i in 0..<(w * h) where keep[Int(labels[i])] { text[i] = 1 }
        // The densest cluster: blobs within a few text heights of each other.
        let reach = max(4, min(w, h) / 25)
        let clusters = Morphology.dilate(text, w: w, h: h, radius: reach)
        let (clusterLabels, clusterComponents) = Components.label(clusters, w: w, h: h)
        var counts = [Int](repeating: 0, count: clusterComponents.count + 1)
        for i in 0..<(w * h) where text[i] != 0 { counts[Int(clusterLabels[i])] += 1 }
        guard let best = counts.indices.max(by: { counts[$0] < counts[$1] }), counts[best] >= 30 else { return nil }
        let bestLabel = Int32(best), textPixels = counts[best]
        var xs: [Double] = [], ys: [Double] = []
        for y in 0..<h {
            for x in 0..<w where text[y * w + x] != 0 && clusterLabels[y * w + x] == bestLabel {
                xs.append(Double(x)); ys.append(Double(y))
            }
        }
        // The text's direction: the orientation of the cluster's pixels' principal axis is swayed by
        // the block's shape, so take the direction of the word blobs instead (their long axes).
        let angle = dominantAngle(labels: labels, keep: keep, clusterLabels: clusterLabels, bestLabel: bestLabel, w: w, h: h)
        let ca = cos(-angle), sa = sin(-angle)
        var minU = Double.infinity, maxU = -Double.infinity, minV = Double.infinity, maxV = -Double.infinity
        for (x, y) in zip(xs, ys) {
            let u = x * ca - y * sa, v = x * sa + y * ca
            minU = min(minU, u); maxU = max(maxU, u + 1); minV = min(minV, v); maxV = max(maxV, v + 1)
        }
        let margin = 0.05 * max(maxU - minU, maxV - minV)
        minU -= margin; maxU += margin; minV -= margin; maxV += margin
        let cb = cos(angle), sb = sin(angle)
        let corners = [(minU, minV), (maxU, minV), (maxU, maxV), (minU, maxV)].map { (u, v) in
            Point(min(Double(w), max(0, u * cb - v * sb)), min(Double(h), max(0, u * sb + v * cb)))
        }
        let share = Double(textPixels) / Double(w * h)
        return Region(corners: corners, confidence: min(1, share * 10))
    }

    /// The mean direction (within +-45 degrees of horizontal) of the elongated blobs of a cluster,
    /// weighted by their size; angles are doubled so that opposite directions agree.
    static func dominantAngle(labels: [Int32], keep: [Bool], clusterLabels: [Int32], bestLabel: Int32, w: Int, h: Int) -> Double {
        var sums = [(n: Double, sx: Double, sy: Double, sxx: Double, syy: Double, sxy: Double)](repeating: (0, 0, 0, 0, 0, 0), count: keep.count)
        for y in 0..<h {
            for x in 0..<w {
                let i = y * w + x
                let l = labels[i]
                guard keep[Int(l)], clusterLabels[i] == bestLabel else { continue }
                let fx = Double(x), fy = Double(y)
                sums[Int(l)].n += 1; sums[Int(l)].sx += fx; sums[Int(l)].sy += fy
                sums[Int(l)].sxx += fx * fx; sums[Int(l)].syy += fy * fy; sums[Int(l)].sxy += fx * fy
            }
        }
        var c2 = 0.0, s2 = 0.0
        for s in sums where s.n >= 8 {
            let mx = s.sx / s.n, my = s.sy / s.n
            let vxx = s.sxx / s.n - mx * mx, vyy = s.syy / s.n - my * my, vxy = s.sxy / s.n - mx * my
            let theta = 0.5 * atan2(2 * vxy, vxx - vyy)
            let elongation = ((vxx - vyy) * (vxx - vyy) + 4 * vxy * vxy).squareRoot() / max(1e-9, vxx + vyy)
            let weight = s.n * elongation
            c2 += weight * cos(2 * theta); s2 += weight * sin(2 * theta)
        }
        guard c2 != 0 || s2 != 0 else { return 0 }
        var angle = 0.5 * atan2(s2, c2)
        // Within +-45 degrees: a block turned by 90 degrees is put right by orientation detection.
        while angle > .pi / 4 { angle -= .pi / 2 }
        while angle < -.pi / 4 { angle += .pi / 2 }
        return angle
    }
}
