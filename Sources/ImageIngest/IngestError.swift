/// Why an image could not be read. Every message names the file and says what to do.
public struct IngestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable machine-readable kind, used as the record's `error.code`.
    public enum Code: String, Sendable {
        case unreadable = "unreadable"
        case notAnImage = "not-an-image"
        case unsupportedFormat = "unsupported-format"
        case corrupt = "corrupt-image"
        case tooLarge = "too-large"
        case empty = "empty-input"
        /// An image could not be written (the debug images).
        case encodeFailed = "encode-failed"
    }

    public let code: Code
    public let source: String
    /// A sentence a person can act on, without the file name.
    public let reason: String

    public init(_ code: Code, source: String, reason: String) {
        self.code = code
        self.source = source
        self.reason = reason
    }

    public var description: String { "\(source): \(reason)" }
}
