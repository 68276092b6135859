import CardFormats

/// Why a code's data was not used for the record. Messages describe the data, never quote it
/// (a code holds the card's text).
public struct CodeError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// More bytes than `CodePayload.maxBytes`.
        case oversized = "code-oversized"
        /// Control characters or bytes that are not text.
        case binary = "code-binary"
        /// Not valid UTF-8, or a part in a character set that cannot be decoded.
        case invalidText = "code-invalid-text"
        /// More entries than a card has (`CodePayload.maxEntries`, `maxValuesPerField`).
        case tooManyEntries = "code-too-many-entries"
        /// vCards inside vCards deeper than `CodePayload.maxNesting`.
        case nestedTooDeep = "code-nested-too-deep"
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    /// A reader's refusal (CardFormats) as the code's error, with the same message.
    public init(_ error: FormatError) {
        switch error.code {
        case .invalidText: code = .invalidText
        case .tooManyEntries: code = .tooManyEntries
        case .nestedTooDeep: code = .nestedTooDeep
        case .malformed: code = .invalidText
        }
        message = error.message
    }
}
