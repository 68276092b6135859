/// NTT DoCoMo's MeCard ("MECARD:N:Doe,John;TEL:+15551234;EMAIL:j@x.com;;") and the BIZCARD
/// format some generators write ("BIZCARD:N:John;X:Doe;T:CTO;C:Acme;B:+15551234;E:j@x.com;;"):
/// KEY:value fields separated by semicolons, with \ escaping ; : , and \ itself.
public enum MeCard {
    /// Reads a MeCard payload ("MECARD:...;;") into `builder`.
    /// - Throws: `FormatError` for a payload with more fields than a card has.
    public static func read(_ payload: String, into builder: inout ContactBuilder) throws(FormatError) {
        for (key, value) in try fields(of: payload.dropFirst("MECARD:".count)) {
            switch key {
            case "N":
                // "Family,Given" (a comma the name holds is escaped).
                let parts = splitUnescaped(value, on: ",")
                if parts.count >= 2 {
                    builder.setNameParts(given: unescaped(parts[1]), family: unescaped(parts[0]))
                } else {
                    builder.setFullName(unescaped(value))
                }
            case "TEL", "TEL-AV": try builder.addPhone(unescaped(value), types: [])
            case "EMAIL": try builder.addEmail(unescaped(value))
            case "URL": try builder.addURL(unescaped(value))
            case "ORG": builder.setOrganization(unescaped(value))
            case "TITLE": builder.setTitle(unescaped(value))
            case "ADR": readAddress(value, into: &builder)
            default: continue
            }
        }
    }

    /// ADR: post office box, room, street, city, state, postcode, country (comma-separated), or
    /// the address written as one line.
    static func readAddress(_ value: String, into builder: inout ContactBuilder) {
        let parts = splitUnescaped(value, on: ",").map { unescaped($0).trimmingCharacters(in: .whitespaces) }
        guard parts.count == 7 else {
            builder.setAddress(.init(street: unescaped(value), extended: nil, city: nil, region: nil, postalCode: nil, country: nil))
            return
        }
        func part(_ i: Int) -> String? { parts[i].isEmpty ? nil : parts[i] }
        builder.setAddress(.init(street: part(2), extended: part(1), city: part(3), region: part(4), postalCode: part(5),
                                 country: part(6)))
    }

    /// Reads a BIZCARD payload into `builder`.
    /// - Throws: `FormatError` for a payload with more fields than a card has.
    public static func readBizcard(_ payload: String, into builder: inout ContactBuilder) throws(FormatError) {
        var given: String?, family: String?
        for (key, value) in try fields(of: payload.dropFirst("BIZCARD:".count)) {
            let text = unescaped(value)
            switch key {
            case "N": given = text
            case "X": family = text
            case "T": builder.setTitle(text)
            case "C": builder.setOrganization(text)
            case "A": builder.setAddress(.init(street: text, extended: nil, city: nil, region: nil, postalCode: nil, country: nil))
            case "B": try builder.addPhone(text, types: ["work"])
            case "M": try builder.addPhone(text, types: ["cell"])
            case "F": try builder.addPhone(text, types: ["fax"])
            case "E": try builder.addEmail(text)
            default: continue
            }
        }
        builder.setNameParts(given: given, family: family)
    }

    /// The KEY:value fields of a MeCard-style body (keys upper case, values still escaped), up to
    /// the closing ";;".
    public static func fields(of body: Substring) throws(FormatError) -> [(key: String, value: String)] {
        var out: [(key: String, value: String)] = []
        for field in splitUnescaped(String(body), on: ";") {
            guard !field.isEmpty else { continue }
            guard out.count < PayloadLimits.maxEntries else {
                throw FormatError(.tooManyEntries, "the code holds more than \(PayloadLimits.maxEntries) fields; at most that many are read")
            }
            guard let colon = field.firstIndex(of: ":") else { continue }
            out.append((field[..<colon].uppercased(), String(field[field.index(after: colon)...])))
        }
        return out
    }

    /// `s` split at the separators not escaped by a backslash (escapes kept for `unescaped`).
    static func splitUnescaped(_ s: String, on separator: Character) -> [String] {
        split(s, on: separator, quoting: false)
    }

    /// `s` split at the separators that are not escaped by a backslash (`quoting` false) or that
    /// stand outside double quotes (`quoting` true); escapes and quotes are kept.
    static func split(_ s: String, on separator: Character, quoting: Bool) -> [String] {
        var out: [String] = [], current = "", escaped = false, quoted = false
        for c in s {
            if escaped {
                escaped = false
            } else if c == "\\" && !quoting {
                escaped = true
            } else if c == "\"" && quoting {
                quoted.toggle()
            } else if c == separator && !quoted {
                out.append(current)
                current = ""
                continue
            }
            current.append(c)
        }
        out.append(current)
        return out
    }

    /// Backslash escapes undone: "\;" is ";", "\\" is "\"; with `lineBreaks` (vCard) "\n" and "\N"
    /// are a line break.
    static func unescaped(_ s: String, lineBreaks: Bool = false) -> String {
        guard s.contains("\\") else { return s }
        var out = "", escaped = false
        for c in s {
            if escaped {
                out.append(lineBreaks && (c == "n" || c == "N") ? "\n" : c)
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else {
                out.append(c)
            }
        }
        return out
    }
}
