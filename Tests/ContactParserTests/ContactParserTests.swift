import Testing
@testable import ContactParser

@Suite struct PhoneTests {
    @Test func germanNationalNumberIsReadAsGermanFromTheCardsClues() {
        let card = """
            Katrin Vogel
            Leiterin Vertrieb
            Lindenholz GmbH
            Tel.: 030 2345 6789
            Mobil: 0151 2345 6789
            k.vogel@lindenholz.de
            Friedrichstraße 112
            10117 Berlin
            """
        let contact = ContactParser(fallbackRegion: "US").parse(text: card)
        #expect(contact.region?.code == "DE")
        #expect(contact.phones.map(\.e164) == ["+493023456789", "+4915123456789"])
        #expect(contact.phones.map(\.type) == [.work, .mobile])
    }

    @Test(arguments: [
        ("T: (415) 555-0100", PhoneType.work), ("Tel 415 555 0100", .work), ("Phone: 415.555.0100", .work),
        ("M: 415-555-0100", .mobile), ("Mobile 415 555 0100", .mobile), ("Cell: +1 415 555 0100", .mobile),
        ("F: (415) 555-0100", .fax), ("Fax 415.555.0100", .fax), ("Direct: 415-555-0100", .work),
    ])
    func labelsGiveTheType(line: String, type: PhoneType) throws {
        let contact = ContactParser(fallbackRegion: "US").parse(text: line)
        let phone = try #require(contact.phones.first)
        #expect(phone.type == type)
        #expect(phone.e164 == "+14155550100")
    }

    @Test func ocrLettersInsideDigitRunsAreRepaired() {
        #expect(PhoneExtractor.repairDigits("T: 415 555 O1OO") == "T: 415 555 0100")
        #expect(PhoneExtractor.repairDigits("Mobile 0151") == "Mobile 0151")
    }

    /// A number no plan knows (no area code, no country) is kept when its own digits were read
    /// surely, whatever OCR made of an icon or a logo beside it; read unsurely, it is a misreading.
    @Test func aSurelyReadNumberBesideJunkIsKept() {
        func line(_ words: [(String, Double)]) -> TextLine {
            var left = 20.0
            let boxed = words.map { w -> TextWord in
                defer { left += Double(w.0.count) * 12 + 10 }
                return TextWord(text: w.0, left: left, right: left + Double(w.0.count) * 12, confidence: w.1)
            }
            let mean = words.map(\.1).reduce(0, +) / Double(words.count)
            return TextLine(text: words.map(\.0).joined(separator: " "), confidence: mean, height: 20, words: boxed)
        }
        let sure = line([("~", 0.05), ("Tel:}", 0.2), ("4815-2907", 0.93)])
        let numbers = ContactParser(fallbackRegion: nil).parse(lines: [TextLine(text: "Oficina Central"), sure]).phones
        #expect(numbers.map(\.number) == ["4815-2907"])
        #expect(numbers.first?.valid == false)
        let unsure = line([("~", 0.05), ("Tel:}", 0.2), ("4815-2907", 0.3)])
        #expect(ContactParser(fallbackRegion: nil).parse(lines: [TextLine(text: "Oficina Central"), unsure]).phones.isEmpty)
    }

    @Test func plusPrefixedNumbersKeepTheirCountry() {
        let contact = ContactParser(fallbackRegion: "US").parse(text: "T +44 121 810 5007\nM +61 2 9374 4000")
        #expect(contact.phones.map(\.e164) == ["+441218105007", "+61293744000"])
    }
}

@Suite struct EmailAndURLTests {
    @Test(arguments: [
        ("E: jane.doe@acme.com", "jane.doe@acme.com"),
        ("jane.doe @ acme.com", "jane.doe@acme.com"),
        ("Email: jane@acme,com", "jane@acme.com"),
        ("jane@acme.co uk", "jane@acme.co.uk"),
        ("jane(at)acme.de", "jane@acme.de"),
        ("jane@acme.c0m", "jane@acme.com"),
        ("E_jane.doe@acme.com", "jane.doe@acme.com"),
        ("m_jane@acme.com", "m_jane@acme.com"),
        ("J_Doe@acme.com", "j_doe@acme.com"),
    ])
    func emailsAreFoundAndRepaired(line: String, email: String) {
        #expect(ContactParser().parse(text: line).emails == [email])
    }

    /// A local part OCR split at a space is joined when what follows the space cannot be a local
    /// part alone, or the word before it has a dot; labels, names, web addresses and sentences
    /// before an address are left out of it.
    @Test(arguments: [
        ("Email: mir a@brenmark.com", "mira@brenmark.com"),
        ("E ad min@tollaby.co.uk", "admin@tollaby.co.uk"),
        ("marta.k owalska@velipro.pl", "marta.kowalska@velipro.pl"),
        ("Email info@brenmark.com", "info@brenmark.com"),
        ("Dana Pell dp@brenmark.com", "dp@brenmark.com"),
        ("brenmark.com info@brenmark.com", "info@brenmark.com"),
        ("write to us at info@brenmark.com", "info@brenmark.com"),
        ("E: tomas. lindqvist@velipro.se", "tomas.lindqvist@velipro.se"),
        ("mail us. info@brenmark.com", "info@brenmark.com"),
        ("Correo. info@brenmark.com", "info@brenmark.com"),
    ])
    func aLocalPartSplitAtASpaceIsJoined(line: String, email: String) {
        #expect(ContactParser().parse(text: line).emails == [email])
    }

    /// An underscore OCR did not see between two words of the person's name leaves the first word
    /// before the address; joined again only when both are the name's words.
    @Test(arguments: [
        ("Marek Havel\nSales Lead\nVelipro s.r.o.\nmarek havel@velipro.cz", "marek_havel@velipro.cz"),
        ("Tomas Lindqvist\nVelipro AB\nomas lindqvist@velipro.se", "omas_lindqvist@velipro.se"),
        ("Marek Havel\nVelipro s.r.o.\nE: marek havel@velipro.cz", "marek_havel@velipro.cz"),
        ("Marek Havel\nVelipro s.r.o.\nemail havel@velipro.cz", "havel@velipro.cz"),
        ("Marek Havel\nVelipro s.r.o.\nMarek havel@velipro.cz", "havel@velipro.cz"),
        ("Marek Havel\nVelipro s.r.o.\nsales havel@velipro.cz", "havel@velipro.cz"),
        ("Marek Havel\nVelipro s.r.o.\nmarek mhavel@velipro.cz", "mhavel@velipro.cz"),
    ])
    func anUnderscoreLostBetweenTheNamesWordsIsPutBack(text: String, email: String) {
        #expect(ContactParser().parse(text: text).emails == [email])
    }

    /// A scheme OCR misread and glued to the address is no part of its host.
    @Test(arguments: [
        ("Web hapsy/www.velipro.cz", "www.velipro.cz"),
        ("W htps:/www.velipro.cz", "www.velipro.cz"),
        ("W: https://www.velipro.cz", "https://www.velipro.cz"),
        ("www.velipro.cz/kontakt", "www.velipro.cz/kontakt"),
    ])
    func aMisreadSchemeIsLeftOut(line: String, url: String) {
        #expect(ContactParser().parse(text: line).urls == [url])
    }

    @Test func websitesAreFoundButNotEmailDomains() {
        let contact = ContactParser().parse(text: "jane@acme.com\nwww.acme.com\nhttps //acme.io")
        #expect(contact.urls == ["www.acme.com", "https://acme.io"])
    }
}

@Suite struct ContactDataTests {
    static func lines(_ text: String) -> [TextLine] { text.split(separator: "\n").map { TextLine(text: String($0)) } }

    @Test func contactCharactersCountTheAddressesAndValidNumbersOfAReading() {
        let parser = ContactParser(fallbackRegion: "KR")
        // "y.park@hanbit.co.kr" 15 letters, "010-2001-4640" 11 digits.
        #expect(parser.contactCharacters(lines: Self.lines("Park Min-jun\nM 010-2001-4640\ny.park@hanbit.co.kr")) == 26)
        // A web address counts; a number no plan knows does not.
        #expect(parser.contactCharacters(lines: Self.lines("www.hanbit.co.kr\nT 123")) == 13)
    }

    @Test func aReadingAtAWrongTurnHoldsNoContactData() {
        let junk = Self.lines("i ze\ni + i\nyee rt\n3 oH\nOv9r-1007-010 W\nwoouequilie;ahuurk")
        #expect(ContactParser(fallbackRegion: "KR").contactCharacters(lines: junk) == 0)
    }
}

@Suite struct ReconciliationTests {
    @Test func domainsAgreeingWithTheCompanyWin() {
        let c = ContactParser().parse(text: "Griffiths Ltd\nCharlotte Wright\ncwright@griffithsitd.co.uk\nwww.griffithsltd.co.uk")
        #expect(c.emails == ["cwright@griffithsltd.co.uk"])
        #expect(c.urls == ["www.griffithsltd.co.uk"])
        #expect((c.confidence[.emails] ?? 1) < 0.9)  // a repaired field says so
    }

    @Test func aMisreadWebAddressFollowsTheCompanyAndTheEmail() {
        let c = ContactParser().parse(text: "Byrd PLC\nAdam Roberson\nadam.roberson@byrdplc.com\nhttps://byrdpic.com")
        #expect(c.urls == ["https://byrdplc.com"])
    }

    /// A domain that is the company's name shortened or lengthened by its last letter is how
    /// the company spells it online, not a slip to mend.
    @Test func aDomainShortenedFromTheNameIsKept() {
        let c = ContactParser().parse(text: "Padaria Moreira de Campos\nLuiza Prado\ncontato@padariamoreirad.com")
        #expect(c.emails == ["contato@padariamoreirad.com"])
        let d = ContactParser().parse(text: "Bakkerij van Oosterhout\nFenna Dijk\ninfo@bakkerijvanoosterhou.nl")
        #expect(d.emails == ["info@bakkerijvanoosterhou.nl"])
    }

    @Test func unrelatedDomainsAreLeftAlone() {
        let c = ContactParser().parse(text: "Acme Inc\nJane Doe\njane@gmail.com\nwww.acme-tools.com")
        #expect(c.emails == ["jane@gmail.com"])
        #expect(c.urls == ["www.acme-tools.com"])
    }

    /// A country domain an OCR slip away from that of the country the card's numbers name is
    /// that country's (".ni" read for ".nl"); without such evidence, or with another country's
    /// domain, the addresses stay as read.
    @Test func aCountryDomainMisreadFollowsTheCountryOfTheNumbers() {
        let c = ContactParser(fallbackRegion: nil).parse(text: "Femke Verhoef\nVerhoef Tuinen BV\nT +31 20 123 4567\nfemke@verhoeftuinen.ni\nwww.verhoeftuinen.ni/contact")
        #expect(c.emails == ["femke@verhoeftuinen.nl"])
        #expect(c.urls == ["www.verhoeftuinen.nl/contact"])
        #expect(c.region?.code == "NL")
        let d = ContactParser(fallbackRegion: nil).parse(text: "Femke Verhoef\nVerhoef Tuinen BV\nT +31 20 123 4567\nfemke@verhoeftuinen.de")
        #expect(d.emails == ["femke@verhoeftuinen.de"])
        let e = ContactParser(fallbackRegion: nil).parse(text: "Femke Verhoef\nfemke@verhoeftuinen.ni")
        #expect(e.emails == ["femke@verhoeftuinen.ni"])
    }

    @Test func aWordOfTheDomainIsNoDebris() {
        let labels = ["nordvikhals"]
        #expect(PeopleExtractor.withDomainWords("© NORDVIK & HALS AS", kept: "& HALS AS", domainLabels: labels) == "NORDVIK & HALS AS")
        // Debris that is not the domain's, or a word with signs no word has, stays out.
        #expect(PeopleExtractor.withDomainWords("oO Nordvik Hals", kept: "Nordvik Hals", domainLabels: labels) == "Nordvik Hals")
        #expect(PeopleExtractor.withDomainWords("atl Nordv) & Hals", kept: "& Hals", domainLabels: labels) == "& Hals")
        #expect(PeopleExtractor.withDomainWords("© NORDVIK & HALS AS", kept: "& HALS AS", domainLabels: []) == "& HALS AS")
    }

    /// The first word of a name beside its logo, read with the logo's marks or a letter or two
    /// wrong and dropped as debris, is the domain's word: given back spelled as the domain spells it,
    /// in the case of the name. A word the domain does not spell, or a name that spells the domain
    /// already, stays as it was.
    @Test func aDomainWordMisreadBesideTheLogoIsGivenBack() {
        #expect(PeopleExtractor.withDomainWords("pxon, Marsh and Bell", kept: "Marsh and Bell", domainLabels: ["foxon"]) == "Foxon, Marsh and Bell")
        #expect(PeopleExtractor.withDomainWords("@pFOXON, MARSH AND BELL", kept: "MARSH AND BELL", domainLabels: ["foxon"]) == "FOXON, MARSH AND BELL")
        #expect(PeopleExtractor.withDomainWords("rul, Teague and Hart", kept: "Teague and Hart", domainLabels: ["ruel"]) == "Ruel, Teague and Hart")
        #expect(PeopleExtractor.withDomainWords("zqwv, Marsh and Bell", kept: "Marsh and Bell", domainLabels: ["foxon"]) == "Marsh and Bell")
        #expect(PeopleExtractor.withDomainWords("zqon Foxon Marsh", kept: "Foxon Marsh", domainLabels: ["foxon"]) == "Foxon Marsh")
        #expect(PeopleExtractor.withDomainWords("pxon, Marsh and Bell", kept: "Marsh and Bell", domainLabels: []) == "Marsh and Bell")
    }

    /// A person's name printed beside their number keeps none of the number: its short groups
    /// (a calling code, an area code of one or two digits, a last pair) go with it. Digits that
    /// are no part of a number stay.
    @Test func aNameBesideItsNumberKeepsNoneOfTheNumber() {
        #expect(PeopleExtractor.withoutContactData("Mirela +48 22-311-2491").kept == "Mirela")
        #expect(PeopleExtractor.withoutContactData("Teodor +421 2 212 358 29").kept == "Teodor")
        #expect(PeopleExtractor.withoutContactData("Ines Varga (01) 234 56 78").kept == "Ines Varga")
        #expect(PeopleExtractor.withoutContactData("Ines Varga Tel. 02 1234 5678").kept == "Ines Varga")
        #expect(PeopleExtractor.withoutContactData("Floor 12 North Wing") == ("Floor 12 North Wing", false))
        #expect(PeopleExtractor.withoutContactData("Suite 4 / 0712 334 556").kept == "Suite 4")
        let card = ContactParser(fallbackRegion: "US").parse(text: "Horvat Bakery\nMaria: +385 1 234 5678\ninfo@horvatbakery.hr")
        #expect(card.name?.full == "Maria")
        #expect(card.phones.map(\.e164) == ["+38512345678"])
    }

    /// A first word in lower case before a capitalised one lost its start to the logo: the domain's
    /// letters before it give it back. A word the domain does not continue is left as read.
    @Test func aWordThatLostItsStartGetsItFromTheDomain() {
        #expect(CrossChecks.repairOrganization("ilgart GmbH & Co. KG", domains: ["wendilgart.de"]) == "Wendilgart GmbH & Co. KG")
        #expect(CrossChecks.repairOrganization("ber Lanz AG", domains: ["www.huber.ch"]) == "Huber Lanz AG")
        #expect(CrossChecks.repairOrganization("ilgart GmbH", domains: ["ostrava.cz"]) == "ilgart GmbH")
        #expect(CrossChecks.repairOrganization("Wendilgart GmbH", domains: ["wendilgart.de"]) == "Wendilgart GmbH")
    }

    /// A legal form that lost its last letter at the card's edge is completed when one letter
    /// makes it a form and the form is sure (three letters read, or after another form); a short
    /// word that only might be one, or a word two letters short, is left as read.
    @Test func aLegalFormCutAtItsEndIsCompleted() {
        #expect(CrossChecks.repairOrganization("Ostwald Lanz Gmb", domains: []) == "Ostwald Lanz Gmbh")
        #expect(CrossChecks.repairOrganization("Ikeda Tools Co., Lt", domains: []) == "Ikeda Tools Co., Ltd")
        #expect(CrossChecks.repairOrganization("Ikeda Tools Lt", domains: []) == "Ikeda Tools Lt")
        #expect(CrossChecks.repairOrganization("Ostwald Lanz Gm", domains: []) == "Ostwald Lanz Gm")
        #expect(CrossChecks.repairOrganization("Ostwald Lanz GmbH", domains: []) == "Ostwald Lanz GmbH")
    }

    @Test func aLegalFormReadWithZerosForOsIsMended() {
        #expect(PeopleExtractor.mendingLegalForm("Zielna Tkanina Sp. z 0.0. Sp.k.") == "Zielna Tkanina Sp. z o.o. Sp.k.")
        #expect(PeopleExtractor.mendingLegalForm("ZIELNA TKANINA SP. Z 0.0.") == "ZIELNA TKANINA SP. Z O.O.")
        #expect(PeopleExtractor.mendingLegalForm("Koivula 0y") == "Koivula Oy")
        // Not a legal form once mended, or one already: left as read.
        #expect(PeopleExtractor.mendingLegalForm("Studio 0.0.7") == "Studio 0.0.7")
        #expect(PeopleExtractor.mendingLegalForm("Route 70 Diner") == "Route 70 Diner")
        let c = ContactParser(fallbackRegion: nil).parse(text: "Marta Zielna\nZielna Tkanina Sp. z 0.0.\n+48 12 345 67 89\nmarta@zielnatkanina.pl")
        #expect(c.organization == "Zielna Tkanina Sp. z o.o.")
    }

    @Test func skeletonsCollapseOCRConfusions() {
        #expect(Reconciliation.skeleton("griffithsitd") == Reconciliation.skeleton("griffithsltd"))
        #expect(Reconciliation.skeleton("modern") == Reconciliation.skeleton("rnodern"))
        #expect(Reconciliation.skeleton("acme") != Reconciliation.skeleton("acne"))
    }
}

@Suite struct AddressTests {
    @Test func usTwoLineAddress() throws {
        let c = ContactParser().parse(text: "Jane Doe\n19237 Martin Cliffs\nNew Mary, NH 05943")
        let a = try #require(c.address)
        #expect(a.street == "19237 Martin Cliffs")
        #expect(a.city == "New Mary" && a.region == "NH" && a.postalCode == "05943")
    }

    @Test func usOneLineAddressWithCountry() throws {
        let c = ContactParser().parse(text: "1568 Conway Canyon Suite 169, East Jeffreystad, OR 42773, USA")
        let a = try #require(c.address)
        #expect(a.street == "1568 Conway Canyon Suite 169")
        #expect(a.city == "East Jeffreystad" && a.postalCode == "42773" && a.country == "USA")
    }

    @Test func britishPostcode() throws {
        let c = ContactParser().parse(text: "Flat 48s, Victoria Junctions\nNew Joanne GL8 8PZ\nUnited Kingdom")
        let a = try #require(c.address)
        #expect(a.street == "Flat 48s, Victoria Junctions")
        #expect(a.city == "New Joanne" && a.postalCode == "GL8 8PZ" && a.country == "United Kingdom")
        #expect(c.region?.code == "GB")
    }

    @Test func germanOneLine() throws {
        let c = ContactParser().parse(text: "Annelies-Franke-Gasse 2, 82616 Hofgeismar")
        let a = try #require(c.address)
        #expect(a.street == "Annelies-Franke-Gasse 2" && a.city == "Hofgeismar" && a.postalCode == "82616")
    }

    @Test func irishEircode() throws {
        let ie = try #require(ContactParser().parse(text: "Grand Canal Dock\nDublin D02 X285\nIreland").address)
        #expect(ie.city == "Dublin" && ie.postalCode == "D02 X285" && ie.country == "Ireland")
    }

    @Test func ocrSlipsInPostcodesAreRepaired() throws {
        let gb = try #require(ContactParser().parse(text: "Flat 46n, Reid Burg, Karlfurt GO 5DB").address)
        #expect(gb.postalCode == "G0 5DB" && gb.city == "Karlfurt")
        let ca = try #require(ContactParser().parse(text: "120 Bremner Blvd\nToronto, ON MSJ OA8").address)
        #expect(ca.postalCode == "M5J 0A8" && ca.region == "ON")
        let us = try #require(ContactParser().parse(text: "9180 Jennifer Squares\nCourtneyville, Hl 46643").address)
        #expect(us.region == "HI" && us.city == "Courtneyville")
    }

    @Test func canadianAndAustralian() throws {
        let ca = try #require(ContactParser().parse(text: "797 Bradley Rapids\nBrownburgh, MB C1N 5J5").address)
        #expect(ca.city == "Brownburgh" && ca.region == "MB" && ca.postalCode == "C1N 5J5")
        let au = try #require(ContactParser().parse(text: "734 Laura Motorway\nEast Sarah VIC 2018").address)
        #expect(au.city == "East Sarah" && au.region == "VIC" && au.postalCode == "2018")
    }
}

@Suite struct PeopleTests {
    /// Honorifics before a name and generational suffixes or degrees after it are kept in the full
    /// name, and are neither the given nor the family name; a two-word name is never cut.
    @Test(arguments: [
        ("Walter Briggs Jr.", "Walter", "Briggs"),
        ("Dr Hanna Kowal", "Hanna", "Kowal"),
        ("Prof. Elena Marchetti", "Elena", "Marchetti"),
        ("Sra. Lucia Prado Neves III", "Lucia", "Neves"),
        ("Owen Tate MBA", "Owen", "Tate"),
        ("Carla de la Fuente, PhD", "Carla", "de la Fuente"),
        ("Ian Sr", "Ian", "Sr"),
    ])
    func honorificsAndSuffixesAreNotPartsOfTheName(printed: String, given: String, family: String) {
        let name = PeopleExtractor.split(name: printed)
        #expect(name.full == printed && name.given == given && name.family == family)
    }

    @Test func nameTitleAndCompanyFromAPlainCard() throws {
        let c = ContactParser().parse(text: """
            Byrd PLC
            Adam Roberson
            Senior Software Engineer
            Phone: (202) 555-0128
            E: adam.roberson@byrdplc.com
            https://byrdplc.com
            """)
        let name = try #require(c.name)
        #expect(name.full == "Adam Roberson" && name.given == "Adam" && name.family == "Roberson")
        #expect(c.title == "Senior Software Engineer")
        #expect(c.organization == "Byrd PLC")
        #expect((c.confidence[.name] ?? 0) > 0.7)
    }

    @Test func companyWithoutLegalFormIsFoundThroughTheDomain() {
        let c = ContactParser().parse(text: "Smith-Ware\nDaniel Johnson\nReal Estate Agent\ndaniel@smithware.ca")
        #expect(c.organization == "Smith-Ware")
        #expect(c.name?.full == "Daniel Johnson")
    }

    @Test func germanTitleAndUmlautNameAgreeingWithEmail() {
        let c = ContactParser().parse(text: "Seip AG\nFabienne Dörr\nMarketing Director\nfabienne.doerr@seipag.de")
        #expect(c.name?.full == "Fabienne Dörr")
        #expect(c.organization == "Seip AG")
    }

    @Test func largestLineWinsAmongNameShapedLines() {
        let lines = [
            TextLine(text: "Harbour View", height: 20),
            TextLine(text: "Maria Santos", height: 40),
            TextLine(text: "Account Manager", height: 20),
        ]
        #expect(ContactParser().parse(lines: lines).name?.full == "Maria Santos")
    }

    /// A word OCR was unsure of at a line's end is dropped as texture, but not a title word:
    /// texture does not spell "Director".
    @Test func unsureTitleWordsStayInTheLine() {
        func line(_ text: String, _ conf: Double, height: Double) -> TextLine {
            var left = 0.0
            let words = text.split(separator: " ").map { w -> TextWord in
                defer { left += Double(w.count) * 12 + 10 }
                return TextWord(text: String(w), left: left, right: left + Double(w.count) * 12, confidence: conf)
            }
            return TextLine(text: text, confidence: conf, height: height, words: words)
        }
        var title = line("Art Director", 0.93, height: 40)
        title.words[1].confidence = 0.12
        let c = ContactParser().parse(lines: [line("Stephanie Cameron", 0.96, height: 51), title])
        #expect(c.title == "Art Director")
        var junk = line("Art Dlrqx", 0.93, height: 40)
        junk.words[1].confidence = 0.12
        #expect(CardLine.split([junk]).map(\.text) == ["Art"])
    }

    @Test func wideGapSplitsTwoColumns() {
        let words = [
            TextWord(text: "19237", left: 10, right: 80, confidence: 0.9),
            TextWord(text: "Martin", left: 90, right: 170, confidence: 0.9),
            TextWord(text: "Cliffs", left: 180, right: 250, confidence: 0.9),
            TextWord(text: "P:", left: 700, right: 720, confidence: 0.9),
            TextWord(text: "646.555.0155", left: 730, right: 900, confidence: 0.9),
        ]
        let line = TextLine(text: words.map(\.text).joined(separator: " "), confidence: 0.9, height: 20, words: words)
        let c = ContactParser().parse(lines: [line, TextLine(text: "New Mary, NH 05943")])
        #expect(c.address?.street == "19237 Martin Cliffs")
        #expect(c.phones.first?.e164 == "+16465550155")
    }

    /// A dash read in the blank between a name and a company set on its baseline (OCR's reading
    /// of blank paper, or a separator) does not join the two columns; a dash between words of one
    /// field, a word's space apart, stays.
    @Test func aDashInAColumnGapDoesNotJoinTheColumns() {
        func line(_ words: [(String, Double, Double)], height: Double) -> TextLine {
            let boxed = words.map { TextWord(text: $0.0, left: $0.1, right: $0.2, confidence: 0.9) }
            return TextLine(text: words.map(\.0).joined(separator: " "), confidence: 0.9, height: height, words: boxed)
        }
        let wide = line([("Marlena", 60, 330), ("Oberholz", 355, 650), ("\u{2014}", 700, 745), ("Fennick", 790, 950)], height: 48)
        #expect(CardLine.split([wide]).map(\.text) == ["Marlena Oberholz", "Fennick"])
        let near = line([("Villa", 60, 160), ("\u{2014}", 180, 210), ("Nova", 230, 330)], height: 40)
        #expect(CardLine.split([near]).map(\.text) == ["Villa - Nova"])
        let labelled = line([("W", 52, 61), ("|", 74, 76), ("https://fennick.example", 97, 402), ("Am", 700, 730), ("Anger", 738, 800),
                             ("12", 808, 830)], height: 21)
        #expect(CardLine.split([labelled]).map(\.text) == ["W | https://fennick.example", "Am Anger 12"])
    }

    /// Two words of letter-spaced capitals ("HALVORSEN  GMBH") stand as far apart as their letters:
    /// one field. Two words a column apart are two.
    @Test func twoLetterSpacedWordsAreOneFieldAndTwoColumnsAreTwo() {
        func line(_ first: String, _ second: String, gap: Double, pitch: Double, height: Double) -> TextLine {
            let a = TextWord(text: first, left: 100, right: 100 + pitch * Double(first.count), confidence: 0.96)
            let b = TextWord(text: second, left: a.right + gap, right: a.right + gap + pitch * Double(second.count), confidence: 0.96)
            return TextLine(text: first + " " + second, confidence: 0.96, height: height, words: [a, b])
        }
        #expect(CardLine.split([line("HALVORSEN", "GMBH", gap: 37, pitch: 35, height: 26)]).map(\.text) == ["HALVORSEN GMBH"])
        #expect(CardLine.split([line("Ines", "Brandt", gap: 45, pitch: 10, height: 20)]).map(\.text) == ["Ines", "Brandt"])
    }
}
