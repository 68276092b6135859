import ContactParser
import Foundation

/// The vCard versions cardscan writes.
public enum VCardVersion: String, Sendable {
    /// RFC 2426: what Apple Contacts, Google and most phones import best.
    case v3 = "3.0"
    /// RFC 6350.
    case v4 = "4.0"
}

/// vCards of contacts: UTF-8, CRLF line ends, lines folded at 75 octets (never inside a UTF-8
/// sequence), text values escaped, and a UID on every card (address books key on it).
public enum VCardWriter {
    /// Names the program that made a card (and lets -o recognise a file it may replace).
    public static let productID = "PRODID:-//cardscan//cardscan//EN"

    /// N (family; given; additional; prefixes; suffixes). The reading printed beside a Japanese,
    /// Chinese or Korean name sorts it (4.0's SORT-AS, 3.0's SORT-STRING) and, in kana family name
    /// first, fills the phonetic fields address books show (X-PHONETIC-*).
    static func nameLines(_ name: PersonName, version: VCardVersion) -> [String] {
        let n = nameComponents(name).map(escape).joined(separator: ";")
        guard let phonetic = name.phonetic else { return ["N:" + n] }
        var lines: [String]
        if version == .v3 {
            lines = ["N:" + n, "SORT-STRING:" + escape(phonetic)]
        } else {
            lines = ["N;SORT-AS=\"" + phonetic.filter { $0 != "\"" && !$0.isNewline } + "\":" + n]
        }
        let parts = phonetic.split(separator: " ")
        if parts.count == 2, parts.allSatisfy({ $0.allSatisfy { !$0.isASCII } }) {
            lines += ["X-PHONETIC-LAST-NAME:" + escape(String(parts[0])), "X-PHONETIC-FIRST-NAME:" + escape(String(parts[1]))]
        }
        return lines
    }

    /// N's five components (family; given; additional; prefixes; suffixes). A name printed given
    /// name first keeps what it prints around them: the words before the given name are its
    /// prefixes ("Dr."), those between it and the family name its additional names ("M."), those
    /// after the family name its suffixes ("Jr.", "PhD"). A name printed family name first
    /// (Japanese, Chinese, Korean) has family and given names alone.
    static func nameComponents(_ name: PersonName) -> [String] {
        let family = name.family ?? "", given = name.given ?? ""
        let full = name.full
        guard !family.isEmpty, !given.isEmpty, let g = full.range(of: given),
              let f = full.range(of: family, options: .backwards), g.upperBound <= f.lowerBound else {
            return [family, given, "", "", ""]
        }
        let trim = CharacterSet.whitespaces.union(CharacterSet(charactersIn: ","))
        func part(_ s: Substring) -> String { s.trimmingCharacters(in: trim) }
        return [family, given, part(full[g.upperBound..<f.lowerBound]), part(full[..<g.lowerBound]), part(full[f.upperBound...])]
    }

    /// The vCard of a contact; nil when it holds nothing to call it by (no name, company,
    /// e-mail, web address or number), which an address book could not use.
    /// - Parameter uid: the card's UID; `uid(for:)` of the contact when nil.
    public static func card(_ contact: Contact, version: VCardVersion = .v4, uid: String? = nil) -> String? {
        guard let fn = displayName(contact) else { return nil }
        var lines = ["BEGIN:VCARD", "VERSION:" + version.rawValue, productID, "UID:" + (uid ?? self.uid(for: contact))]
        lines.append("FN:" + escape(fn))
        if let name = contact.name {
            lines += nameLines(name, version: version)
        } else if version == .v3 {
            lines.append("N:;;;;")  // required in 3.0
        }
        if let org = contact.organization { lines.append("ORG:" + escape(org)) }
        if let title = contact.title { lines.append("TITLE:" + escape(title)) }
        lines += contact.phones.map { version == .v3 ? tel3($0) : tel4($0) }
        for email in contact.emails {
            lines.append((version == .v3 ? "EMAIL;TYPE=INTERNET,WORK:" : "EMAIL;TYPE=work:") + escape(email))
        }
        for url in contact.urls {
            lines.append((version == .v3 ? "URL:" : "URL;TYPE=work:") + webAddress(url))
        }
        if let adr = adr(contact, version: version) { lines.append(adr) }
        lines.append("END:VCARD")
        return lines.map(fold).joined(separator: "\r\n") + "\r\n"
    }

    /// What an address book calls the contact by: the name, else the company, an e-mail or web
    /// address, or a number; nil when the contact has none of them.
    public static func displayName(_ contact: Contact) -> String? {
        contact.name?.full ?? contact.organization ?? contact.emails.first ?? contact.urls.first
            ?? contact.phones.first.map({ $0.e164 ?? $0.number })
    }

    /// A stable UID made of what identifies the contact (its name, organisation, e-mail
    /// addresses and numbers): the same contact exported twice has the same UID.
    public static func uid(for contact: Contact) -> String {
        let parts = [contact.name?.full ?? "", contact.organization ?? ""] + contact.emails.map { $0.lowercased() }
            + contact.phones.map { $0.e164 ?? $0.number }
        return "urn:uuid:" + nameBasedUUID("cardscan-contact\u{1F}" + parts.joined(separator: "\u{1F}"))
    }

    /// A web address with its scheme ("www.example.com" -> "https://www.example.com").
    static func webAddress(_ url: String) -> String { url.contains("://") ? url : "https://" + url }

    /// A phone's TYPE parameter in vCard 3.0 and in 4.0.
    static func telTypes(_ type: PhoneType) -> (v3: String, v4: String) {
        switch type {
        case .work: return ("WORK,VOICE", "work,voice")
        case .mobile: return ("CELL", "cell,voice")
        case .fax: return ("WORK,FAX", "work,fax")
        case .other: return ("VOICE,OTHER", "voice,other")
        }
    }

    /// TEL in 3.0: the E.164 number as text (TEL;TYPE=CELL:+49...), else the number as printed.
    static func tel3(_ phone: Phone) -> String {
        return "TEL;TYPE=\(telTypes(phone.type).v3):" + escape(phone.e164 ?? phone.number)
    }

    /// TEL in 4.0: a tel: URI for a valid number, else the number as printed.
    static func tel4(_ phone: Phone) -> String {
        let type = telTypes(phone.type).v4
        if let e164 = phone.e164 { return "TEL;VALUE=uri;TYPE=\"\(type)\":tel:\(e164)" }
        return "TEL;VALUE=text;TYPE=\"\(type)\":" + escape(phone.number)
    }

    /// ADR: PO box; extended; street; locality; region; postal code; country (its name, from the
    /// card's region when the card printed none). 4.0 also gives the country's code (CC, RFC 8605).
    static func adr(_ contact: Contact, version: VCardVersion) -> String? {
        guard let a = contact.address else { return nil }
        let country = CountryNames.exportCountry(contact)
        let parts = ["", "", a.street ?? a.lines.first ?? "", a.city ?? "", a.region ?? "", a.postalCode ?? "", country.name ?? ""]
        let head = version == .v3 ? "ADR;TYPE=WORK" : "ADR;TYPE=work" + (country.code.map { ";CC=" + $0 } ?? "")
        return head + ":" + parts.map(escape).joined(separator: ";")
    }

    /// Escapes a text value: backslash, comma, semicolon and line breaks.
    static func escape(_ s: String) -> String {
        var out = ""
        for ch in s {
            switch ch {
            case "\\": out += "\\\\"
            case ",": out += "\\,"
            case ";": out += "\\;"
            case "\n", "\r\n", "\r": out += "\\n"
            default: out.append(ch)
            }
        }
        return out
    }

    /// Folds a content line so no line exceeds 75 octets, never inside a UTF-8 sequence.
    static func fold(_ line: String) -> String {
        var result = ""
        var current = 0
        for scalar in line.unicodeScalars {
            let size = String(scalar).utf8.count
            if current + size > 75 {
                result += "\r\n "
                current = 1
            }
            result.unicodeScalars.append(scalar)
            current += size
        }
        return result
    }
}

/// Countries by their ISO 3166 code, named in English (the exports' language).
public enum CountryNames {
    private static let english = Locale(identifier: "en_US")

    /// The English name of a country's code ("DE" -> "Germany"); nil for a code not known.
    public static func name(ofCode code: String) -> String? {
        english.localizedString(forRegionCode: code.uppercased())
    }

    /// The country an export gives for the contact's address: the one the card printed (and its
    /// code when known), else the card's region (its code and its name); none without an address.
    public static func exportCountry(_ contact: Contact) -> (code: String?, name: String?) {
        guard let address = contact.address else { return (nil, nil) }
        if let printed = address.country, !printed.isEmpty {
            return (AddressComposer.regionCode(ofCountry: printed), printed)
        }
        guard let code = contact.region?.code, code.count == 2, let name = name(ofCode: code) else { return (nil, nil) }
        return (code.uppercased(), name)
    }
}
