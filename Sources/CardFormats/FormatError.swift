/// Why text in one of the contact formats (a vCard, a MeCard, a JSON record) was not read.
/// Messages describe the data, never quote it (it holds a card's text); the caller names the file.
public struct FormatError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// Not valid UTF-8, or a part in a character set that cannot be decoded.
        case invalidText = "invalid-text"
        /// More entries than a card has (`PayloadLimits.maxEntries`, `maxValuesPerField`).
        case tooManyEntries = "too-many-entries"
        /// vCards inside vCards deeper than `PayloadLimits.maxNesting`.
        case nestedTooDeep = "nested-too-deep"
        /// Not the format it was read as (no vCard in a .vcf file, a line that is not JSON).
        case malformed
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}

/// Bounds on what one contact payload (a code's data, one card of a vCard file) may hold.
public enum PayloadLimits {
    /// The most lines (vCard) or fields (MeCard) read.
    public static let maxEntries = 256
    /// The most phone numbers, e-mail or web addresses one contact may hold.
    public static let maxValuesPerField = 16
    /// The deepest a vCard may hold other vCards (AGENT).
    public static let maxNesting = 3
}
