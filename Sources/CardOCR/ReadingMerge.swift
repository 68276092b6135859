/// Two readings of the same card (the same pixels' places, read two ways) made into one.
extension OCRPage {
    /// The confidence from which a word of a line counts for `merging`: lower than
    /// `confidentWord`, since large or stylised type (a wordmark) is read right at 0.65-0.8.
    public static let mergedWord = 0.65

    /// The fewest letters and digits read with `mergedWord` confidence that a line of the other
    /// reading needs to be taken.
    public static let smallestAddedLine = 3

    /// How many times the surely read letters and digits of the lines it replaces a line must hold.
    public static let replacementFactor = 2

    /// How much surer (mean word confidence) a line must be than each line it replaces.
    public static let replacementMargin = 0.1

    /// Letters and digits of a line's words read with at least `mergedWord` confidence.
    public static func readCharacters(_ line: OCRLine) -> Int {
        line.words.reduce(0) { sum, word in
            sum + (word.confidence >= mergedWord ? word.text.filter { $0.isLetter || $0.isNumber }.count : 0)
        }
    }

    /// This page with the lines of `other` that read what this one read badly or not at all.
    /// A line of `other` with at least `smallestAddedLine` letters and digits read surely
    /// (`readCharacters`) is taken where this page has no line over it; it replaces the lines
    /// over it when it holds `replacementFactor` times as much such text as all of them together
    /// and is surer than each of them by `replacementMargin`; otherwise it is left out. Lines are kept top to bottom.
    /// `other` must be a reading of the same pixels at the same turn (else `self` is returned).
    public func merging(_ other: OCRPage) -> OCRPage {
        guard other.width == width, other.height == height else { return self }
        var lines = self.lines
        for line in other.lines {
            let read = Self.readCharacters(line)
            guard read >= Self.smallestAddedLine else { continue }
            let over = lines.indices.filter { Self.overlaps(lines[$0].box, line.box) }
            if !over.isEmpty {
                guard read > Self.replacementFactor * over.reduce(0, { $0 + Self.readCharacters(lines[$1]) }),
                      over.allSatisfy({ lines[$0].confidence + Self.replacementMargin <= line.confidence }) else { continue }
            }
            for i in over.reversed() { lines.remove(at: i) }
            let at = lines.firstIndex { $0.box.top > line.box.top } ?? lines.endIndex
            lines.insert(line, at: at)
        }
        return OCRPage(lines: lines, width: width, height: height)
    }

    /// True when the boxes share at least a third of the smaller one's area.
    static func overlaps(_ a: Box, _ b: Box) -> Bool {
        let w = min(a.right, b.right) - max(a.left, b.left), h = min(a.bottom, b.bottom) - max(a.top, b.top)
        guard w > 0, h > 0 else { return false }
        let smaller = min(max(1, a.width * a.height), max(1, b.width * b.height))
        return 3 * w * h >= smaller
    }
}
