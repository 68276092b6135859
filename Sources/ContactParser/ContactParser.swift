import Foundation

/// Turns the text lines of a business card into a typed contact record.
///
/// Works on OCR lines with geometry (text height, word positions) and on plain text alike.
public struct ContactParser: Sendable {
    /// The region used for national phone numbers and addresses when the card itself gives no
    /// clue (ISO 3166 alpha-2), and what it came from ("option", "locale"); nil for none.
    public var fallbackRegion: RegionGuess?

    /// - Parameter fallbackRegion: ISO 3166 alpha-2 code used when the card says nothing of its
    ///   country; nil keeps national numbers as printed, without an E.164 form.
    public init(fallbackRegion: String? = nil, source: String = "option") {
        self.fallbackRegion = fallbackRegion.map { RegionGuess(code: $0.uppercased(), sources: [source]) }
    }

    /// Builds the parser's tables (postcode families, labels, suffixes, legal forms, country names)
    /// and libphonenumber's metadata, which are otherwise built by the first card's parse (about
    /// 70 ms). Scanners call it on a background thread at start, so it overlaps the first photo's
    /// decode and OCR. The text parsed is a made-up card, not anyone's.
    public static func warmUp() {
        let sample = ["Erika Mustermann", "Head of Sales", "Example GmbH", "Tel. +49 30 1234567", "Mobile 0151 2345678",
                      "erika@example.de", "www.example.de", "Musterstraße 1", "10115 Berlin", "Germany"]
        _ = ContactParser(fallbackRegion: "US").parse(lines: sample.enumerated().map { index, text in
            TextLine(text: text, confidence: 0.9, height: 20, top: Double(index * 30), left: 10)
        })
    }

    /// The languages (ISO 639-1, most used first) of a region: Google's address metadata where it
    /// lists them, else the region's likely language from CLDR (Foundation's likely subtags).
    public static func languages(ofRegion region: String) -> [String] {
        let code = region.uppercased()
        if let listed = ParserData.addressFormats[code]?.languages, !listed.isEmpty { return listed }
        let likely = Locale.Language(identifier: "und-" + code).maximalIdentifier
        guard let language = likely.split(separator: "-").first, language != "und" else { return [] }
        return [String(language)]
    }

    /// The language a card whose country no clue names surely is likely printed in: the one
    /// language of all the countries its weak clues (legal form, postcode, sub-region) fit; nil
    /// when they fit none or countries of several languages, or when it is English.
    public static func likelyLanguage(lines input: [TextLine]) -> String? {
        RegionInference.sharedLanguage(lines: CardLine.split(input))
    }

    /// Parses plain text, one card line per text line.
    public func parse(text: String) -> Contact {
        parse(lines: text.split(whereSeparator: \.isNewline).map { TextLine(text: String($0)) })
    }

    /// What the certain fields leave for the people lines: the card's logical lines, the lines
    /// those fields took whole, and the contact with its e-mails, web addresses, region, phones and
    /// address.
    struct ContactData {
        var lines: [CardLine]
        var used: Set<Int>
        var contact: Contact
        /// E-mail addresses mended from what OCR read.
        var emailRepairs: Int
        /// The lines web addresses were read on, and those the e-mails took.
        var webAndEmailLines: Set<Int>
    }

    /// E-mails and web addresses first (their domains help everything else), then the region,
    /// the phones read in it, and the address.
    func contactData(lines input: [TextLine]) -> ContactData {
        let lines = CardLine.split(input)
        var contact = Contact()
        var used = Set<Int>()  // lines fully consumed by a field

        let emailResult = EmailExtractor.extract(from: lines)
        contact.emails = emailResult.emails
        used.formUnion(emailResult.consumedLines)
        let urlResult = URLExtractor.extract(from: lines, emails: contact.emails)
        (contact.urls, contact.emails) = URLExtractor.emailsReadAsWebAddresses(urlResult.urls, emails: contact.emails)
        let resolved = EmailExtractor.resolving(emailResult.unresolved, webHosts: contact.urls.map { URLExtractor.host(of: $0) })
        contact.emails += resolved.filter { !contact.emails.contains($0) }
        used.formUnion(urlResult.consumedLines)

        var inferred = RegionInference.infer(lines: lines, emails: contact.emails, urls: contact.urls)
        if let repaired = Reconciliation.countryDomains(emails: contact.emails, urls: contact.urls, region: inferred) {
            (contact.emails, contact.urls) = repaired
            inferred = RegionInference.infer(lines: lines, emails: contact.emails, urls: contact.urls)
        }
        contact.region = inferred ?? fallbackRegion
        let region = contact.region?.code

        let phoneResult = PhoneExtractor.extract(from: lines, region: region, skip: used)
        contact.phones = phoneResult.phones
        used.formUnion(phoneResult.consumedLines)

        let addressResult = AddressExtractor.extract(from: lines, skip: used, region: region)
        contact.address = addressResult.address
        used.formUnion(addressResult.consumedLines)
        return ContactData(lines: lines, used: used, contact: contact, emailRepairs: emailResult.repaired + resolved.count,
                           webAndEmailLines: urlResult.readLines.union(emailResult.consumedLines))
    }

    /// How much contact data the lines hold: the letters and digits of the e-mail and web
    /// addresses and of the valid phone numbers in them (a reading of a card at a wrong turn is
    /// junk, which seldom holds any, however surely OCR read some of it).
    public func contactCharacters(lines input: [TextLine]) -> Int {
        let lines = CardLine.split(input)
        let emails = EmailExtractor.extract(from: lines)
        let urls = URLExtractor.extract(from: lines, emails: emails.emails)
        let region = RegionInference.infer(lines: lines, emails: emails.emails, urls: urls.urls) ?? fallbackRegion
        let phones = PhoneExtractor.extract(from: lines, region: region?.code, skip: emails.consumedLines.union(urls.consumedLines))
        func count(_ s: String) -> Int { s.filter { $0.isLetter || $0.isNumber }.count }
        return (emails.emails + urls.urls).map(count).reduce(0, +) + phones.phones.filter(\.valid).map { count($0.number) }.reduce(0, +)
    }

    /// True when the lines are mainly Japanese, Chinese or Korean: `parse` reads them by those
    /// countries' conventions.
    public static func isEastAsian(_ lines: [TextLine]) -> Bool { CJKText.script(of: lines) != nil }

    /// Parses the lines of one card.
    public func parse(lines input: [TextLine]) -> Contact {
        if let script = CJKText.script(of: input) { return CJKParser(fallbackRegion: fallbackRegion, script: script).parse(input) }
        let stage = contactData(lines: input)
        let lines = stage.lines
        var contact = stage.contact
        let used = stage.used

        var domains = Domains.hosts(emails: contact.emails, urls: contact.urls)
        let people = PeopleExtractor.extract(from: lines, skip: used, emails: contact.emails, domains: domains)
        contact.name = people.name.map { CrossChecks.repairName($0, emails: contact.emails) }
        contact.emails = CrossChecks.emailsRespelledByName(
            CrossChecks.emailsJoinedAtLostUnderscore(contact.emails, name: contact.name, lines: lines), name: contact.name)
        contact.title = people.title
        contact.organization = people.organization.map { CrossChecks.repairOrganization($0, domains: domains) }

        // E-mail domain, web address and organisation usually agree: repair OCR slips between them.
        let reconciled = Reconciliation.reconcile(emails: contact.emails, urls: contact.urls, organization: contact.organization)
        contact.emails = reconciled.emails
        contact.urls = reconciled.urls + URLExtractor.spelledByEmailDomains(lines, skip: stage.webAndEmailLines,
                                                                            emails: reconciled.emails, urls: reconciled.urls)
        domains = Domains.hosts(emails: contact.emails, urls: contact.urls)

        contact.confidence = Confidence.score(contact, lines: lines, people: people,
                                              emailRepairs: stage.emailRepairs + reconciled.repairs, domains: domains)
        return contact
    }
}

