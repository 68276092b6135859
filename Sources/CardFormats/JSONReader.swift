extension JSONValue {
    /// The deepest nesting of arrays and objects `parse` accepts.
    public static let maxDepth = 64

    /// Reads one JSON text (RFC 8259: one value, white space around it). Numbers without a
    /// fraction or exponent that fit an `Int` are `.integer`, the others `.number`.
    /// - Throws: `FormatError.malformed` (or `.nestedTooDeep` past `maxDepth`), saying where;
    ///   the message never quotes the text.
    public static func parse(_ text: String) throws(FormatError) -> JSONValue {
        var reader = JSONReader(bytes: Array(text.utf8))
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.at == reader.bytes.count else { throw reader.failure("text after the JSON value") }
        return value
    }

    /// The value of `key` in an object (the first, if written twice); nil for another key or
    /// another kind of value.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.first { $0.0 == key }?.1
    }

    public var stringValue: String? { if case .string(let s) = self { return s }; return nil }
    public var boolValue: Bool? { if case .bool(let b) = self { return b }; return nil }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a }; return nil }
    public var isNull: Bool { if case .null = self { return true }; return false }
    /// A number, written with or without a fraction.
    public var doubleValue: Double? {
        switch self {
        case .number(let d): return d
        case .integer(let i): return Double(i)
        default: return nil
        }
    }
}

/// A recursive-descent reader over UTF-8 bytes (the text is valid UTF-8: it is a `String`).
private struct JSONReader {
    let bytes: [UInt8]
    var at = 0

    func failure(_ what: String) -> FormatError {
        FormatError(.malformed, "not valid JSON: \(what) at byte \(at + 1)")
    }

    mutating func skipSpace() {
        while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 }
    }

    mutating func value(depth: Int) throws(FormatError) -> JSONValue {
        guard depth < JSONValue.maxDepth else {
            throw FormatError(.nestedTooDeep, "JSON nested deeper than \(JSONValue.maxDepth) levels at byte \(at + 1)")
        }
        skipSpace()
        guard at < bytes.count else { throw failure("the text ends where a value should be") }
        switch bytes[at] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try word("true"); return .bool(true)
        case UInt8(ascii: "f"): try word("false"); return .bool(false)
        case UInt8(ascii: "n"): try word("null"); return .null
        default: return try number()
        }
    }

    mutating func word(_ w: StaticString) throws(FormatError) {
        let n = w.utf8CodeUnitCount
        guard at + n <= bytes.count, (0..<n).allSatisfy({ bytes[at + $0] == w.utf8Start[$0] }) else {
            throw failure("an unknown word")
        }
        at += n
    }

    mutating func object(depth: Int) throws(FormatError) -> JSONValue {
        at += 1
        var pairs: [(String, JSONValue)] = []
        skipSpace()
        if at < bytes.count, bytes[at] == UInt8(ascii: "}") { at += 1; return .object(pairs) }
        while true {
            skipSpace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw failure("a key that is not a string") }
            let key = try string()
            skipSpace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw failure("a key without ':'") }
            at += 1
            pairs.append((key, try value(depth: depth + 1)))
            skipSpace()
            guard at < bytes.count else { throw failure("an object that is not closed") }
            if bytes[at] == UInt8(ascii: "}") { at += 1; return .object(pairs) }
            guard bytes[at] == UInt8(ascii: ",") else { throw failure("a missing ',' in an object") }
            at += 1
        }
    }

    mutating func array(depth: Int) throws(FormatError) -> JSONValue {
        at += 1
        var items: [JSONValue] = []
        skipSpace()
        if at < bytes.count, bytes[at] == UInt8(ascii: "]") { at += 1; return .array(items) }
        while true {
            items.append(try value(depth: depth + 1))
            skipSpace()
            guard at < bytes.count else { throw failure("an array that is not closed") }
            if bytes[at] == UInt8(ascii: "]") { at += 1; return .array(items) }
            guard bytes[at] == UInt8(ascii: ",") else { throw failure("a missing ',' in an array") }
            at += 1
        }
    }

    mutating func string() throws(FormatError) -> String {
        at += 1
        var out: [UInt8] = []
        while at < bytes.count {
            let b = bytes[at]
            switch b {
            case UInt8(ascii: "\""):
                at += 1
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try escape(into: &out)
            case 0..<0x20:
                throw failure("a control character in a string")
            default:
                out.append(b)
                at += 1
            }
        }
        throw failure("a string that is not closed")
    }

    /// The escapes of one letter: \" \\ \/ \b \f \n \r \t, by the byte after the backslash.
    static let simpleEscapes: [UInt8: UInt8] = [0x22: 0x22, 0x5C: 0x5C, 0x2F: 0x2F, 0x62: 0x08, 0x66: 0x0C, 0x6E: 0x0A, 0x72: 0x0D, 0x74: 0x09]

    mutating func escape(into out: inout [UInt8]) throws(FormatError) {
        guard at + 1 < bytes.count else { throw failure("a string that is not closed") }
        if let c = Self.simpleEscapes[bytes[at + 1]] { out.append(c); at += 2; return }
        guard bytes[at + 1] == UInt8(ascii: "u") else { throw failure("an unknown escape") }
        at += 2
        var scalar = try hex4()
        if (0xD800..<0xDC00).contains(scalar) {
            guard at + 1 < bytes.count, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u") else {
                throw failure("a lone surrogate")
            }
            at += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw failure("a lone surrogate") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00..<0xE000).contains(scalar) {
            throw failure("a lone surrogate")
        }
        guard let u = Unicode.Scalar(scalar) else { throw failure("an escape that is not a character") }
        out.append(contentsOf: String(Character(u)).utf8)
    }

    mutating func hex4() throws(FormatError) -> UInt32 {
        guard at + 4 <= bytes.count else { throw failure("a short \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[at]
            let d: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = b - UInt8(ascii: "A") + 10
            default: throw failure("a \\u escape that is not hexadecimal")
            }
            v = v << 4 | UInt32(d)
            at += 1
        }
        return v
    }

    /// -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
    mutating func number() throws(FormatError) -> JSONValue {
        let start = at
        func digits(_ r: inout JSONReader) -> Int {
            let s = r.at
            while r.at < r.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(r.bytes[r.at]) { r.at += 1 }
            return r.at - s
        }
        if at < bytes.count, bytes[at] == UInt8(ascii: "-") { at += 1 }
        let intStart = at
        let n = digits(&self)
        guard n > 0 else { throw failure("an unexpected character") }
        guard n == 1 || bytes[intStart] != UInt8(ascii: "0") else { throw failure("a number with a leading zero") }
        var whole = true
        if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
            at += 1
            guard digits(&self) > 0 else { throw failure("a number without digits after '.'") }
            whole = false
        }
        if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
            at += 1
            if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") { at += 1 }
            guard digits(&self) > 0 else { throw failure("a number without digits in its exponent") }
            whole = false
        }
        let text = String(decoding: bytes[start..<at], as: UTF8.self)
        if whole, let i = Int(text) { return .integer(i) }
        guard let d = Double(text), d.isFinite else { throw failure("a number out of range") }
        return .number(d)
    }
}
