import Foundation

/// The parts of an address that OCR and card layouts blur: a locality with its sub-region printed
/// without a postcode, a street and its locality on one line, a sub-region glued to its locality,
/// the postcode's label, and debris around the address's lines.
extension AddressExtractor {
    /// OCR confidence under which a line that is no street, between the street and the postcode
    /// line, is taken for debris.
    static let debrisConfidence = 0.6

    /// The words printed before a postcode: "CEP" (Brazil), "PLZ", "ZIP", "C.P.", "PIN".
    static func isPostcodeLabel(_ word: String) -> Bool {
        postcodeLabels.contains(word.lowercased().trimmingCharacters(in: ParserCharacters.labelEnd))
    }

    static let postcodeLabels: Set<String> = ["cep", "plz", "zip", "zipcode", "c.p", "c.p.", "cp", "pin", "pincode", "postcode", "cap", "pc"]

    /// A line ending in a locality and its sub-region's key, in a country whose format prints them
    /// together ("Campinas - SP", "Campinas/SP", "Springfield, IL"), read as the line of a postcode
    /// the card does not print: the street before them on the line when there is one
    /// ("Rua Augusta, 90 - Centro - Campinas - SP"). Nil when the line does not end so.
    static func subregionLine(_ line: String, format: AddressFormat) -> CityLine? {
        guard format.subregionFollowsLocality else { return nil }
        let text = line.trimmingCharacters(in: ParserCharacters.subregionPunctuation)
        guard let cut = text.lastIndex(where: { " /-,".contains($0) }) else { return nil }
        let key = String(text[text.index(after: cut)...])
        // Set apart by a dash, a slash or a comma: "Client Services ES" is no place in Espírito Santo.
        guard "/-,".contains(text[cut]) || text[..<cut].last.map({ "-,–".contains($0) }) == true else { return nil }
        guard isSubregionKey(key, format: format) else { return nil }
        let head = cleanPart(String(text[..<cut]))
        if isLocality(head) { return CityLine(before: "", city: head, region: key, postalCode: nil, country: nil) }
        guard let (street, city) = streetThenLocality(head, separators: [" - ", ", "]) else { return nil }
        return CityLine(before: street, city: city, region: key, postalCode: nil, country: nil)
    }

    /// A sub-region's key of `format` as printed: two or three capitals ("SP", "NSW").
    static func isSubregionKey(_ key: String, format: AddressFormat) -> Bool {
        (2...3).contains(key.count) && key.allSatisfy(\.isUppercase) && format.subregions.contains(where: { $0.key == key })
    }

    /// A house number: up to five characters, digits but for a letter after them ("12", "9b"), or
    /// a building's and a flat's number with a slash between ("48/99", "2/2", "12a/3").
    static func isHouseNumber(_ token: String) -> Bool {
        let parts = token.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return false }
        return parts.allSatisfy { part in
            (1...5).contains(part.count) && part.first?.isNumber == true
                && part.dropFirst().allSatisfy { $0.isNumber || $0.isLetter } && part.filter(\.isNumber).count >= part.count - 1
        }
    }

    /// A piece of a line too small to be any part of an address: no digit and at most three
    /// letters ("o", "Ls", "nai": an icon, a logo's edge or texture read as letters).
    static func isFragment(_ text: String) -> Bool {
        !text.contains(where: \.isNumber) && text.filter(\.isLetter).count <= 3
    }

    /// A street line read cleanly, as an address without a postcode must show it: a street or unit
    /// word or a house number standing alone, and no stray symbols (texture read as letters).
    static func isPlainStreet(_ text: String) -> Bool {
        let tokens = text.split(separator: " ").map { $0.trimmingCharacters(in: ParserCharacters.commaDot) }
        let plain = text.filter { $0.isLetter || $0.isNumber || " .,-/'ºª°#".contains($0) }.count
        guard plain * 10 >= text.count * 9, tokens.contains(where: { $0.filter(\.isLetter).count >= 3 }) else { return false }
        return isUnitLine(text) || tokens.contains { Lexicon.isStreetWord($0) } || tokens.contains(where: isHouseNumber)
    }

    /// A locality without a word of debris OCR read after it (texture or an icon at the line's end):
    /// a word of letters mixed with digits or signs ("Ghent /x7q", `isJunkWord`), a lower-case
    /// word after capitalised ones ("Ghent ozr"), or a short word in capitals after words that are
    /// not ("Ghent OZR"). A name set all in capitals or all in lower case keeps its words.
    static func withoutTrailingDebris(_ city: String) -> String {
        var tokens = city.split(separator: " ")
        // A word of letters mixed with digits or signs ("Schleiz /k0b", "Utsjoki 6k5W") ends no town.
        if tokens.count >= 2, let last = tokens.last, isJunkWord(last), case let head = tokens.dropLast().joined(separator: " "), isLocality(head) {
            return head
        }
        guard tokens.count >= 2, let last = tokens.last, last.allSatisfy(\.isLetter) else { return city }
        let head = tokens.dropLast()
        let capitalised = head.allSatisfy { $0.first?.isUppercase == true && $0.dropFirst().contains(where: \.isLowercase) }
        let debris = capitalised && (last.allSatisfy(\.isLowercase) || (last.count <= 4 && last.allSatisfy(\.isUppercase)))
        guard debris else { return city }
        tokens.removeLast()
        return tokens.joined(separator: " ")
    }

    /// True for a word no place name has: letters mixed with digits (but for an ordinal, "3e",
    /// "1er", "2nd"), or signs other than a name's hyphen, apostrophe, dot or brackets ("k0b",
    /// "6k5W", "=*3[").
    static func isJunkWord(_ word: Substring) -> Bool {
        let letters = word.contains(where: \.isLetter), digits = word.contains(where: \.isNumber)
        let suffix = String(word.drop(while: \.isNumber)).trimmingCharacters(in: CharacterSet(charactersIn: "."))
        let ordinal = digits && word.first?.isNumber == true && ordinalSuffixes.contains(suffix)
        return (letters && digits && !ordinal) || word.contains { !$0.isLetter && !$0.isNumber && !"-'.’()".contains($0) }
    }

    static let ordinalSuffixes: Set<String> = ["e", "er", "re", "ère", "ere", "ème", "eme", "st", "nd", "rd", "th", "o", "a", "º", "ª"]

    /// A locality and a sub-region key joined by a slash or a hyphen ("Campinas/SP", "Recife-PE"),
    /// taken apart; nil when the part after the last one is no key of `format`'s sub-regions (a
    /// hyphenated place name such as "Saint-Denis" stays whole).
    static func gluedSubregion(_ word: String, format: AddressFormat) -> (locality: String, subregion: String)? {
        guard let cut = word.lastIndex(where: { $0 == "/" || $0 == "-" }) else { return nil }
        let locality = String(word[..<cut]), key = String(word[word.index(after: cut)...])
        guard locality.filter(\.isLetter).count >= 2, isSubregionKey(key, format: format) else { return nil }
        return (locality, key)
    }

    /// A street line and a locality printed as one with a dash between them (the last dash whose
    /// two sides read as a street and a locality; a house number alone when the street's name is
    /// `afterStreetName`; any name when the text follows a unit, "Flat 2, Hollin Meadows - Eastbury");
    /// nil when there is no such dash.
    static func streetThenLocality(_ text: String, separators: [String] = [" - ", " – ", " — ", " · "],
                                   afterStreetName: Bool = false, afterUnit: Bool = false) -> (street: String, locality: String)? {
        for separator in separators {
            guard let r = text.range(of: separator, options: .backwards) else { continue }
            let street = cleanPart(String(text[..<r.lowerBound])), locality = cleanPart(String(text[r.upperBound...]))
            guard isLocality(locality), !isPostcodeLabel(locality) else { continue }
            if looksLikeStreet(street) || (afterStreetName && isHouseNumber(street)) || (afterUnit && isLocality(street)) {
                return (street, locality)
            }
        }
        return nil
    }
}
