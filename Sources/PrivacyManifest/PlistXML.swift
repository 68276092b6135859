/// The XML of a property list, read as events: element starts and ends, and character data,
/// each with its line. Only what plists use is accepted: an XML declaration, a DOCTYPE,
/// comments, elements (attributes skipped), character data with the five predefined entities
/// and character references, CDATA sections. Anything else is an error with its line.
///
/// Written for untrusted input: no entity expansion, no external resources, bounded nesting;
/// the linter checks that the bytes are UTF-8 before they come here. (FoundationXML's parser traps on some malformed documents: element
/// names that are not UTF-8, processing instructions without data.)
struct PlistXML {
    enum Event: Equatable {
        case start(String, line: Int)
        case end(String, line: Int)
        case text(String)
    }

    struct Failure: Error, Equatable {
        let line: Int
        let message: String
    }

    /// Nesting deeper than this is refused (a plist for a privacy manifest is four levels deep).
    static let maxDepth = 64

    private let bytes: [UInt8]
    private var i = 0
    private var line = 1
    private var events: [Event] = []
    /// The elements open, innermost last.
    private var open: [String] = []
    /// Character data not yet given out as an event.
    private var text: [UInt8] = []
    private var sawRoot = false

    /// The events of `bytes` in document order.
    static func events(_ bytes: [UInt8]) -> Result<[Event], Failure> {
        var reader = PlistXML(bytes: bytes)
        do {
            return .success(try reader.read())
        } catch let failure as Failure {
            return .failure(failure)
        } catch {
            return .failure(Failure(line: reader.line, message: "\(error)"))
        }
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }  // a UTF-8 byte order mark
    }

    private mutating func read() throws -> [Event] {
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "<") {
                try readMarkup()
                // The root element has closed once events exist and nothing is open.
                if open.isEmpty && !events.isEmpty { sawRoot = true }
            } else if b == UInt8(ascii: "&") {
                guard !open.isEmpty else { throw fail("character data outside the root element") }
                text += try readReference()
            } else {
                if b == 0x0A { line += 1 }
                if open.isEmpty {
                    guard b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D else { throw fail("text outside the root element") }
                } else {
                    text.append(b)
                }
                i += 1
            }
        }
        guard open.isEmpty else { throw fail("<\(open.last!)> is never closed") }
        guard sawRoot else { throw fail("no root element") }
        return events
    }

    /// What starts with "<": a declaration, comment, CDATA section, DOCTYPE or tag.
    private mutating func readMarkup() throws {
        if starts("<?") {
            guard events.isEmpty && open.isEmpty && !sawRoot else { throw fail("a processing instruction inside the document") }
            try skip(past: "?>", what: "the XML declaration")
        } else if starts("<!--") {
            try skip(past: "-->", what: "a comment")
        } else if starts("<![CDATA[") {
            guard !open.isEmpty else { throw fail("character data outside the root element") }
            i += 9
            let start = i
            try skip(past: "]]>", what: "a CDATA section")
            text += bytes[start..<(i - 3)]
        } else if starts("<!DOCTYPE") {
            guard open.isEmpty && !sawRoot else { throw fail("a DOCTYPE inside the document") }
            try skipDoctype()
        } else if starts("</") {
            flushText()
            i += 2
            let name = try readName()
            skipSpaces()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ">") else { throw fail("</\(name) is not closed with >") }
            i += 1
            guard let top = open.popLast() else { throw fail("</\(name)> closes nothing") }
            guard top == name else { throw fail("</\(name)> closes <\(top)>") }
            events.append(.end(name, line: line))
        } else {
            flushText()
            i += 1
            let name = try readName()
            guard open.count < Self.maxDepth else { throw fail("elements nested more than \(Self.maxDepth) deep") }
            guard !(open.isEmpty && sawRoot) else { throw fail("a second root element <\(name)>") }
            let selfClosing = try skipAttributes()
            events.append(.start(name, line: line))
            if selfClosing {
                events.append(.end(name, line: line))
            } else {
                open.append(name)
            }
        }
    }

    /// The character data gathered since the last tag, as one event.
    private mutating func flushText() {
        if !text.isEmpty { events.append(.text(String(decoding: text, as: UTF8.self))) }
        text.removeAll()
    }

    private func fail(_ message: String) -> Failure { Failure(line: line, message: message) }

    private func starts(_ s: String) -> Bool {
        let u = Array(s.utf8)
        return i + u.count <= bytes.count && bytes[i..<(i + u.count)].elementsEqual(u)
    }

    /// Moves past `end`, counting lines; an error when the input ends first.
    private mutating func skip(past end: String, what: String) throws {
        let u = Array(end.utf8)
        while i < bytes.count {
            if starts(end) { i += u.count; return }
            if bytes[i] == 0x0A { line += 1 }
            i += 1
        }
        throw fail("\(what) is never closed")
    }

    /// A DOCTYPE, with an internal subset in brackets (skipped, never expanded).
    private mutating func skipDoctype() throws {
        var depth = 0
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: ">") where depth <= 0:
                i += 1
                return
            case 0x0A: line += 1
            default: break
            }
            i += 1
        }
        throw fail("the DOCTYPE is never closed")
    }

    private mutating func skipSpaces() {
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) {
            if bytes[i] == 0x0A { line += 1 }
            i += 1
        }
    }

    /// An element name: letters, digits and - _ . : (ASCII, as every plist element is).
    private mutating func readName() throws -> String {
        let start = i
        while i < bytes.count {
            let c = bytes[i]
            let ok = (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39)
                || c == UInt8(ascii: "-") || c == UInt8(ascii: "_") || c == UInt8(ascii: ".") || c == UInt8(ascii: ":")
            guard ok else { break }
            i += 1
        }
        guard i > start, i - start <= 64 else { throw fail("an element without a valid name") }
        return String(decoding: bytes[start..<i], as: UTF8.self)
    }

    /// Skips an element's attributes up to > or />; true for />.
    private mutating func skipAttributes() throws -> Bool {
        var quote: UInt8?
        while i < bytes.count {
            let c = bytes[i]
            if c == 0x0A { line += 1 }
            if let q = quote {
                if c == q { quote = nil }
            } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                quote = c
            } else if c == UInt8(ascii: "<") {
                throw fail("< inside a tag")
            } else if c == UInt8(ascii: ">") {
                i += 1
                return i >= 2 && bytes[i - 2] == UInt8(ascii: "/")
            }
            i += 1
        }
        throw fail("a tag is never closed")
    }

    /// &lt; &gt; &amp; &quot; &apos; &#N; &#xN; as UTF-8 bytes.
    private mutating func readReference() throws -> [UInt8] {
        guard let semicolon = bytes[i..<min(bytes.count, i + 12)].firstIndex(of: UInt8(ascii: ";")) else {
            throw fail("an & that starts no entity")
        }
        let name = String(decoding: bytes[(i + 1)..<semicolon], as: UTF8.self)
        i = semicolon + 1
        switch name {
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "amp": return [UInt8(ascii: "&")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default:
            let value: UInt32?
            if name.hasPrefix("#x") { value = UInt32(name.dropFirst(2), radix: 16) }
            else if name.hasPrefix("#") { value = UInt32(name.dropFirst(), radix: 10) }
            else { value = nil }
            guard let value, value != 0, let scalar = Unicode.Scalar(value) else { throw fail("&\(name); is not an entity a property list may use") }
            return Array(String(Character(scalar)).utf8)
        }
    }
}
