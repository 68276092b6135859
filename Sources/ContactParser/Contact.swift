/// A person's name as printed, and split into given and family names.
public struct PersonName: Sendable, Equatable {
    public var full: String
    public var given: String?
    public var family: String?
    /// The reading of the name printed beside it (kana, or Latin letters beside Han characters), nil when none.
    public var phonetic: String?
    public init(full: String, given: String?, family: String?, phonetic: String? = nil) {
        self.full = full; self.given = given; self.family = family; self.phonetic = phonetic
    }
}

/// What a phone number is for.
public enum PhoneType: String, Sendable, CaseIterable {
    case work, mobile, fax, other
}

/// A phone number as printed, with its E.164 form when libphonenumber calls it valid.
public struct Phone: Sendable, Equatable {
    public var type: PhoneType
    public var number: String
    public var e164: String?
    /// False when libphonenumber does not know the number as valid for its region (then `e164` is nil).
    public var valid: Bool
    public init(type: PhoneType, number: String, e164: String?, valid: Bool? = nil) {
        self.type = type; self.number = number; self.e164 = e164
        self.valid = valid ?? (e164 != nil)
    }
}

/// A postal address: the printed lines and their parts.
public struct PostalAddress: Sendable, Equatable {
    public var lines: [String]
    public var street: String?
    public var city: String?
    public var region: String?
    public var postalCode: String?
    public var country: String?
    public init(lines: [String], street: String? = nil, city: String? = nil, region: String? = nil,
                postalCode: String? = nil, country: String? = nil) {
        self.lines = lines; self.street = street; self.city = city; self.region = region
        self.postalCode = postalCode; self.country = country
    }
}

/// A contact record read from a card.
public struct Contact: Sendable, Equatable {
    public var name: PersonName?
    public var title: String?
    public var organization: String?
    public var phones: [Phone] = []
    public var emails: [String] = []
    public var urls: [String] = []
    public var address: PostalAddress?
    /// Confidence 0...1 per field present.
    public var confidence: [Field: Double] = [:]

    /// The fields of a contact, as the record's `confidence` object names them.
    public enum Field: String, Sendable, CaseIterable, Comparable {
        case name, title, organization, phones, emails, urls, address
        public static func < (a: Field, b: Field) -> Bool { a.rawValue < b.rawValue }
    }
    /// The region (ISO 3166 alpha-2) the card's numbers were read in, and what said so.
    public var region: RegionGuess?

    public init() {}

    /// True when the contact holds `field` (a list field: at least one value).
    public func has(_ field: Field) -> Bool {
        switch field {
        case .name: return name != nil
        case .title: return title != nil
        case .organization: return organization != nil
        case .phones: return !phones.isEmpty
        case .emails: return !emails.isEmpty
        case .urls: return !urls.isEmpty
        case .address: return address != nil
        }
    }
}

/// A line of text from the card, with what OCR knows of it (all optional: plain text works too).
public struct TextLine: Sendable, Equatable {
    public var text: String
    /// OCR confidence 0...1.
    public var confidence: Double?
    /// Height of the text in pixels: larger text is likelier a name or a company.
    public var height: Double?
    /// Top-left corner and size of the line on the card image, in pixels.
    public var top: Double?
    public var left: Double?
    public var words: [TextWord]

    public init(text: String, confidence: Double? = nil, height: Double? = nil, top: Double? = nil,
                left: Double? = nil, words: [TextWord] = []) {
        self.text = text; self.confidence = confidence; self.height = height; self.top = top; self.left = left
        self.words = words
    }
}

/// A word of a line, with its horizontal extent (pixels) for splitting columns.
public struct TextWord: Sendable, Equatable {
    public var text: String
    public var left: Double
    public var right: Double
    public var confidence: Double
    public init(text: String, left: Double, right: Double, confidence: Double) {
        self.text = text; self.left = left; self.right = right; self.confidence = confidence
    }
}

/// An e-mail address taken apart at its last "@" (the local part may itself hold one, quoted).
public struct EmailAddress: Sendable, Equatable {
    public let local: String
    public let domain: String

    /// Nil when the text has no "@" with something on both sides.
    public init?(_ text: String) {
        guard let at = text.lastIndex(of: "@") else { return nil }
        let local = String(text[..<at]), domain = String(text[text.index(after: at)...])
        guard !local.isEmpty, !domain.isEmpty else { return nil }
        self.local = local
        self.domain = domain
    }

    public init(local: String, domain: String) {
        self.local = local
        self.domain = domain
    }

    public var text: String { local + "@" + domain }
}
