import ImageIngest

/// Ink a reading left out: rows of print on the card that no line of the reading covers.
/// Tesseract's layout analysis drops a line now and then, most often the one set much larger than
/// the rest (a name in capitals, or of two or three East Asian characters, over lines of small
/// type); such a line can be read alone.
public enum UnreadInk {
    /// A line read unsurely as a few stray characters, without an e-mail address or a number in
    /// it: what layout analysis makes of part of a character set large ("泪" and "7口" for the two
    /// halves of a name's second character). Its ink counts as unread.
    public static func isUnsureFragment(_ line: OCRLine) -> Bool {
        let printed = line.text.filter { !$0.isWhitespace }
        return line.confidence < ForeignScriptEvidence.unsureLine && printed.count <= mostFragmentCharacters
            && !printed.contains("@") && printed.filter(\.isNumber).count < 3
    }

    /// Most characters of a line `isUnsureFragment` takes for a misreading.
    static let mostFragmentCharacters = 6

    /// `page` without its unsure fragments (`isUnsureFragment`): the lines that cover ink read.
    public static func sureLines(of page: OCRPage) -> OCRPage {
        OCRPage(lines: page.lines.filter { !isUnsureFragment($0) }, width: page.width, height: page.height)
    }

    /// `page` without the unsure fragments that lie inside `box` (once the box is read surely,
    /// they were misreadings of its ink).
    public static func withoutFragments(inside box: Box, of page: OCRPage) -> OCRPage {
        OCRPage(lines: page.lines.filter { !(isUnsureFragment($0) && box.contains($0.box)) }, width: page.width, height: page.height)
    }

    /// Side of the square cells the ink is counted in, in pixels.
    static let cell = 4

    /// A cell holds ink when at least this many of its pixels are dark.
    static let inkPerCell = 3

    /// Boxes of unread print on `image` (a normalised card: dark print on light paper) that no
    /// line of `page` (a reading of the same image) covers, largest type first, each widened by a
    /// quarter of its height to be read alone. A box is as high as a line of print
    /// (`minimumHeight` up to a quarter of the card), at least as wide as high, and not at the
    /// card's edge, where shadows and the desk are.
    public static func boxes(in image: PixelImage, read page: OCRPage, minimumHeight: Int = 16, limit: Int = 3) -> [Box] {
        let gray = image.channels == 1 ? image : image.grayscale()
        let gw = gray.width / cell, gh = gray.height / cell
        guard gw >= 8, gh >= 8 else { return [] }
        var ink = inkCells(gray, gw: gw, gh: gh)
        clear(&ink, covering: page.lines.map(\.box), edgeOf: gw, gh)
        let found = joinedAlongRows(components(ink, gw: gw, gh: gh))
        let boxes = found.compactMap { c -> Box? in
            let box = Box(left: c.left * cell, top: c.top * cell, right: (c.right + 1) * cell, bottom: (c.bottom + 1) * cell)
            guard box.height >= minimumHeight, 4 * box.height <= gray.height, box.width >= box.height,
                  10 * box.width <= 9 * gray.width else { return nil }
            let margin = box.height / 4
            return Box(left: max(0, box.left - margin), top: max(0, box.top - margin),
                       right: min(gray.width, box.right + margin), bottom: min(gray.height, box.bottom + margin))
        }
        return Array(boxes.sorted { $0.height > $1.height }.prefix(limit))
    }

    /// `cells` (a grid of `gw` x `gh`) without what `boxes` (of a reading's lines or words) cover,
    /// with a margin of two cells, and without the card's edge, where shadows and the desk are.
    static func clear(_ cells: inout [Bool], covering boxes: [Box], edgeOf gw: Int, _ gh: Int) {
        for b in boxes {
            for y in max(0, b.top / cell - 2)..<min(gh, b.bottom / cell + 3) {
                for x in max(0, b.left / cell - 2)..<min(gw, b.right / cell + 3) { cells[y * gw + x] = false }
            }
        }
        let edge = max(2, min(gw, gh) / 25)
        for y in 0..<gh { for x in 0..<gw where x < edge || y < edge || x >= gw - edge || y >= gh - edge { cells[y * gw + x] = false } }
    }

    /// Which cells of a gray image hold ink.
    static func inkCells(_ gray: PixelImage, gw: Int, gh: Int) -> [Bool] {
        var counts = [Int](repeating: 0, count: gw * gh)
        gray.pixels.withUnsafeBufferPointer { p in
            for y in 0..<(gh * cell) {
                let row = y * gray.width, cy = (y / cell) * gw
                for x in 0..<(gw * cell) where p[row + x] < 128 { counts[cy + x / cell] += 1 }
            }
        }
        return counts.map { $0 >= inkPerCell }
    }

    /// A cluster of ink cells: its bounds in cells.
    struct Cluster: Equatable {
        var left, top, right, bottom: Int
    }

    /// The 8-connected clusters of ink cells.
    static func components(_ ink: [Bool], gw: Int, gh: Int) -> [Cluster] {
        var seen = [Bool](repeating: false, count: gw * gh)
        var out: [Cluster] = []
        var stack: [Int] = []
        for start in 0..<(gw * gh) where ink[start] && !seen[start] {
            seen[start] = true
            stack.append(start)
            var c = Cluster(left: start % gw, top: start / gw, right: start % gw, bottom: start / gw)
            while let i = stack.popLast() {
                let x = i % gw, y = i / gw
                c.left = min(c.left, x); c.right = max(c.right, x); c.top = min(c.top, y); c.bottom = max(c.bottom, y)
                for dy in -1...1 { for dx in -1...1 {
                    let nx = x + dx, ny = y + dy
                    guard nx >= 0, ny >= 0, nx < gw, ny < gh else { continue }
                    let j = ny * gw + nx
                    if ink[j] && !seen[j] { seen[j] = true; stack.append(j) }
                } }
            }
            out.append(c)
        }
        return out
    }

    /// Clusters joined into lines: two that share most of their height and stand apart by less
    /// than twice the line's height (the characters of a name, the words of a line).
    static func joinedAlongRows(_ clusters: [Cluster]) -> [Cluster] {
        var lines = clusters.filter { $0.bottom - $0.top >= 1 }
        var joined = true
        while joined {
            joined = false
            outer: for i in lines.indices {
                for j in lines.indices where j > i {
                    let a = lines[i], b = lines[j]
                    let shared = min(a.bottom, b.bottom) - max(a.top, b.top) + 1
                    let height = max(a.bottom - a.top, b.bottom - b.top) + 1
                    let gap = max(a.left, b.left) - min(a.right, b.right)
                    guard 2 * shared >= height, gap <= 2 * height else { continue }
                    lines[i] = Cluster(left: min(a.left, b.left), top: min(a.top, b.top), right: max(a.right, b.right),
                                       bottom: max(a.bottom, b.bottom))
                    lines.remove(at: j)
                    joined = true
                    break outer
                }
            }
        }
        return lines
    }
}
