import CardOCR
import ImageIngest

/// Where a reading met print it could not read. An outline that took the page a card lies on (or
/// the desk around a small card) cuts the card too small for OCR: its lines come out as unsure
/// fragments among the page's surely read text, and the page's lines stop where the card covers
/// them. The block the unsure words form (`block`), or the stretch of the page the running text
/// skips (`hole`), cut again at OCR's size, is the card read closer.
enum UnsurePrint {
    /// Confidence under which a word counts as unsurely read.
    static let unsureWord = 0.5

    /// Least unsure words the block holds.
    static let leastWords = 4

    /// How far the block is widened on each side, as a share of its width and height: the block
    /// covers the card's print, inside its margins, and part of that print may not have been
    /// read at all.
    static let margin = 0.35

    /// Largest share of the page's area the widened block may cover: more is no closer look.
    static let largestShare = 0.45

    /// A rectangle normalised to a page or card: left, top, right, bottom in 0...1.
    typealias Block = (left: Double, top: Double, right: Double, bottom: Double)

    /// The block of unsure words of `page` with the most letters and digits, widened by `margin`
    /// and normalised to the page. Two unsure words belong to one block when their boxes, widened
    /// by twice the typical word height across and by that height up and down, meet. A block
    /// counts when it holds `leastWords` words, is two word heights high at least (more than a
    /// line), spans at most four fifths of the page's width (a page's line cut by the outline's
    /// side runs across it) and, widened, covers at most `largestShare` of the page; nil when none
    /// does.
    static func block(of page: OCRPage) -> Block? {
        let words = unsureWords(of: page)
        guard words.count >= leastWords, page.width > 0, page.height > 0 else { return nil }
        let heights = words.map(\.box.height).sorted()
        let unit = max(4, heights[heights.count / 2])
        let reach = words.map { Box(left: $0.box.left - 2 * unit, top: $0.box.top - unit, right: $0.box.right + 2 * unit, bottom: $0.box.bottom + unit) }
        var parent = Array(words.indices)
        func root(_ i: Int) -> Int { parent[i] == i ? i : root(parent[i]) }
        for i in words.indices {
            for j in words.indices where j > i && reach[i].meets(reach[j]) { parent[root(j)] = root(i) }
        }
        var groups: [Int: [Int]] = [:]
        for i in words.indices { groups[root(i), default: []].append(i) }
        let scored = groups.values.compactMap { members -> (weight: Int, box: Box)? in
            guard members.count >= leastWords else { return nil }
            let box = members.dropFirst().reduce(words[members[0]].box) { $0.union(words[$1].box) }
            guard box.height >= 2 * unit, 5 * box.width <= 4 * page.width, widened(box, in: page).share <= largestShare else { return nil }
            let weight = members.reduce(0) { $0 + words[$1].text.filter { $0.isLetter || $0.isNumber }.count }
            return (weight, box)
        }
        // Ties go to the block nearest the top, then the left (the groups come in no set order).
        guard let best = scored.max(by: { ($0.weight, -$0.box.top, -$0.box.left) < ($1.weight, -$1.box.top, -$1.box.left) })
        else { return nil }
        return widened(best.box, in: page).block
    }

    /// `box` widened by `margin` within the page, normalised, and the share of the page it covers.
    static func widened(_ box: Box, in page: OCRPage) -> (block: Block, share: Double) {
        let w = Double(page.width), h = Double(page.height)
        let dx = margin * Double(box.width), dy = margin * Double(box.height)
        let left = max(0, Double(box.left) - dx) / w, right = min(w, Double(box.right) + dx) / w
        let top = max(0, Double(box.top) - dy) / h, bottom = min(h, Double(box.bottom) + dy) / h
        return ((left, top, right, bottom), (right - left) * (bottom - top))
    }

    /// The largest stretch of a page's running text that its lines skip, not at the page's edge:
    /// where a card lying on the page covers it. Lines of four surely read words of three
    /// characters or more are the page's running text, and the cells (squares of the typical word
    /// height) their sure words cover are marked (`coveredCells`). The largest rectangle of
    /// unmarked cells that touches no edge of the page, three lines high and four word heights
    /// wide at least, widened by a cell each way, covering 3% to `largestShare` of the page and
    /// holding two unsure words; nil when there is none.
    static func hole(in page: OCRPage) -> Block? {
        guard let grid = coveredCells(of: page) else { return nil }
        let (unit, cols, rows) = (grid.unit, grid.columns, grid.rows)
        let unsure = unsureWords(of: page)
        var best: (area: Int, box: Box)?
        var run = [Int](repeating: 0, count: cols)
        for r in 0..<rows {
            for c in 0..<cols { run[c] = grid.covered[r * cols + c] ? 0 : run[c] + 1 }
            // Each rectangle whose bottom row is r, as high as column c's run of unmarked cells
            // and as wide as the columns beside it run at least as high.
            for c in 0..<cols where run[c] >= 3 {
                var left = c, right = c
                while left > 0, run[left - 1] >= run[c] { left -= 1 }
                while right < cols - 1, run[right + 1] >= run[c] { right += 1 }
                let top = r - run[c] + 1, area = run[c] * (right - left + 1)
                guard left > 0, right < cols - 1, top > 0, r < rows - 1, right - left + 1 >= 4, area > best?.area ?? 0 else { continue }
                let box = Box(left: (left - 1) * unit, top: (top - 1) * unit, right: (right + 2) * unit, bottom: (r + 2) * unit)
                let share = Double(box.width * box.height) / Double(page.width * page.height)
                guard share >= 0.03, share <= largestShare, unsure.filter({ box.contains($0.box) }).count >= 2 else { continue }
                best = (area, box)
            }
        }
        guard let box = best?.box else { return nil }
        let w = Double(page.width), h = Double(page.height)
        return (Double(box.left) / w, Double(box.top) / h, min(w, Double(box.right)) / w, min(h, Double(box.bottom)) / h)
    }

    /// The lines of a page's running text: four surely read words (0.8) of three characters or more.
    static func runningLines(of page: OCRPage) -> [OCRLine] {
        page.lines.filter { line in line.words.filter { $0.confidence >= 0.8 && $0.text.count >= 3 }.count >= 4 }
    }

    /// Least lines of running text (`runningLines`) that make a reading one of a printed page.
    static let pageLines = 4

    /// The page cut into squares of its running text's typical word height, each marked when a
    /// surely read word of a line of running text (`runningLines`) covers it; nil for a page of
    /// fewer than `pageLines` such lines or fewer than 8 x 6 squares.
    static func coveredCells(of page: OCRPage) -> (covered: [Bool], unit: Int, columns: Int, rows: Int)? {
        let running = runningLines(of: page)
        let sure = running.flatMap(\.words).filter { $0.confidence >= 0.8 }
        guard running.count >= pageLines else { return nil }
        let heights = sure.map(\.box.height).sorted()
        let unit = max(4, heights[heights.count / 2])
        let cols = page.width / unit, rows = page.height / unit
        guard cols >= 8, rows >= 6 else { return nil }
        var covered = [Bool](repeating: false, count: rows * cols)
        for word in sure {
            let y0 = max(0, word.box.top / unit), y1 = min(rows - 1, max(0, word.box.bottom - 1) / unit)
            let x0 = max(0, word.box.left / unit), x1 = min(cols - 1, max(0, word.box.right - 1) / unit)
            guard y0 <= y1, x0 <= x1 else { continue }
            for y in y0...y1 { for x in x0...x1 { covered[y * cols + x] = true } }
        }
        return (covered, unit, cols, rows)
    }

    /// The words of `page` read at under `unsureWord` confidence that hold a letter or a digit.
    static func unsureWords(of page: OCRPage) -> [OCRWord] {
        page.lines.flatMap(\.words).filter { word in word.confidence < unsureWord && word.text.contains { $0.isLetter || $0.isNumber } }
    }

    /// `block`, a box of a page read turned by `rotation`, on the card as cut (normalised).
    static func onCard(_ block: Block, readTurned rotation: QuarterTurn) -> Block {
        let corners = [(block.left, block.top), (block.right, block.bottom)].map {
            PixelImage.storedPoint(fromUpright: $0, orientation: rotation.orientation)
        }
        return (min(corners[0].x, corners[1].x), min(corners[0].y, corners[1].y),
                max(corners[0].x, corners[1].x), max(corners[0].y, corners[1].y))
    }
}
