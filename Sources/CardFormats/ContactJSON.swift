import ContactParser

extension Contact {
    /// The contact as the JSON object of the output schema.
    public func json() -> JSONValue {
        let nameValue: JSONValue = name.map {
            // "phonetic" only where a reading is printed beside the name (Japanese, Chinese, Korean cards).
            .object([("full", .string($0.full)), ("given", .optional($0.given)), ("family", .optional($0.family))]
                    + ($0.phonetic.map { [("phonetic", JSONValue.string($0))] } ?? []))
        } ?? .null
        let addressValue: JSONValue = address.map { a in
            .object([
                ("lines", .array(a.lines.map { .string($0) })), ("street", .optional(a.street)), ("city", .optional(a.city)),
                ("region", .optional(a.region)), ("postalCode", .optional(a.postalCode)), ("country", .optional(a.country)),
            ])
        } ?? .null
        return .object([
            ("name", nameValue),
            ("title", .optional(title)),
            ("organization", .optional(organization)),
            ("phones", .array(phones.map { p in
                .object([("type", .string(p.type.rawValue)), ("number", .string(p.number)), ("e164", .optional(p.e164)),
                         ("valid", .bool(p.valid))])
            })),
            ("emails", .array(emails.map { .string($0) })),
            ("urls", .array(urls.map { .string($0) })),
            ("address", addressValue),
            ("region", region.map { .object([("code", .string($0.code)), ("from", .array($0.sources.map { .string($0) }))]) } ?? .null),
        ])
    }
}
