import ImageIngest

/// Print lighter than the card around it that a reading left out: a company's name in white on
/// a coloured band or panel, or in light grey on a dark card. Normalising the card for OCR evens
/// out its background, and a band narrower than the background's reach, with a line of small
/// light print on it, comes out nearly blank; the print read alone from the card as photographed
/// is read.
public enum LightPrint {
    /// A cell (of `UnreadInk.cell` pixels) holds light print when its lightest pixel stands this
    /// much above the card around it (the median cell within `reach`: the paper or the band,
    /// whatever print lies on it).
    static let aboveSurroundings: Float = 30
    static let reach = 4

    /// Boxes of light print on `image` (the card before normalising, at the turn of `page`, a
    /// reading of it) that no word `page` read (`isRead`) covers or stands beside, each widened by
    /// its height (twice that along the line) to be read alone; the widest first, at most `limit`.
    public static func boxes(in image: PixelImage, read page: OCRPage, limit: Int = 2) -> [Box] {
        let gray = image.channels == 1 ? image : image.grayscale()
        let cell = UnreadInk.cell
        let gw = gray.width / cell, gh = gray.height / cell
        guard gw >= 16, gh >= 16 else { return [] }
        let (mean, lightest) = cellLevels(gray, gw: gw, gh: gh)
        let around = surroundingMedians(mean, gw: gw, gh: gh)
        var light = (0..<(gw * gh)).map { lightest[$0] > around[$0] + aboveSurroundings }
        // Light print read as junk ("Gemand a Ms" beside a number) is still unread: only words
        // read surely, and numbers and addresses however surely, cover theirs.
        let readWords = page.lines.flatMap(\.words).filter(isRead).map(\.box)
        UnreadInk.clear(&light, covering: readWords, edgeOf: gw, gh)
        let found = UnreadInk.joinedAlongRows(UnreadInk.components(light, gw: gw, gh: gh))
        let boxes = found.compactMap { c -> Box? in
            let box = Box(left: c.left * cell, top: c.top * cell, right: (c.right + 1) * cell, bottom: (c.bottom + 1) * cell)
            guard box.height >= 10, 4 * box.height <= gray.height, 2 * box.width >= 3 * box.height,
                  10 * box.width <= 9 * gray.width, isLightOnDark(gray, box) else { return nil }
            // Tesseract reads a line cut close as nothing; and its first and last letters may
            // stand less above the band (its edge, a shadow): twice as wide a margin along it.
            let margin = box.height
            let widened = Box(left: max(0, box.left - 2 * margin), top: max(0, box.top - margin),
                              right: min(gray.width, box.right + 2 * margin), bottom: min(gray.height, box.bottom + margin))
            // Nothing a word read covers or stands beside on its row: a line read (an e-mail, a
            // number) is not read twice, whole or in part.
            return readWords.contains(where: { besideOrOver($0, box) }) ? nil : widened
        }
        return Array(boxes.sorted { $0.width > $1.width }.prefix(limit))
    }

    /// `page` with `part` (a reading of `box` alone) in its place, its lines read surely
    /// (`ForeignScriptEvidence.adding`); read so, it takes the place of the junk the whole card's
    /// reading made of that print (its lines inside the box with no word `isRead`).
    public static func adding(_ part: OCRPage, at box: Box, to page: OCRPage) -> OCRPage {
        let read = part.lines.contains { $0.confidence >= VerticalText.unsureColumn }
        let kept = read ? OCRPage(lines: page.lines.filter { !(box.contains($0.box) && !$0.words.contains(where: isRead)) },
                                  width: page.width, height: page.height) : page
        return ForeignScriptEvidence.adding(part, at: box, to: kept)
    }

    /// True when `word` overlaps `box` or stands on its row (sharing half the lower one's height)
    /// within twice the box's height of it.
    static func besideOrOver(_ word: Box, _ box: Box) -> Bool {
        let shared = min(word.bottom, box.bottom) - max(word.top, box.top)
        let gap = max(word.left, box.left) - min(word.right, box.right)
        return shared > 0 && (gap < 0 || (2 * shared >= min(word.height, box.height) && gap < 2 * box.height))
    }

    /// A word that holds what the whole card's reading read: read surely, or a number, an e-mail
    /// or a web address (OCR is unsure of words it has no dictionary for; their fields are read
    /// from them whatever their confidence).
    static func isRead(_ word: OCRWord) -> Bool {
        word.confidence >= ForeignScriptEvidence.unsureLine || word.text.contains("@") || word.text.filter(\.isNumber).count >= 3
            || (word.text.contains(".") && word.text.filter(\.isLetter).count >= 4)
    }

    /// True when the print in `box` is lighter than what it lies on: its pixels' minority is the
    /// light one (the 95th percentile stands further above the median than the 5th below it).
    /// Dark letters set close on light paper pull a cell's surroundings down as a band does, but
    /// in their own box the paper is most of the pixels.
    static func isLightOnDark(_ gray: PixelImage, _ box: Box) -> Bool {
        var histogram = [Int](repeating: 0, count: 256)
        for y in box.top..<min(box.bottom, gray.height) {
            for x in box.left..<min(box.right, gray.width) { histogram[Int(gray.pixels[y * gray.width + x])] += 1 }
        }
        let total = histogram.reduce(0, +)
        func percentile(_ p: Int) -> Int {
            var seen = 0
            for (value, count) in histogram.enumerated() {
                seen += count
                if seen * 100 >= total * p { return value }
            }
            return 255
        }
        let low = percentile(5), median = percentile(50), high = percentile(95)
        return high - median > median - low + lightMinorityMargin
    }

    /// How much further the light tail must reach than the dark one (`isLightOnDark`).
    static let lightMinorityMargin = 15

    /// Per cell, the median of the cells within `reach` (every other one, 25 in all), computed for
    /// every other cell and shared with its neighbours.
    static func surroundingMedians(_ mean: [Float], gw: Int, gh: Int) -> [Float] {
        var out = [Float](repeating: 0, count: gw * gh)
        var window = [Float](repeating: 0, count: 25)
        for cy in stride(from: 0, to: gh, by: 2) {
            for cx in stride(from: 0, to: gw, by: 2) {
                var n = 0
                for dy in stride(from: -reach, through: reach, by: 2) {
                    let y = min(gh - 1, max(0, cy + dy))
                    for dx in stride(from: -reach, through: reach, by: 2) {
                        window[n] = mean[y * gw + min(gw - 1, max(0, cx + dx))]
                        n += 1
                    }
                }
                window.sort()
                let median = window[n / 2]
                for y in cy..<min(gh, cy + 2) { for x in cx..<min(gw, cx + 2) { out[y * gw + x] = median } }
            }
        }
        return out
    }

    /// Each cell's mean and lightest value.
    static func cellLevels(_ gray: PixelImage, gw: Int, gh: Int) -> (mean: [Float], lightest: [Float]) {
        let cell = UnreadInk.cell
        var sum = [Int](repeating: 0, count: gw * gh)
        var top = [UInt8](repeating: 0, count: gw * gh)
        gray.pixels.withUnsafeBufferPointer { p in
            for y in 0..<(gh * cell) {
                let row = y * gray.width, cy = (y / cell) * gw
                for x in 0..<(gw * cell) {
                    let v = p[row + x], c = cy + x / cell
                    sum[c] += Int(v)
                    if v > top[c] { top[c] = v }
                }
            }
        }
        let n = Float(cell * cell)
        return (sum.map { Float($0) / n }, top.map(Float.init))
    }
}
