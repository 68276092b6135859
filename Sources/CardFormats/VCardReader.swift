import ContactParser
import Foundation

/// vCard 2.1, 3.0 and 4.0 (RFC 2425/2426, RFC 6350): the first card of a payload, its folded
/// lines unfolded, quoted-printable values and their character sets decoded, escapes undone.
public enum VCard {
    /// One content line: its name (upper case, group dropped), parameters and decoded value.
    struct Property {
        var name: String
        /// Parameter values by upper-case name; vCard 2.1's bare types ("WORK", "CELL") are TYPE.
        var parameters: [String: [String]]
        var value: String

        /// The TYPE values, lower case ("work", "cell", "fax").
        var types: Set<String> { Set((parameters["TYPE"] ?? []).map { $0.lowercased() }) }
    }

    /// Reads the first vCard of `payload` into `builder`.
    /// - Throws: `FormatError` for text that cannot be decoded, too many lines, or vCards nested too deep.
    public static func read(_ payload: String, into builder: inout ContactBuilder) throws(FormatError) {
        for p in try properties(of: payload) {
            switch p.name {
            case "FN": builder.setFullName(unescaped(p.value))
            case "N": readName(p, into: &builder)
            case "ORG": builder.setOrganization(components(p.value).first)
            case "TITLE": builder.setTitle(unescaped(p.value))
            case "TEL": try builder.addPhone(unescaped(p.value), types: p.types)
            case "EMAIL": try builder.addEmail(unescaped(p.value))
            case "URL": try builder.addURL(unescaped(p.value))
            case "ADR": readAddress(p, into: &builder)
            case "UID": if builder.uid == nil { builder.uid = unescaped(p.value) }
            default: continue
            }
        }
    }

    /// N: family; given; additional; prefixes; suffixes. FN, read before or after, wins for the whole name.
    static func readName(_ p: Property, into builder: inout ContactBuilder) {
        let parts = components(p.value)
        func part(_ i: Int) -> String? { i < parts.count && !parts[i].isEmpty ? parts[i] : nil }
        let given = [part(1), part(2)].compactMap { $0 }.joined(separator: " ")
        builder.setNameParts(given: given.isEmpty ? nil : given, family: part(0), prefix: part(3), suffix: part(4))
    }

    /// ADR: post office box; extended address; street; locality; region; postal code; country.
    static func readAddress(_ p: Property, into builder: inout ContactBuilder) {
        let parts = components(p.value)
        func part(_ i: Int) -> String? { i < parts.count && !parts[i].isEmpty ? parts[i] : nil }
        let street = [part(0).map { "PO Box " + $0 }, part(2)].compactMap { $0 }.joined(separator: ", ")
        builder.setAddress(.init(street: street.isEmpty ? nil : street, extended: part(1), city: part(3), region: part(4),
                                 postalCode: part(5), country: part(6)))
    }

    /// The content lines of the payload's first vCard, unfolded and decoded.
    static func properties(of payload: String) throws(FormatError) -> [Property] {
        let lines = unfolded(payload)
        guard lines.count <= PayloadLimits.maxEntries else {
            throw FormatError(.tooManyEntries, "the vCard has \(lines.count) lines; at most \(PayloadLimits.maxEntries) are read")
        }
        var out: [Property] = []
        var depth = 0
        for line in lines {
            guard let p = try property(line) else { continue }
            let opensCard = (p.name == "BEGIN" || p.name == "AGENT") && p.value.uppercased().hasPrefix("BEGIN:VCARD")
                || p.name == "BEGIN" && p.value.uppercased() == "VCARD"
            if opensCard {
                depth += 1
                guard depth <= PayloadLimits.maxNesting else {
                    throw FormatError(.nestedTooDeep, "the vCard holds vCards nested \(depth) deep; at most \(PayloadLimits.maxNesting) are read")
                }
                continue
            }
            if p.name == "END", p.value.uppercased() == "VCARD" {
                depth -= 1
                if depth <= 0 { break }
                continue
            }
            // Only the outer card's own lines: an AGENT's card is somebody else.
            if depth == 1 { out.append(p) }
        }
        return out
    }

    /// Physical lines joined into content lines: a line starting with a space or a tab continues
    /// the one before (3.0, 4.0), and so does the line after a quoted-printable value ending in "=" (2.1).
    static func unfolded(_ payload: String) -> [String] {
        var out: [String] = []
        let physical = payload.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false)
        for raw in physical {
            if let last = out.last, raw.first == " " || raw.first == "\t" {
                out[out.count - 1] = last + raw.dropFirst()
            } else if let last = out.last, last.hasSuffix("="), isQuotedPrintable(last) {
                out[out.count - 1] = String(last.dropLast()) + raw
            } else if !raw.isEmpty {
                out.append(String(raw))
            }
            // A payload that is one long run of folds is still bounded by maxBytes.
            if out.count > PayloadLimits.maxEntries { break }
        }
        return out
    }

    static func isQuotedPrintable(_ line: String) -> Bool {
        guard let colon = line.firstIndex(of: ":") else { return false }
        return line[..<colon].uppercased().contains("QUOTED-PRINTABLE")
    }

    /// One content line taken apart; nil for a line without a name and a colon.
    static func property(_ line: String) throws(FormatError) -> Property? {
        let (head, rawValue) = splitAtValue(line)
        guard let rawValue else { return nil }
        let segments = splitUnquoted(head, on: ";")
        guard var name = segments.first?.uppercased(), !name.isEmpty else { return nil }
        if let dot = name.lastIndex(of: ".") { name = String(name[name.index(after: dot)...]) }
        var parameters: [String: [String]] = [:]
        for segment in segments.dropFirst() {
            if let eq = segment.firstIndex(of: "=") {
                let key = segment[..<eq].uppercased().trimmingCharacters(in: .whitespaces)
                // TYPE=work,voice and TYPE="work,voice" (4.0 quotes a list) are the same two values.
                let values = splitUnquoted(String(segment[segment.index(after: eq)...]), on: ",")
                    .flatMap { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")).split(separator: ",").map(String.init) }
                parameters[key, default: []] += values
            } else {
                // vCard 2.1: "TEL;WORK;VOICE:", "NOTE;QUOTED-PRINTABLE:".
                let bare = segment.uppercased()
                parameters[bare == "QUOTED-PRINTABLE" || bare == "BASE64" ? "ENCODING" : "TYPE", default: []].append(bare)
            }
        }
        let encoding = (parameters["ENCODING"] ?? []).map { $0.uppercased() }
        if encoding.contains(where: { $0 == "B" || $0 == "BASE64" }) { return nil }  // a photo or a logo
        var value = rawValue
        if encoding.contains("QUOTED-PRINTABLE") {
            value = try decodeQuotedPrintable(rawValue, charset: parameters["CHARSET"]?.first)
        }
        return Property(name: name, parameters: parameters, value: value)
    }

    /// The part before the first colon outside double quotes, and the value after it.
    static func splitAtValue(_ line: String) -> (String, String?) {
        var quoted = false
        for i in line.indices {
            if line[i] == "\"" { quoted.toggle() }
            if line[i] == ":" && !quoted { return (String(line[..<i]), String(line[line.index(after: i)...])) }
        }
        return (line, nil)
    }

    static func splitUnquoted(_ s: String, on separator: Character) -> [String] {
        MeCard.split(s, on: separator, quoting: true)
    }

    /// "=C3=A9" and the like to bytes, then text in `charset` (UTF-8 when none is named).
    static func decodeQuotedPrintable(_ s: String, charset: String?) throws(FormatError) -> String {
        var bytes: [UInt8] = []
        let utf8 = Array(s.utf8)
        var i = 0
        while i < utf8.count {
            if utf8[i] == UInt8(ascii: "="), i + 2 < utf8.count, let hi = hexValue(utf8[i + 1]), let lo = hexValue(utf8[i + 2]) {
                bytes.append(hi << 4 | lo)
                i += 3
            } else {
                bytes.append(utf8[i])
                i += 1
            }
        }
        guard let text = Charsets.decode(bytes, charset: charset) else {
            throw FormatError(.invalidText, "a quoted-printable vCard value is not valid \(charset ?? "UTF-8") text")
        }
        return text
    }

    static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
        default: return nil
        }
    }

    /// A structured value (N, ADR, ORG) split at its unescaped semicolons, each part unescaped.
    static func components(_ value: String) -> [String] {
        MeCard.splitUnescaped(value, on: ";").map { unescaped($0).trimmingCharacters(in: .whitespaces) }
    }

    /// vCard escapes undone: \n (a line break), \, \; \: \\.
    static func unescaped(_ s: String) -> String { MeCard.unescaped(s, lineBreaks: true) }
}

/// Character sets a vCard 2.1 value may name.
enum Charsets {
    static let encodings: [String: String.Encoding] = [
        "utf-8": .utf8, "utf8": .utf8, "us-ascii": .ascii, "ascii": .ascii,
        "iso-8859-1": .isoLatin1, "latin1": .isoLatin1, "iso-8859-2": .isoLatin2,
        "windows-1252": .windowsCP1252, "cp1252": .windowsCP1252, "windows-1250": .windowsCP1250,
        "windows-1251": .windowsCP1251, "shift_jis": .shiftJIS, "sjis": .shiftJIS, "utf-16": .utf16,
    ]

    /// `bytes` as text in `charset`; nil for a character set not known here or bytes not valid in it.
    static func decode(_ bytes: [UInt8], charset: String?) -> String? {
        guard let charset else { return String(validating: bytes, as: UTF8.self) }
        guard let encoding = encodings[charset.lowercased()] else { return nil }
        if encoding == .utf8 { return String(validating: bytes, as: UTF8.self) }
        return String(bytes: bytes, encoding: encoding)
    }
}

extension VCard {
    /// One contact of a vCard file, with the UID its card gives.
    public struct Entry: Sendable {
        public var contact: Contact
        public var uid: String?
    }

    /// Every vCard of a file (2.1, 3.0 or 4.0), as contacts, read by the same reader as a code's
    /// payload; a card that holds no field is left out.
    /// - Parameter region: the ISO 3166 code national numbers are read in when a card names no country.
    /// - Throws: `FormatError` for text with no vCard, or a card the reader refuses (the message says which, by number).
    public static func entries(in text: String, region: String?) throws(FormatError) -> [Entry] {
        var out: [Entry] = []
        let cards = cardTexts(text)
        guard !cards.isEmpty else { throw FormatError(.malformed, "holds no vCard (no BEGIN:VCARD ... END:VCARD)") }
        for (index, card) in cards.enumerated() {
            var builder = ContactBuilder(region: region)
            do {
                try read(card, into: &builder)
            } catch {
                throw FormatError(error.code, "vCard \(index + 1): \(error.message)")
            }
            let contact = builder.finish()
            if !contact.confidence.isEmpty { out.append(Entry(contact: contact, uid: builder.uid)) }
        }
        return out
    }

    /// The text of each top-level card (a card inside a card, AGENT's, stays in its parent).
    static func cardTexts(_ text: String) -> [String] {
        var cards: [String] = [], current: [Substring] = [], depth = 0
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
        for line in lines {
            let bare = line.uppercased().split(separator: ".", maxSplits: 1).last.map(String.init) ?? ""
            let head = line.uppercased()
            if head.hasPrefix("BEGIN:VCARD") || bare.hasPrefix("BEGIN:VCARD") { depth += 1 }
            if depth > 0 { current.append(line) }
            if head.hasPrefix("END:VCARD") || bare.hasPrefix("END:VCARD"), depth > 0 {
                depth -= 1
                if depth == 0 {
                    cards.append(current.joined(separator: "\r\n"))
                    current = []
                }
            }
        }
        return cards
    }
}
