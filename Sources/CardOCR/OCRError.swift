/// Why OCR could not run. Messages say which file or package is missing.
public struct OCRError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        case missingLanguage = "missing-language"
        case engineFailed = "ocr-failed"
    }
    public let code: Code
    public let message: String
    public init(_ code: Code, _ message: String) { self.code = code; self.message = message }
    public var description: String { message }
}
