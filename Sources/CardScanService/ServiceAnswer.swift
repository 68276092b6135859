import CardFormats
import CardScan
import Foundation

/// One HTTP answer: status, content type, extra headers and body.
struct ServiceAnswer: Sendable {
    var status: Int
    var contentType: String
    var headers: [(String, String)] = []
    var body: [UInt8]

    static func json(_ status: Int, _ value: JSONValue, headers: [(String, String)] = []) -> ServiceAnswer {
        ServiceAnswer(status: status, contentType: "application/json", headers: headers, body: Array((value.serialized() + "\n").utf8))
    }

    /// The JSON error of every refusal: `{"error": {"code": ..., "message": ...}}`.
    static func error(_ status: Int, _ code: String, _ message: String, headers: [(String, String)] = []) -> ServiceAnswer {
        json(status, .object([("error", .object([("code", .string(code)), ("message", .string(message))]))]), headers: headers)
    }

    /// The HTTP status of a record that failed, by its error code.
    static func status(for error: ScanError) -> Int {
        switch error.code {
        case .notAnImage, .unsupportedFormat: return 415
        case .corruptImage: return 422
        case .tooLarge: return 413
        case .emptyInput: return 400
        case .interrupted: return 503
        case .unreadable, .notAFile, .missingLanguage, .ocrFailed, .writeFailed, .encodeFailed: return 500
        }
    }
}

/// The options of a request's query string (`region`, `lang`, `format`, `name`, ...).
struct RequestQuery: Sendable {
    var values: [String: String] = [:]

    /// Parses `a=b&c=d` with percent-decoding; `nil` when a name repeats or is malformed.
    init?(_ query: Substring?) {
        guard let query, !query.isEmpty else { return }
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let plus = { (s: Substring) in s.replacingOccurrences(of: "+", with: " ") }
            guard let name = plus(parts[0]).removingPercentEncoding,
                  let value = (parts.count > 1 ? plus(parts[1]) : "").removingPercentEncoding,
                  values[name] == nil else { return nil }
            values[name] = value
        }
    }

    subscript(name: String) -> String? { values[name] }

    /// The names not in `known`, for a 400 that says which option is wrong.
    func unknown(among known: Set<String>) -> [String] { values.keys.filter { !known.contains($0) }.sorted() }
}
