import ContactParser
import Foundation

/// Collects the fields of a payload into a `Contact`: each field the payload holds gets
/// confidence 1.0; phone numbers go through libphonenumber like OCR's; every list is bounded.
public struct ContactBuilder {
    /// The card's UID (vCard), when it names one.
    public var uid: String?
    private var contact = Contact()
    /// Phones as given, with their types, read when the payload's country is known.
    private var rawPhones: [(text: String, types: Set<String>)] = []
    private var addressParts: AddressParts?
    private var fullName: String?
    private var nameParts: (given: String?, family: String?, prefix: String?, suffix: String?)?
    /// The caller's region for national numbers when the payload names no country.
    let region: String?

    /// An address as a payload gives it, part by part.
    public struct AddressParts: Sendable {
        var street: String?
        var extended: String?
        var city: String?
        var region: String?
        var postalCode: String?
        var country: String?

        public init(street: String?, extended: String?, city: String?, region: String?, postalCode: String?, country: String?) {
            self.street = street; self.extended = extended; self.city = city; self.region = region
            self.postalCode = postalCode; self.country = country
        }
    }

    /// - Parameter region: the ISO 3166 code national numbers are read in when the payload names no country.
    public init(region: String?) {
        self.region = region
    }

    /// The name as the payload writes it whole (vCard FN); the first one given is kept.
    public mutating func setFullName(_ full: String?) {
        if fullName == nil { fullName = nonEmpty(full) }
    }

    /// The name's parts (vCard N, MeCard N); the whole name is made of them when none is given.
    public mutating func setNameParts(given: String?, family: String?, prefix: String? = nil, suffix: String? = nil) {
        guard nameParts == nil else { return }
        nameParts = (nonEmpty(given), nonEmpty(family), nonEmpty(prefix), nonEmpty(suffix))
    }

    public mutating func setTitle(_ title: String?) {
        guard contact.title == nil, let title = nonEmpty(title) else { return }
        contact.title = title
        contact.confidence[.title] = 1
    }

    public mutating func setOrganization(_ organization: String?) {
        guard contact.organization == nil, let organization = nonEmpty(organization) else { return }
        contact.organization = organization
        contact.confidence[.organization] = 1
    }

    public mutating func addPhone(_ text: String, types: Set<String>) throws(FormatError) {
        guard let text = nonEmpty(text) else { return }
        try checkCount(rawPhones.count, "phone numbers")
        rawPhones.append((text, types))
    }

    public mutating func addEmail(_ text: String) throws(FormatError) {
        var address = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if address.lowercased().hasPrefix("mailto:") { address = String(address.dropFirst(7)) }
        guard EmailAddress(address) != nil, !contact.emails.contains(where: { $0.lowercased() == address.lowercased() }) else { return }
        try checkCount(contact.emails.count, "e-mail addresses")
        contact.emails.append(address)
        contact.confidence[.emails] = 1
    }

    public mutating func addURL(_ text: String) throws(FormatError) {
        guard let url = nonEmpty(text), !url.contains(where: \.isWhitespace), !contact.urls.contains(url) else { return }
        try checkCount(contact.urls.count, "web addresses")
        contact.urls.append(url)
        contact.confidence[.urls] = 1
    }

    public mutating func setAddress(_ parts: AddressParts) {
        guard addressParts == nil else { return }
        addressParts = parts
    }

    private func checkCount(_ count: Int, _ what: String) throws(FormatError) {
        guard count < PayloadLimits.maxValuesPerField else {
            throw FormatError(.tooManyEntries, "the code holds more than \(PayloadLimits.maxValuesPerField) \(what); a card has a few")
        }
    }

    /// The contact, its phones read in the address's country (else the caller's region).
    public mutating func finish() -> Contact {
        let parts = nameParts
        if let full = fullName ?? nonEmpty([parts?.prefix, parts?.given, parts?.family, parts?.suffix].compactMap { $0 ?? nil }.joined(separator: " ")) {
            contact.name = PersonName(full: full, given: parts?.given, family: parts?.family)
            contact.confidence[.name] = 1
        }
        let country = addressParts?.country.flatMap(AddressComposer.regionCode(ofCountry:))
        let numbersRegion = country ?? region
        if let parts = addressParts,
           let address = AddressComposer.address(street: parts.street, extended: parts.extended, city: parts.city,
                                                 region: parts.region, postalCode: parts.postalCode, country: parts.country,
                                                 regionCode: numbersRegion) {
            contact.address = address
            contact.confidence[.address] = 1
        }
        var seen = Set<String>()
        for (text, types) in rawPhones {
            let phone = Self.phone(text, types: types, region: numbersRegion)
            guard seen.insert(phone.e164 ?? phone.number.filter(\.isNumber)).inserted else { continue }
            contact.phones.append(phone)
        }
        if !contact.phones.isEmpty { contact.confidence[.phones] = 1 }
        if let numbersRegion { contact.region = RegionGuess(code: numbersRegion.uppercased(), sources: [country != nil ? "qr-address" : "qr-context"]) }
        return contact
    }

    /// A number as libphonenumber reads it, typed by the payload (cell, fax, ...) or, untyped,
    /// by what libphonenumber knows of it (a mobile number is "mobile", any other "work").
    public static func phone(_ text: String, types: Set<String>, region: String?) -> Phone {
        let number = text.hasPrefix("tel:") ? String(text.dropFirst(4)) : text
        let match = PhoneNumbers.parse(number, region: region?.uppercased() ?? "ZZ")
        let valid = match?.valid == true
        let type: PhoneType
        if types.contains("fax") {
            type = .fax
        } else if !types.isDisjoint(with: ["cell", "mobile", "iphone"]) {
            type = .mobile
        } else if types.contains("pager") || types.contains("other") || (types.contains("home") && !types.contains("work")) {
            type = .other
        } else if types.isDisjoint(with: ["work", "voice", "main"]), match?.kind == .mobile {
            type = .mobile
        } else {
            type = .work
        }
        return Phone(type: type, number: number, e164: valid ? match?.e164 : nil, valid: valid)
    }

    private func nonEmpty(_ s: String?) -> String? {
        let t = s?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        return t.isEmpty ? nil : t
    }
}
