import ContactParser

/// The one JSON form of a contact: the record's "contact" object (the CLI, the service) and the
/// contact book's stored values are written and read here.
extension Contact {
    /// The contact as the JSON object of the output schema.
    public func json() -> JSONValue {
        .object([
            ("name", json(of: .name) ?? .null),
            ("title", json(of: .title) ?? .null),
            ("organization", json(of: .organization) ?? .null),
            ("phones", json(of: .phones) ?? .array([])),
            ("emails", json(of: .emails) ?? .array([])),
            ("urls", json(of: .urls) ?? .array([])),
            ("address", json(of: .address) ?? .null),
            ("region", region.map { .object([("code", .string($0.code)), ("from", .array($0.sources.map { .string($0) }))]) } ?? .null),
        ])
    }

    /// One field as the schema writes it; nil when the contact has none (an empty list included).
    public func json(of field: Field) -> JSONValue? {
        switch field {
        case .name:
            // "phonetic" only where a reading is printed beside the name (Japanese, Chinese, Korean cards).
            return name.map {
                .object([("full", .string($0.full)), ("given", .optional($0.given)), ("family", .optional($0.family))]
                        + ($0.phonetic.map { [("phonetic", JSONValue.string($0))] } ?? []))
            }
        case .title: return title.map { .string($0) }
        case .organization: return organization.map { .string($0) }
        case .phones:
            return phones.isEmpty ? nil : .array(phones.map { p in
                .object([("type", .string(p.type.rawValue)), ("number", .string(p.number)), ("e164", .optional(p.e164)),
                         ("valid", .bool(p.valid))])
            })
        case .emails: return emails.isEmpty ? nil : .array(emails.map { .string($0) })
        case .urls: return urls.isEmpty ? nil : .array(urls.map { .string($0) })
        case .address:
            return address.map { a in
                .object([
                    ("lines", .array(a.lines.map { .string($0) })), ("street", .optional(a.street)), ("city", .optional(a.city)),
                    ("region", .optional(a.region)), ("postalCode", .optional(a.postalCode)), ("country", .optional(a.country)),
                ])
            }
        }
    }

    /// Sets one field from its JSON form (`json(of:)`); null (or an empty list) removes it.
    /// Absent keys inside a name, phone or address are nil.
    /// - Throws: `FormatError.malformed` when the value is not of the field's shape.
    public mutating func set(_ field: Field, json value: JSONValue) throws(FormatError) {
        let absent = value.isNull
        switch field {
        case .name: name = absent ? nil : try Self.name(value)
        case .title: title = absent ? nil : try Self.text(value, field)
        case .organization: organization = absent ? nil : try Self.text(value, field)
        case .phones: phones = absent ? [] : try Self.list(value, field).map(Self.phone)
        case .emails: emails = absent ? [] : try Self.list(value, field).map { (v) throws(FormatError) in try Self.text(v, field) }
        case .urls: urls = absent ? [] : try Self.list(value, field).map { (v) throws(FormatError) in try Self.text(v, field) }
        case .address: address = absent ? nil : try Self.address(value)
        }
    }

    /// A contact from its JSON object (`json()`): keys in any order, absent keys empty; the
    /// region may also be its code alone.
    public init(json value: JSONValue) throws(FormatError) {
        guard case .object = value else { throw FormatError(.malformed, "a contact that is not a JSON object") }
        self.init()
        for field in Field.allCases {
            if let v = value[field.rawValue] { try set(field, json: v) }
        }
        if let r = value["region"], !r.isNull {
            guard let code = r.stringValue ?? r["code"]?.stringValue else { throw Self.wrong("region") }
            region = RegionGuess(code: code, sources: r["from"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        }
    }

    static func wrong(_ what: String) -> FormatError { FormatError(.malformed, "a contact's \(what) is not of its JSON shape") }

    static func text(_ v: JSONValue, _ field: Field) throws(FormatError) -> String {
        guard let s = v.stringValue else { throw wrong(field.rawValue) }
        return s
    }

    static func list(_ v: JSONValue, _ field: Field) throws(FormatError) -> [JSONValue] {
        guard let a = v.arrayValue else { throw wrong(field.rawValue) }
        return a
    }

    /// An optional string member: absent or null is nil.
    static func member(_ v: JSONValue, _ key: String, of what: String) throws(FormatError) -> String? {
        guard let m = v[key], !m.isNull else { return nil }
        guard let s = m.stringValue else { throw wrong(what) }
        return s
    }

    static func name(_ v: JSONValue) throws(FormatError) -> PersonName {
        guard let full = v["full"]?.stringValue else { throw wrong("name") }
        return PersonName(full: full, given: try member(v, "given", of: "name"), family: try member(v, "family", of: "name"),
                          phonetic: try member(v, "phonetic", of: "name"))
    }

    static func phone(_ v: JSONValue) throws(FormatError) -> Phone {
        guard let number = v["number"]?.stringValue, let type = v["type"]?.stringValue.flatMap(PhoneType.init(rawValue:)) else {
            throw wrong("phone")
        }
        return Phone(type: type, number: number, e164: try member(v, "e164", of: "phone"), valid: v["valid"]?.boolValue)
    }

    static func address(_ v: JSONValue) throws(FormatError) -> PostalAddress {
        guard let lines = v["lines"]?.arrayValue?.compactMap(\.stringValue) else { throw wrong("address") }
        return PostalAddress(lines: lines, street: try member(v, "street", of: "address"), city: try member(v, "city", of: "address"),
                             region: try member(v, "region", of: "address"), postalCode: try member(v, "postalCode", of: "address"),
                             country: try member(v, "country", of: "address"))
    }
}
