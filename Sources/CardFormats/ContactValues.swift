import ContactParser

/// A contact's fields as the exports write them (numbers in E.164, web addresses with their
/// scheme, the address's country named): two contacts that export alike have equal values. For
/// telling what an imported card changed, and for round-trip checks.
public enum ContactValues {
    /// The value of each field the contact has, as one comparable string.
    public static func of(_ contact: Contact) -> [Contact.Field: String] {
        var out: [Contact.Field: String] = [:]
        if let n = contact.name { out[.name] = [n.full, n.given ?? "", n.family ?? ""].joined(separator: "|") }
        if let t = contact.title { out[.title] = t }
        if let o = contact.organization { out[.organization] = o }
        if !contact.phones.isEmpty {
            out[.phones] = contact.phones.map { "\($0.type.rawValue):\($0.e164 ?? $0.number)" }.joined(separator: "|")
        }
        if !contact.emails.isEmpty { out[.emails] = contact.emails.map { $0.lowercased() }.joined(separator: "|") }
        if !contact.urls.isEmpty { out[.urls] = contact.urls.map(VCardWriter.webAddress).joined(separator: "|") }
        if let a = contact.address {
            let country = CountryNames.exportCountry(contact).name ?? ""
            out[.address] = [a.street ?? a.lines.first ?? "", a.city ?? "", a.region ?? "", a.postalCode ?? "", country].joined(separator: "|")
        }
        return out
    }

    /// The fields whose exported value differs between `a` and `b` (present in one only included).
    public static func differing(_ a: Contact, _ b: Contact) -> Set<Contact.Field> {
        let va = of(a), vb = of(b)
        return Set(Contact.Field.allCases.filter { va[$0] != vb[$0] })
    }
}

extension Contact {
    /// True when the contact holds no field at all (no name, company, title, number, e-mail or
    /// web address, no address).
    public var hasNoField: Bool { ContactValues.of(self).isEmpty }
}
