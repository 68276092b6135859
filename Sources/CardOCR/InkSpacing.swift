import ImageIngest

/// The spaces a line of Japanese, Chinese or Korean print really has, measured in its ink.
///
/// Tesseract's data for these scripts sets spaces by guess: it parts a name printed close
/// ("吴红 梅") and joins one printed with a space ("王秀芳"), and its boxes for single characters
/// overlap (the first often spans the whole word), so its gaps cannot tell either. Full-width
/// characters advance by one pitch each, and the gap between two of them is a small share of it;
/// a space (0.3 of the type's height or more) is a gap few characters hold inside them. So a
/// line of such characters alone is cut at its blank gaps of a space's width, the characters are
/// shared out among the pieces by their widths, and when every piece holds a whole number of
/// pitches the line is spelled with a space between pieces and nowhere else.
public enum InkSpacing {
    /// Narrowest blank gap, as a share of the line's ink height, that is a space (a space of
    /// Noto's CJK faces, with the bearings beside it, is 0.31-0.45 of it; gaps between two
    /// characters set close, and inside one such as 川, reach 0.27).
    public static let spaceGap = 0.3
    /// Lowest ink height, in pixels, whose gaps are measured: in smaller type a space is a few
    /// pixels, and blur and thresholding open gaps as wide inside characters.
    public static let smallestHeight = 36
    /// Widest gap, as a share of the ink height, that is a space (an ideographic space and its
    /// bearings are about 1.2).
    static let widestSpace = 2.0
    /// A piece of k characters spans k pitches less this share of one (the outer sides' bearings).
    static let bearings = 0.1
    /// How far a piece's width may be from a whole number of pitches.
    static let pitchTolerance = 0.3

    /// `page` (read from `image`, dark ink on light paper) with each line of full-width
    /// characters alone spelled with the spaces its ink shows; other lines as read.
    public static func spaced(_ page: OCRPage, image: PixelImage) -> OCRPage {
        let gray = image.channels == 1 ? image : image.grayscale()
        let lines = page.lines.map { line in
            (try? spacedLine(line, image: gray)) ?? line
        }
        return OCRPage(lines: lines, width: page.width, height: page.height)
    }

    struct NotMeasured: Error {}

    /// The line spelled by its ink, or an error when it is not a line of full-width characters
    /// alone, runs across the image's edge, or its pieces do not hold whole characters.
    static func spacedLine(_ line: OCRLine, image: PixelImage) throws(NotMeasured) -> OCRLine {
        guard let characters = fullWidthLetters(only: line.text), (2...40).contains(characters.count) else { throw NotMeasured() }
        let box = line.box
        guard box.left >= 0, box.top >= 0, box.right <= image.width, box.bottom <= image.height,
              box.height >= 8, box.width >= box.height else { throw NotMeasured() }
        let ink = Ink(image, box: box)
        guard ink.height >= smallestHeight else { throw NotMeasured() }
        let pieces = ink.pieces(minimumGap: Int((spaceGap * Double(ink.height)).rounded(.up)))
        // A gap wider than two characters parts two columns, whose type may differ in size.
        guard !zip(pieces, pieces.dropFirst()).contains(where: { Double($1.0 - $0.1) > widestSpace * Double(ink.height) }) else {
            throw NotMeasured()
        }
        let counts = try characterCounts(widths: pieces.map { $0.1 - $0.0 }, total: characters.count, height: ink.height)
        var words: [OCRWord] = []
        var start = characters.startIndex
        let confidence = line.confidence
        for (piece, count) in zip(pieces, counts) {
            let end = characters.index(start, offsetBy: count)
            words.append(OCRWord(text: String(characters[start..<end]), confidence: confidence,
                                 box: Box(left: box.left + piece.0, top: box.top + ink.top, right: box.left + piece.1, bottom: box.top + ink.bottom)))
            start = end
        }
        return OCRLine(words: words, box: box, printed: words.map(\.text).joined(separator: " "))
    }

    /// How many characters each piece of ink of these widths holds, `total` in all; an error
    /// when the widths are not whole numbers of one pitch.
    static func characterCounts(widths: [Int], total: Int, height: Int) throws(NotMeasured) -> [Int] {
        let sum = Double(widths.reduce(0, +))
        let pitch = sum / (Double(total) - bearings * Double(widths.count))
        guard pitch >= 0.5 * Double(height), pitch <= 1.6 * Double(height) else { throw NotMeasured() }
        let shares = widths.map { (Double($0) + bearings * pitch) / pitch }
        let counts = shares.map { max(1, Int($0.rounded())) }
        guard counts.reduce(0, +) == total, zip(shares, counts).allSatisfy({ abs($0 - Double($1)) <= pitchTolerance }) else {
            throw NotMeasured()
        }
        return counts
    }

    /// The letters of `text` when it holds full-width letters and spaces alone, nil otherwise.
    static func fullWidthLetters(only text: String) -> String? {
        let letters = text.filter { $0 != " " && $0 != "\u{3000}" }
        return letters.allSatisfy(isFullWidthLetter) ? letters : nil
    }

    /// Han characters, kana and Hangul syllables: the letters set one full pitch each.
    static func isFullWidthLetter(_ ch: Character) -> Bool {
        guard let v = ch.unicodeScalars.first?.value, ch.unicodeScalars.count == 1 else { return false }
        return (0x3040...0x30FF).contains(v) || (0x4E00...0x9FFF).contains(v) || (0x3400...0x4DBF).contains(v)
            || (0xAC00...0xD7A3).contains(v) || (0xF900...0xFAFF).contains(v) || v == 0x3005
    }

    /// The ink of a line's box: which columns hold some, and the rows it spans.
    struct Ink {
        var columns: [Bool] = []
        var top = 0, bottom = 0
        var height: Int { bottom - top }

        init(_ image: PixelImage, box: Box) {
            let w = box.width, h = box.height
            var perColumn = [Int](repeating: 0, count: w), perRow = [Int](repeating: 0, count: h)
            for y in 0..<h {
                let row = (box.top + y) * image.width + box.left
                for x in 0..<w where image.pixels[row + x] < 128 {
                    perColumn[x] += 1
                    perRow[y] += 1
                }
            }
            // A speck of noise is not ink: a column needs more than one dark pixel in twenty.
            let least = max(1, h / 20)
            columns = perColumn.map { $0 > least }
            let rows = perRow.indices.filter { perRow[$0] > 1 }
            top = rows.first ?? 0
            bottom = (rows.last ?? -1) + 1
        }

        /// The runs of inked columns parted by blank gaps of at least `minimumGap` columns.
        func pieces(minimumGap: Int) -> [(Int, Int)] {
            var out: [(Int, Int)] = []
            var x = 0
            while x < columns.count {
                guard columns[x] else { x += 1; continue }
                var end = x
                while end < columns.count && columns[end] { end += 1 }
                if let last = out.last, x - last.1 < minimumGap {
                    out[out.count - 1].1 = end
                } else {
                    out.append((x, end))
                }
                x = end
            }
            return out
        }
    }
}
