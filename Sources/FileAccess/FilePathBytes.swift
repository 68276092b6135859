/// A file path as the kernel knows it: bytes, not text. Linux file names need not be UTF-8; a
/// `String` would replace the bytes it cannot decode and then name another file (or none). The
/// bytes are kept until the path is printed, and printed escaped (`display`).
public struct FilePathBytes: Hashable, Sendable, CustomStringConvertible {
    /// The path's bytes, without a terminating NUL.
    public let bytes: [UInt8]

    public init(_ string: String) { bytes = Array(string.utf8) }

    public init(bytes: some Sequence<UInt8>) { self.bytes = Array(bytes) }

    /// The path as printed: valid UTF-8 as is, other bytes and control characters escaped
    /// (`\xNN`), so a name can neither garble a terminal nor break a record's line.
    public var display: String { DisplayText.escaping(bytes: bytes) }

    public var description: String { display }

    /// True when the bytes are valid UTF-8 (the `display` form is then the path itself, unless
    /// it holds control characters).
    public var isUTF8: Bool { String(validating: bytes, as: UTF8.self) != nil }

    /// This path with `name` appended after a slash.
    public func appending(_ name: [UInt8]) -> FilePathBytes {
        var out = bytes
        if out.last != UInt8(ascii: "/") { out.append(UInt8(ascii: "/")) }
        out += name
        return FilePathBytes(bytes: out)
    }

    /// This path with `suffix` added to its last component ("out.jsonl" -> "out.jsonl.partial").
    public func appendingSuffix(_ suffix: String) -> FilePathBytes { FilePathBytes(bytes: bytes + Array(suffix.utf8)) }

    /// The last component (after the last slash), as bytes.
    public var lastComponent: [UInt8] {
        let trimmed = withoutTrailingSlashes
        if let slash = trimmed.lastIndex(of: UInt8(ascii: "/")) { return Array(trimmed[(slash + 1)...]) }
        return Array(trimmed)
    }

    /// The folder part (everything before the last slash; "." when there is none).
    public var parent: FilePathBytes {
        let trimmed = withoutTrailingSlashes
        guard let slash = trimmed.lastIndex(of: UInt8(ascii: "/")) else { return FilePathBytes(".") }
        return slash == trimmed.startIndex ? FilePathBytes("/") : FilePathBytes(bytes: trimmed[..<slash])
    }

    /// The bytes without trailing slashes ("a/b/" -> "a/b"; "/" stays).
    private var withoutTrailingSlashes: ArraySlice<UInt8> {
        var trimmed = bytes[...]
        while trimmed.count > 1, trimmed.last == UInt8(ascii: "/") { trimmed = trimmed.dropLast() }
        return trimmed
    }

    /// Calls `body` with the path as a NUL-terminated C string.
    public func withCString<R>(_ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        var terminated = bytes
        terminated.append(0)
        return try terminated.withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }
}

/// Text about to be printed on a terminal or in a log line, made harmless.
public enum DisplayText {
    /// `bytes` as text: valid UTF-8 kept, invalid bytes and C0/C1 control characters (ESC, CR,
    /// NUL, DEL ...) written as `\xNN` (or `\u{NNNN}` for C1 controls).
    public static func escaping(bytes: [UInt8]) -> String {
        var out = ""
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                out += escaping(String(decoding: encoded, as: UTF8.self))
                offset += encoded.count
            case .error(let length):
                for byte in bytes[offset..<(offset + length)] { out += hex(byte) }
                offset += length
            case .emptyInput:
                return out
            }
        }
    }

    /// `text` with its control characters escaped (line feeds and tabs too: one line per message).
    public static func escaping(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                out += scalar.value < 0x80 ? hex(UInt8(scalar.value)) : "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
            || scalar.value == 0x2028 || scalar.value == 0x2029 || (0x202A...0x202E).contains(scalar.value)
            || (0x2066...0x2069).contains(scalar.value)
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return "\\x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 15)])
    }
}
