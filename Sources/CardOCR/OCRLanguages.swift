/// The Tesseract languages an engine reads with, in order ("eng", "deu+eng"): the codes of
/// tessdata files (eng, chi_sim, deu_latf ...). Written as a literal or parsed from `--lang`.
public struct OCRLanguages: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The codes, most important first.
    public let codes: [String]

    /// English alone: the default reading.
    public static let english: OCRLanguages = "eng"

    /// Parses "eng+deu"; nil unless every code is 3-16 lower-case letters, digits or "_".
    public init?(_ spec: String) {
        let parts = spec.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        guard !parts.isEmpty, parts.allSatisfy(Self.isCode) else { return nil }
        codes = parts
    }

    public init(stringLiteral value: String) {
        guard let parsed = OCRLanguages(value) else { preconditionFailure("not Tesseract language codes: \(value)") }
        self = parsed
    }

    public init(codes: [String]) { self.codes = codes }

    /// The form Tesseract takes: codes joined by "+".
    public var description: String { codes.joined(separator: "+") }

    /// True when English is the only language.
    public var isEnglishOnly: Bool { codes == ["eng"] }

    /// These languages with `other`'s after them (each once).
    public func adding(_ other: OCRLanguages) -> OCRLanguages {
        OCRLanguages(codes: codes + other.codes.filter { !codes.contains($0) })
    }

    static func isCode(_ s: String) -> Bool {
        (3...16).contains(s.count) && s.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") }
    }
}
