import ContactParser

/// The CSV layouts address books import: Google Contacts' and Outlook's, with the column
/// headers those products write in their own exports, one contact a row.
public enum AddressBookCSV: String, Sendable, CaseIterable {
    case google
    case outlook

    /// The header line.
    public var header: String { CSV.line(columns) }

    /// The columns, in the order the product's own export writes them.
    public var columns: [String] {
        switch self {
        case .google: return GoogleContactsCSV.columns
        case .outlook: return OutlookCSV.columns
        }
    }

    /// The row of one contact (values by column name; the columns not named stay empty).
    public func row(_ contact: Contact) -> String {
        let values: [String: String]
        switch self {
        case .google: values = GoogleContactsCSV.values(contact)
        case .outlook: values = OutlookCSV.values(contact)
        }
        for key in values.keys { assert(columns.contains(key), "\(key) is no column of \(rawValue)") }
        return CSV.line(columns.map { values[$0] ?? "" })
    }

    /// The parts of an address an export writes, the country named as `CountryNames.exportCountry` says.
    static func addressParts(_ contact: Contact) -> (street: String, city: String, region: String, postalCode: String, country: String)? {
        guard let a = contact.address else { return nil }
        return (a.street ?? a.lines.first ?? "", a.city ?? "", a.region ?? "", a.postalCode ?? "",
                CountryNames.exportCountry(contact).name ?? "")
    }

    /// An address's parts (street, city, region, postal code, country) under the given columns.
    static func put(_ a: (street: String, city: String, region: String, postalCode: String, country: String),
                    into v: inout [String: String], columns: [String]) {
        for (column, value) in zip(columns, [a.street, a.city, a.region, a.postalCode, a.country]) {
            v[column] = value
        }
    }
}

/// Google Contacts' CSV (contacts.google.com, Export, "Google CSV"): numbered columns for
/// e-mails, phones, addresses and web sites, a label beside each value; several values of one
/// kind beyond the numbered columns go into the last, joined by " ::: " as Google does.
enum GoogleContactsCSV {
    static let emailSlots = 3, phoneSlots = 4, websiteSlots = 2

    static var columns: [String] {
        var c = ["First Name", "Middle Name", "Last Name", "Phonetic First Name", "Phonetic Middle Name", "Phonetic Last Name",
                 "Name Prefix", "Name Suffix", "Nickname", "File As", "Organization Name", "Organization Title",
                 "Organization Department", "Birthday", "Notes", "Photo", "Labels"]
        for i in 1...emailSlots { c += ["E-mail \(i) - Label", "E-mail \(i) - Value"] }
        for i in 1...phoneSlots { c += ["Phone \(i) - Label", "Phone \(i) - Value"] }
        c += ["Address 1 - Label", "Address 1 - Formatted", "Address 1 - Street", "Address 1 - City", "Address 1 - PO Box",
              "Address 1 - Region", "Address 1 - Postal Code", "Address 1 - Country", "Address 1 - Extended Address"]
        for i in 1...websiteSlots { c += ["Website \(i) - Label", "Website \(i) - Value"] }
        return c
    }

    static func values(_ contact: Contact) -> [String: String] {
        var v: [String: String] = [:]
        v["First Name"] = contact.name?.given ?? (contact.name?.family == nil ? contact.name?.full : nil)
        v["Last Name"] = contact.name?.family
        v["File As"] = contact.name == nil ? contact.organization : nil
        v["Organization Name"] = contact.organization
        v["Organization Title"] = contact.title
        fill(&v, "E-mail", contact.emails.map { ("Work", $0) }, slots: emailSlots)
        fill(&v, "Phone", contact.phones.map { (label($0.type), $0.e164 ?? $0.number) }, slots: phoneSlots)
        fill(&v, "Website", contact.urls.map { ("Work", VCardWriter.webAddress($0)) }, slots: websiteSlots)
        if let a = AddressBookCSV.addressParts(contact) {
            v["Address 1 - Label"] = "Work"
            v["Address 1 - Formatted"] = (contact.address?.lines ?? []).joined(separator: "\n")
            AddressBookCSV.put(a, into: &v, columns: ["Address 1 - Street", "Address 1 - City", "Address 1 - Region",
                                                      "Address 1 - Postal Code", "Address 1 - Country"])
        }
        return v.filter { !$0.value.isEmpty }
    }

    /// Google's phone labels.
    static func label(_ type: PhoneType) -> String {
        switch type {
        case .work: return "Work"
        case .mobile: return "Mobile"
        case .fax: return "Work Fax"
        case .other: return "Other"
        }
    }

    /// Values into numbered label/value columns; those past the last slot join the last one.
    static func fill(_ v: inout [String: String], _ kind: String, _ items: [(label: String, value: String)], slots: Int) {
        for (i, item) in items.prefix(slots).enumerated() {
            v["\(kind) \(i + 1) - Label"] = item.label
            v["\(kind) \(i + 1) - Value"] = item.value
        }
        if items.count > slots {
            v["\(kind) \(slots) - Value"] = items[(slots - 1)...].map(\.value).joined(separator: " ::: ")
        }
    }
}

/// Outlook's CSV (File, Open & Export, Export to a file, Comma Separated Values): fixed columns,
/// three e-mail addresses, two business phones, one mobile, one business fax, one other phone.
enum OutlookCSV {
    static let columns = [
        "Title", "First Name", "Middle Name", "Last Name", "Suffix", "Company", "Department", "Job Title",
        "Business Street", "Business Street 2", "Business Street 3", "Business City", "Business State", "Business Postal Code",
        "Business Country/Region", "Home Street", "Home Street 2", "Home Street 3", "Home City", "Home State", "Home Postal Code",
        "Home Country/Region", "Other Street", "Other Street 2", "Other Street 3", "Other City", "Other State", "Other Postal Code",
        "Other Country/Region", "Assistant's Phone", "Business Fax", "Business Phone", "Business Phone 2", "Callback", "Car Phone",
        "Company Main Phone", "Home Fax", "Home Phone", "Home Phone 2", "ISDN", "Mobile Phone", "Other Fax", "Other Phone", "Pager",
        "Primary Phone", "Radio Phone", "TTY/TDD Phone", "Telex", "Account", "Anniversary", "Assistant's Name",
        "Billing Information", "Birthday", "Business Address PO Box", "Categories", "Children", "Directory Server",
        "E-mail Address", "E-mail Type", "E-mail Display Name", "E-mail 2 Address", "E-mail 2 Type", "E-mail 2 Display Name",
        "E-mail 3 Address", "E-mail 3 Type", "E-mail 3 Display Name", "Gender", "Government ID Number", "Hobby",
        "Home Address PO Box", "Initials", "Internet Free Busy", "Keywords", "Language", "Location", "Manager's Name", "Mileage",
        "Notes", "Office Location", "Organizational ID Number", "Other Address PO Box", "Priority", "Private", "Profession",
        "Referred By", "Sensitivity", "Spouse", "User 1", "User 2", "User 3", "User 4", "Web Page",
    ]

    static func values(_ contact: Contact) -> [String: String] {
        var v: [String: String] = [:]
        v["First Name"] = contact.name?.given ?? (contact.name?.family == nil ? contact.name?.full : nil)
        v["Last Name"] = contact.name?.family
        v["Company"] = contact.organization
        v["Job Title"] = contact.title
        for (i, email) in contact.emails.prefix(3).enumerated() {
            let n = i == 0 ? "" : " \(i + 1)"
            v["E-mail\(n) Address"] = email
            v["E-mail\(n) Type"] = "SMTP"
            v["E-mail\(n) Display Name"] = contact.name.map { "\($0.full) (\(email))" } ?? email
        }
        let slots: [PhoneType: [String]] = [.work: ["Business Phone", "Business Phone 2"], .mobile: ["Mobile Phone"],
                                            .fax: ["Business Fax"], .other: ["Other Phone"]]
        for type in PhoneType.allCases {
            let numbers = contact.phones.filter { $0.type == type }.map { $0.e164 ?? $0.number }
            let names = slots[type] ?? []
            for (i, name) in names.enumerated() where i < numbers.count {
                // The last column of a kind takes the numbers beyond it, joined as Outlook reads them.
                v[name] = i == names.count - 1 ? numbers[i...].joined(separator: "; ") : numbers[i]
            }
        }
        v["Web Page"] = contact.urls.first.map(VCardWriter.webAddress)
        if let a = AddressBookCSV.addressParts(contact) {
            AddressBookCSV.put(a, into: &v, columns: ["Business Street", "Business City", "Business State",
                                                      "Business Postal Code", "Business Country/Region"])
        }
        return v.filter { !$0.value.isEmpty }
    }
}
