import Foundation

/// A JSON value whose objects keep their keys in the order written, for stable, readable output.
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number printed as given (shortest form that reads back the same); round it first to
    /// the precision it means (`rounded(_:places:)`).
    case number(Double)
    case integer(Int)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool { a.serialized() == b.serialized() }

    /// Compact JSON text (one line).
    public func serialized() -> String {
        var out = ""
        write(into: &out)
        return out
    }

    func write(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .integer(let i): out += String(i)
        case .number(let d):
            if d.isFinite {
                out += d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) + ".0" : String(d)
            } else {
                out += "null"
            }
        case .string(let s): Self.writeString(s, into: &out)
        case .array(let items):
            out += "["
            for (i, v) in items.enumerated() {
                if i > 0 { out += "," }
                v.write(into: &out)
            }
            out += "]"
        case .object(let pairs):
            out += "{"
            for (i, (k, v)) in pairs.enumerated() {
                if i > 0 { out += "," }
                Self.writeString(k, into: &out)
                out += ":"
                v.write(into: &out)
            }
            out += "}"
        }
    }

    static func writeString(_ s: String, into out: inout String) {
        out += "\""
        TextEscaping.append(s, to: &out, replacing: jsonEscapes) { scalar in
            scalar.value < 0x20 ? String(format: "\\u%04x", scalar.value) : nil
        }
        out += "\""
    }

    /// JSON's short escapes; the other control characters take \u00XX.
    static let jsonEscapes: [Unicode.Scalar: String] = ["\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"]

    /// `value` rounded to `places` decimals, as a number.
    public static func rounded(_ value: Double, places: Int) -> JSONValue {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return .number((value * scale).rounded() / scale)
    }

    /// Optional string helper: `.null` for nil.
    public static func optional(_ s: String?) -> JSONValue { s.map { .string($0) } ?? .null }
}
