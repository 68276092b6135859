/// A word Tesseract read, with where it sits on the OCR image.
public struct OCRWord: Sendable, Equatable {
    public let text: String
    /// Tesseract's confidence, 0...1.
    public let confidence: Double
    public let box: Box
}

/// A line of text, its words and geometry.
public struct OCRLine: Sendable, Equatable {
    public let words: [OCRWord]
    public let box: Box
    /// The line as Tesseract spells it, for scripts written without spaces between words
    /// (Japanese, Chinese), where it joins the characters it reads as words; nil for the others.
    public let printed: String?
    public init(words: [OCRWord], box: Box, printed: String? = nil) {
        self.words = words; self.box = box; self.printed = printed
    }
    /// The words joined by single spaces (Tesseract's own spelling for Japanese and Chinese).
    public var text: String { printed ?? words.map(\.text).joined(separator: " ") }
    /// Mean word confidence, 0...1.
    public var confidence: Double {
        words.isEmpty ? 0 : words.map(\.confidence).reduce(0, +) / Double(words.count)
    }
    /// Height of the text in pixels of the OCR image (the median word height).
    public var textHeight: Double {
        let heights = words.map { Double($0.box.height) }.sorted()
        return heights.isEmpty ? Double(box.height) : heights[heights.count / 2]
    }
}

/// Everything read from one card image.
public struct OCRPage: Sendable, Equatable {
    public let lines: [OCRLine]
    public let width: Int
    public let height: Int
    public var text: String { lines.map(\.text).joined(separator: "\n") }
    public var wordCount: Int { lines.reduce(0) { $0 + $1.words.count } }
    /// Mean confidence over all words, 0 when there are none.
    public var meanWordConfidence: Double {
        let words = lines.flatMap(\.words)
        return words.isEmpty ? 0 : words.map(\.confidence).reduce(0, +) / Double(words.count)
    }

    /// The letters and digits of the words read with at least `confidentWord` confidence: how
    /// much of the page was surely read. Readings of the same card taken different ways (a wider
    /// crop, another turn) are compared by it: junk read from pictures and desk is unsure, so it
    /// neither adds to it nor, as in `readingEvidence`, takes away from the text read well.
    public var confidentCharacters: Int {
        lines.flatMap(\.words).reduce(0) { sum, word in
            sum + (word.confidence >= Self.confidentWord ? word.text.filter { $0.isLetter || $0.isNumber }.count : 0)
        }
    }

    /// The confidence from which a word counts as surely read.
    public static let confidentWord = 0.8

    /// How much confidently read text the page holds: each word's letters and digits weighted
    /// by how far its confidence is above a coin toss. A card read the wrong way up yields few
    /// letters, all of them unsure.
    public var readingEvidence: Double {
        lines.flatMap(\.words).reduce(0) { sum, word in
            sum + (word.confidence - 0.55) * Double(word.text.filter { $0.isLetter || $0.isNumber }.count)
        }
    }
}

/// An axis-aligned box in pixels of the OCR image.
public struct Box: Sendable, Equatable, Codable {
    public var left: Int
    public var top: Int
    public var right: Int
    public var bottom: Int
    public init(left: Int, top: Int, right: Int, bottom: Int) {
        self.left = left; self.top = top; self.right = right; self.bottom = bottom
    }
    public var width: Int { right - left }
    public var height: Int { bottom - top }
    /// True when `other` lies inside this box, edges included.
    public func contains(_ other: Box) -> Bool {
        other.left >= left && other.top >= top && other.right <= right && other.bottom <= bottom
    }
    /// The smallest box holding both.
    public func union(_ other: Box) -> Box {
        Box(left: min(left, other.left), top: min(top, other.top), right: max(right, other.right), bottom: max(bottom, other.bottom))
    }
    /// True when the two boxes share some area (boxes that only touch do not).
    public func intersects(_ other: Box) -> Bool {
        min(right, other.right) > max(left, other.left) && min(bottom, other.bottom) > max(top, other.top)
    }
    /// True when the two boxes share some area or touch, edge or corner.
    public func meets(_ other: Box) -> Bool {
        left <= other.right && other.left <= right && top <= other.bottom && other.top <= bottom
    }
}
