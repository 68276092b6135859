import Foundation

/// Postal addresses given as parts (a vCard's ADR, a MeCard's ADR) written out as the lines the
/// country's post prints, by Google's address format for it.
public enum AddressComposer {
    /// The address of `parts`, its `lines` in the order and with the separators of `regionCode`'s
    /// format ("%A%n%Z %C" for Germany, "%A%n%C, %S %Z" for the United States); a country with no
    /// known format is written street, then "postcode city region". The country, when given, is
    /// the last line. Nil when every part is empty.
    public static func address(street: String?, extended: String? = nil, city: String?, region: String?, postalCode: String?,
                               country: String?, regionCode: String?) -> PostalAddress? {
        func clean(_ s: String?) -> String? {
            let t = s?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            return t.isEmpty ? nil : t
        }
        let street = clean(street), extended = clean(extended), city = clean(city), region = clean(region)
        let postalCode = clean(postalCode), country = clean(country)
        guard [street, extended, city, region, postalCode, country].contains(where: { $0 != nil }) else { return nil }
        let format = regionCode.flatMap { ParserData.addressFormats[$0.uppercased()]?.format } ?? "%A%n%Z %C %S"
        let streetLines = [street, extended].compactMap { $0 }.flatMap { $0.components(separatedBy: .newlines) }
        var lines = composedLines(format: format, street: streetLines, values: ["C": city, "S": region, "Z": postalCode])
        if let country { lines.append(country) }
        return PostalAddress(lines: lines, street: streetLines.isEmpty ? nil : streetLines.joined(separator: ", "), city: city,
                             region: region, postalCode: postalCode, country: country)
    }

    /// The lines of `format` with its fields filled in: %A the street lines, %C %S %Z from
    /// `values`; the name and company fields (%N %O) and fields without a value are left out,
    /// with the separators that only stood beside them.
    static func composedLines(format: String, street: [String], values: [Character: String?]) -> [String] {
        var out: [String] = []
        for template in format.components(separatedBy: "%n") {
            if template.contains("%A") {
                out += street
                continue
            }
            var line = ""
            var pendingSeparator = ""
            var i = template.startIndex
            while i < template.endIndex {
                if template[i] == "%", template.index(after: i) < template.endIndex {
                    let field = template[template.index(after: i)]
                    i = template.index(i, offsetBy: 2)
                    guard let value = values[field] ?? nil else { continue }
                    // The literal between this field and the last filled one ("," or " "), spaces collapsed.
                    let literal = pendingSeparator.trimmingCharacters(in: .whitespaces)
                    line += (line.isEmpty ? "" : (literal.isEmpty ? " " : literal + " ")) + value
                    pendingSeparator = ""
                } else {
                    // Literal text between fields: kept only between two filled fields.
                    pendingSeparator.append(template[i])
                    i = template.index(after: i)
                }
            }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if !trimmed.isEmpty { out.append(trimmed) }
        }
        return out
    }

    /// The ISO 3166 code of a country named in any language Foundation knows, or given as its
    /// code ("Deutschland", "Germany", "DE" -> "DE"); nil when unknown.
    public static func regionCode(ofCountry name: String) -> String? {
        let t = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if t.count == 2, t.allSatisfy(\.isLetter), ParserData.addressFormats[t.uppercased()] != nil { return t.uppercased() }
        return ParserData.regionNamed(t)
    }
}
