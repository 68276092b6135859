import Foundation
import Testing
@testable import ContactParser

/// The country a card is from, read from what it prints.
@Suite struct RegionTests {
    /// A country's code printed before its postcode, as its post's format writes it, places the
    /// card; a code with no postcode of that country after it does not.
    @Test func aCountrysCodeBeforeItsPostcodePlacesTheCard() {
        #expect(ContactParser().parse(text: "Jo Bell\nPylimo g. 4\nLT-01117 Vilnius").region?.code == "LT")
        #expect(ContactParser().parse(text: "Jo Bell\nBahnhofstrasse 3\nCH-8001 Zürich").region?.code == "CH")
        #expect(RegionInference.prefixedPostcodeRegion("CH-12 Basel") == nil)
        #expect(RegionInference.prefixedPostcodeRegion("Ref XX-8001") == nil)
    }

    @Test(arguments: [
        ("info@nipponprecision.co.jp", "JP"), ("kostling@erikssonjohansson.se", "SE"), ("hola@talleres.com.br", "BR"),
        ("info@kohlow.sg", "SG"), ("a@b.co.uk", "GB"), ("x@firma.cz", "CZ"), ("x@yritys.fi", "FI"), ("x@empresa.es", "ES"),
    ])
    func theCountryCodeDomainNamesTheCountry(email: String, region: String) {
        let c = ContactParser().parse(text: "Jane Doe\n\(email)")
        #expect(c.region?.code == region, "\(email)")
        #expect(c.region?.sources == ["domain"])
    }

    @Test func genericDomainsSayNothing() {
        for email in ["jane@acme.com", "jane@acme.io", "jane@acme.co", "jane@acme.ai"] {
            #expect(ContactParser().parse(text: "Jane Doe\n\(email)").region == nil, "\(email)")
        }
    }

    @Test func theInternationalPrefixNamesTheCountry() {
        let c = ContactParser().parse(text: "Jun Saito\nP | +81 52-858-6777\njun@example.com")
        #expect(c.region?.code == "JP")
        #expect(c.region?.sources.contains("phone-prefix") == true)
        #expect(c.phones.first?.e164 == "+81528586777")
    }

    @Test(arguments: [("Deutschland", "DE"), ("Sverige", "SE"), ("España", "ES"), ("Italia", "IT"), ("Nederland", "NL"),
                      ("Polska", "PL"), ("Suomi", "FI"), ("Österreich", "AT"), ("Schweiz", "CH"), ("Japan", "JP"),
                      ("United Kingdom", "GB"), ("USA", "US")])
    func countryNamesInTheirOwnLanguage(name: String, region: String) {
        let c = ContactParser().parse(text: "Anna Berg\nHauptweg 1\n\(name)")
        #expect(c.region?.code == region, "\(name)")
    }

    @Test func withoutAClueTheFallbackIsSaidAndNationalNumbersStayAsPrinted() {
        let text = "Jane Doe\nTel 030 2345 6789"
        let none = ContactParser().parse(text: text)
        #expect(none.region == nil)
        #expect(none.phones.first?.e164 == nil && none.phones.first?.number == "030 2345 6789")
        let option = ContactParser(fallbackRegion: "DE", source: "option").parse(text: text)
        #expect(option.region == RegionGuess(code: "DE", sources: ["option"]))
        #expect(option.phones.first?.e164 == "+493023456789")
    }

    /// Two numbers printed with a trunk prefix, valid in one country's plan alone and grouped as
    /// it groups them, name that country when nothing else does; one number, or numbers without a
    /// trunk prefix (valid in many plans), name none.
    @Test func nationalNumbersAloneNameTheirCountry() {
        let both = ContactParser().parse(text: "Lena Vogt\nSales Director\nTel 030 12345678\nMobil 0151 23456789\nlena@vogtline.com")
        #expect(both.region == RegionGuess(code: "DE", sources: ["phone-number"]))
        #expect(both.phones.map(\.e164) == ["+493012345678", "+4915123456789"])
        #expect(both.phones.map(\.type) == [.work, .mobile])
        #expect(ContactParser().parse(text: "Lena Vogt\nTel 030 12345678\nlena@vogtline.com").region == nil)
        let local = ContactParser().parse(text: "Rui Matos\nTel 3456-7812\nCel 98765-4321\nrui@matoslar.com")
        #expect(local.region == nil)
        #expect(local.phones.allSatisfy { $0.e164 == nil })
    }

    /// A pictogram OCR read as "@" does not hide the address on its line.
    @Test func aPictogramReadAsAtIsNoEmail() {
        #expect(RegionInference.hasEmail("Av. Central, 12 - Curitiba - PR @& (41) 3456-7890") == false)
        #expect(RegionInference.hasEmail("Rua Sete, 12 - contato@loja.com.br"))
        let c = ContactParser().parse(text: "Rua das Flores, 120\nCuritiba, Paraná - @ (41) 3456-7890\nCEP 80010-000")
        #expect(c.region?.code == "BR")
    }

    /// A card no clue places surely, whose weak clues fit only countries of one language, is
    /// likely printed in it; clues that fit countries of several languages, or English, say none.
    @Test func weakCluesOfOneLanguageNameTheLanguage() {
        func lines(_ text: String) -> [TextLine] { text.split(separator: "\n").map { TextLine(text: String($0)) } }
        let german = "Lena Vogt\nProkuristin\nBrandt Kessler AG\nlena@brandtkessler.com"
        #expect(ContactParser().parse(text: german).region == nil)
        #expect(ContactParser.likelyLanguage(lines: lines(german)) == "de")
        #expect(ContactParser.likelyLanguage(lines: lines("Aino Koski\nKoski Rantala Oy")) == "fi")
        #expect(ContactParser.likelyLanguage(lines: lines("Jane Doe\nDoe Widgets Ltd")) == nil)
        #expect(ContactParser.likelyLanguage(lines: lines("Jane Doe\nSales Manager\njane@widgets.com")) == nil)
    }

    /// A number valid in its calling code's plan names the country even on a line OCR was unsure
    /// of (pictograms and texture beside it); a number that is not valid there does not.
    @Test func aValidInternationalNumberOnAnUnsureLineNamesTheCountry() {
        func line(_ text: String, _ confidence: Double, _ index: Int) -> CardLine {
            CardLine(text: text, confidence: confidence, height: 20, top: Double(40 * index), left: 10, index: index)
        }
        let sure = line("Example Trading", 0.9, 0)
        #expect(RegionInference.infer(lines: [sure, line("3 ef +81 90-1234-5678 ~i", 0.3, 1)], emails: [], urls: [])?.code == "JP")
        #expect(RegionInference.infer(lines: [sure, line("3 ef +81 12 ~i", 0.3, 1)], emails: [], urls: []) == nil)
    }

    /// National numbers printed as one country prints them at home name it among the countries
    /// they could be valid in; numbers as valid in two, printed as both would, name none.
    @Test func numbersPrintedAsAtHomeNameTheirCountry() {
        let regions = ["JP", "KR", "CN", "TW"]
        #expect(PhoneNumbers.nationalFormat("0312345678", region: "JP") == "03-1234-5678")
        #expect(PhoneNumbers.nationalFormat("0312345678", region: "KR") == "031-234-5678")
        #expect(PhoneNumbers.region(ofPrintedNumbers: ["03-1234-5678"], among: regions) == "JP")
        #expect(PhoneNumbers.region(ofPrintedNumbers: ["031-234-5678"], among: regions) == "KR")
        #expect(PhoneNumbers.region(ofPrintedNumbers: ["02-234-5678", "010-2345-6789"], among: regions) == "KR")
        #expect(PhoneNumbers.region(ofPrintedNumbers: ["010 2345 6789", "131 2345 6789"], among: regions) == "CN")
        #expect(PhoneNumbers.region(ofPrintedNumbers: ["0912 345 678"], among: regions) == "TW")
        // Valid in Korea and China and printed in neither's way; a number printed with its calling code.
        #expect(PhoneNumbers.region(ofPrintedNumbers: ["01023456789"], among: regions) == nil)
        #expect(PhoneNumbers.region(ofPrintedNumbers: [" +81 3-1234-5678"], among: regions) == nil)
    }

    @Test func legalFormsAndPostcodesTipTheBalance() {
        // No domain, no prefix: the Spanish legal form and the province after the postcode.
        let c = ContactParser().parse(text: "Comercial KCRP S.Coop.\nMarcia Guillen\nMóvil 612 34 44 35\nCalle Mayor 3\n36001 Vigo, Pontevedra")
        #expect(c.region?.code == "ES")
        #expect(c.phones.first?.e164 == "+34612344435")
        // The legal form alone is one weak clue: no country, and the number stays as printed.
        let alone = ContactParser().parse(text: "Comercial KCRP S.Coop.\nMarcia Guillen\nMóvil 612 34 44 35")
        #expect(alone.region == nil)
        #expect(alone.phones.first?.number == "612 34 44 35" && alone.phones.first?.e164 == nil)
    }
}

/// Phone numbers through libphonenumber.
@Suite struct InternationalPhoneTests {
    /// Digit groups set apart by middle dots, the area code in brackets too, are one number.
    @Test func middleDotsSeparateAPhonesGroups() {
        let c = ContactParser(fallbackRegion: "US").parse(text: "Jo Bell\nMob.: (201)·555·0147\nAL 212·555·0123")
        #expect(c.phones.map(\.e164) == ["+12015550147", "+12125550123"])
        #expect(c.phones.first?.type == .mobile)
        #expect(PhoneExtractor.dotSeparated("Open 11:30 - 15:00") == "Open 11:30 - 15:00")
    }

    /// libphonenumber's own example numbers of every region it knows, printed nationally on a card
    /// whose domain names the region: read with the right E.164 and type.
    @Test func everyRegionsExampleNumbersAreRead() {
        var checked = 0, failed: [String] = []
        for region in PhoneNumbers.supportedRegions {
            guard let tld = region == "GB" ? "uk" : Optional(region.lowercased()), ParserData.region(forTopLevelDomain: tld) == region
            else { continue }
            for mobile in [false, true] {
                guard let example = PhoneNumbers.example(region: region, mobile: mobile) else { continue }
                let label = mobile ? "Mobile" : "Tel"
                let c = ContactParser().parse(text: "Jane Doe\n\(label): \(example.national)\njane@example.\(tld)")
                checked += 1
                let phone = c.phones.first
                if phone?.e164 != example.e164 || phone?.type != (mobile ? .mobile : .work) { failed.append("\(region) \(example.national)") }
            }
        }
        print("libphonenumber examples: \(checked - failed.count)/\(checked) read with their E.164 and type")
        #expect(checked > 300)
        #expect(Double(failed.count) / Double(checked) < 0.03, "\(failed.prefix(20))")
    }

    @Test func anInvalidNumberKeepsItsDigitsButNoE164() {
        // Area code 123 does not exist.
        let c = ContactParser(fallbackRegion: "US").parse(text: "Jane Doe\nTel +1 123 456 7890\njane@acme.com")
        let phone = c.phones.first
        #expect(phone?.valid == false)
        #expect(phone?.e164 == nil)
        #expect((c.confidence[.phones] ?? 1) < 0.5)
    }

    @Test(arguments: [
        ("Móvil 612 34 56 78", "ES", PhoneType.mobile), ("Tfn 08-782 612 42", "SE", .work), ("Handy 0151 2345 6789", "DE", .mobile),
        ("Tél. 01 42 68 53 00", "FR", .work), ("Cellulare 347 123 4567", "IT", .mobile), ("Telefax 030 2345 6790", "DE", .fax),
        ("Puh. 09 123 4567", "FI", .work), ("Tel. kom. 512 345 678", "PL", .mobile), ("Mob. 07911 123456", "GB", .mobile),
        ("Direct line 020 7946 0321", "GB", .work), ("Zentrale 030 2345 6789", "DE", .work),
    ])
    func labelsInManyLanguages(line: String, region: String, type: PhoneType) throws {
        let phone = try #require(ContactParser(fallbackRegion: region).parse(text: line).phones.first)
        #expect(phone.type == type, "\(line)")
        #expect(phone.valid, "\(line)")
    }

    /// A label OCR read with one of its usual letter slips is still the label.
    @Test func labelsWithAnOCRSlipAreLabels() {
        let c = ContactParser(fallbackRegion: "JP").parse(text: "P| +81 52-858-6777\nFox | +81 52-801-9931\nTei. +81 52-858-6778")
        #expect(c.phones.map(\.type) == [.work, .fax, .work])
        #expect(Labels.label("Fox") == .phone(.fax))
        #expect(Labels.label("Box") == nil)
        // "F" read as "P", a colon read as a semicolon.
        let slips = ContactParser(fallbackRegion: "NZ").parse(text: "T; 03 230 9366\nPax: 03 230 4546\nF; 03 230 4547\nM; 021 234 5678")
        #expect(slips.phones.map(\.type) == [.work, .fax, .fax, .mobile])
        #expect(Labels.label("Pax") == .phone(.fax))
        #expect(Labels.label("Fax;") == .phone(.fax))
    }

    /// An area code printed once serves the numbers after it: on the same line after a slash or a
    /// label, or alone on the next line. A number elsewhere on the card does not borrow it.
    @Test func anAreaCodePrintedOnceServesTheNumbersAfterIt() {
        let slash = ContactParser(fallbackRegion: "AU").parse(text: "Ph (02) 9876 5432 / 9876 5433")
        #expect(slash.phones.map(\.e164) == ["+61298765432", "+61298765433"])
        let fax = ContactParser(fallbackRegion: "US").parse(text: "Tel (415) 555-0170 - Fax 555-0171")
        #expect(fax.phones.map(\.e164) == ["+14155550170", "+14155550171"])
        #expect(fax.phones.map(\.type) == [.work, .fax])
        let below = ContactParser(fallbackRegion: "BR").parse(text: "Tel: (21) 3456-7890\n3456-7891")
        #expect(below.phones.map(\.e164) == ["+552134567890", "+552134567891"])
        let apart = ContactParser(fallbackRegion: "BR").parse(text: "Tel: (21) 3456-7890\nRua Sete, 12\nRamal 3456-7891")
        #expect(apart.phones.map(\.e164).contains("+552134567891") == false)
        // Without a region the two stay two numbers, as printed.
        let none = ContactParser().parse(text: "Fones 21 3456-7890 / 3456-7891")
        #expect(none.phones.map(\.number) == ["21 3456-7890", "3456-7891"])
    }

    /// A local number without a label, printed in a local number's shape after an address, is
    /// kept as printed; a postcode is not.
    @Test func anUnlabelledLocalNumberIsKeptAsPrinted() {
        let c = ContactParser(fallbackRegion: "BR").parse(text: "Rua Sete, 12 - Centro 3456-7890\nCEP 80010-000")
        #expect(c.phones.map(\.number) == ["3456-7890"])
        #expect(c.phones.first?.valid == false && c.phones.first?.e164 == nil)
    }

    /// A Brazilian mobile number printed before the country put a 9 before them (eight digits
    /// from 6 to 9, with its area code, or behind a phone label) is a mobile, kept as printed; a
    /// landline stays a landline.
    @Test func aBrazilianMobileInTheFormerPlanIsAMobile() {
        let c = ContactParser(fallbackRegion: "BR").parse(text: "Exemplo Eventos\n(21) 9876-5432\nTel (21) 3456-7890 / Fone 8765-4321")
        #expect(c.phones.map(\.number) == ["(21) 9876-5432", "(21) 3456-7890", "8765-4321"])
        #expect(c.phones.map(\.type) == [.mobile, .work, .mobile])
        #expect(c.phones.first?.valid == false && c.phones.first?.e164 == nil)
        #expect(PhoneExtractor.kindInFormerPlan("2198765432", region: "US") == nil)
    }

    @Test func pictogramsBeforeNumbersAreNotDigits() {
        let c = ContactParser(fallbackRegion: "SE").parse(text: "0 070-124 53 68\n® 08-14 72 31")
        #expect(c.phones.map(\.e164) == ["+46701245368", "+468147231"])
        #expect(c.phones.first?.type == .mobile)  // unlabelled: libphonenumber's type
    }
}

/// Addresses of any country, from Google's address metadata.
@Suite struct InternationalAddressTests {
    @Test(arguments: [
        ("JP", "1-6-16 Meieki, Nakamura-ku, Nagoya 450-0002, Japan", "1-6-16 Meieki", "Nakamura-ku", "450-0002"),
        ("SE", "Grangatan 5\n653 93 Göteborg\nSweden", "Grangatan 5", "Göteborg", "653 93"),
        ("NL", "Lolahof 7\n1669 SC Kruiningen", "Lolahof 7", "Kruiningen", "1669 SC"),
        ("SG", "187 Kallang Avenue, #08-08, Singapore 517926", "187 Kallang Avenue, #08-08", "Singapore", "517926"),
        ("SG", "M 9123 4567 | 12 Marina View, #20-01, Singapore 018961", "12 Marina View, #20-01", "Singapore", "018961"),
        ("IT", "Stretto Schiavo, 2\n89822 Castel Boglione (VS)\nItaly", "Stretto Schiavo, 2", "Castel Boglione", "89822"),
        ("IN", "43/98, Shroff Street\nVisakhapatnam, Uttar Pradesh 059905", "43/98, Shroff Street", "Visakhapatnam", "059905"),
        ("PL", "al. Ludowa 17\n04-915 Nysa", "al. Ludowa 17", "Nysa", "04-915"),
        ("CH", "Stalderstrasse 81\n1669 Risch", "Stalderstrasse 81", "Risch", "1669"),
        ("AU", "482 Harris Intersection, South Kylebury ACT 2945", "482 Harris Intersection", "South Kylebury", "2945"),
        ("GB", "Studio 90A, Stone Court\nWatkinsfort S5 6QJ", "Studio 90A, Stone Court", "Watkinsfort", "S5 6QJ"),
        ("ES", "Urbanización de Maxi Coca 27 Puerta 0\n26845 La Rioja\nEspaña", "Urbanización de Maxi Coca 27 Puerta 0", "La Rioja", "26845"),
        ("BR", "Rua Augusta, 1500\nSão Paulo - SP\n01304-001", nil, nil, "01304-001"),
        ("CZ", "Rožmberská 2\n406 69 Skalná", "Rožmberská 2", "Skalná", "406 69"),
        ("LT", "Gedimino pr. 9\nLT-01103 Vilnius", "Gedimino pr. 9", "Vilnius", "LT-01103"),
        ("LT", "Gedimino pr. 9\n01103 Vilnius", "Gedimino pr. 9", "Vilnius", "01103"),
        ("CH", "Stalderstrasse 81\nCH-1669 Risch", "Stalderstrasse 81", "Risch", "1669"),
        ("VN", "Số 7 Lê Lợi\n700000 Hồ Chí Minh", "Số 7 Lê Lợi", "Hồ Chí Minh", "700000"),
        ("BR", "Estrada do Morro, 9 - Pedra Alta/MG 35400-000", "Estrada do Morro, 9", "Pedra Alta", "35400-000"),
    ] as [(String, String, String?, String?, String)])
    func addressesOfManyCountries(region: String, text: String, street: String?, city: String?, postcode: String) throws {
        let a = try #require(ContactParser(fallbackRegion: region).parse(text: text).address, "\(region)")
        #expect(a.postalCode == postcode, "\(region)")
        if let street { #expect(a.street == street, "\(region)") }
        if let city { #expect(a.city == city, "\(region)") }
    }

    /// Google's example postcodes of every country are postcodes of that country, and a street
    /// line with a house number is not taken for a postcode line.
    @Test func everyCountrysExamplePostcodesAreRecognised() {
        var checked = 0, failed: [String] = []
        for (code, format) in ParserData.addressFormats.sorted(by: { $0.key < $1.key }) where format.postcode != nil {
            for example in format.postcodeExamples where !example.isEmpty {
                checked += 1
                if AddressExtractor.postcode(example, format: format) == nil { failed.append("\(code) \(example)") }
            }
        }
        #expect(checked > 400)
        #expect(failed.isEmpty, "\(failed.prefix(20))")
        #expect(ContactParser(fallbackRegion: "ES").parse(text: "Calle de Nidia Herrera 470").address == nil)
    }

    /// A bar after a label alone keeps the label with its value: "T| 21280177" is a number, not an address.
    @Test func aBarAfterALabelIsNoFieldSeparator() {
        #expect(AddressExtractor.fieldsOnOneLine("T| 21280177") == ["T| 21280177"])
        #expect(AddressExtractor.fieldsOnOneLine("M 8636 3991 | 68 Kallang Avenue") == ["M 8636 3991", "68 Kallang Avenue"])
    }

    /// A pin pictogram before the address reads as a lone digit; a street that has its number
    /// after its name (or a number right after the pin) shows it is no house number.
    @Test(arguments: [
        ("9 Alameda Borja Hoyos 108", "Alameda Borja Hoyos 108"),
        ("9 Stretto Schiavo, 2", "Stretto Schiavo, 2"),
        ("9 43/98, Shroff Street", "43/98, Shroff Street"),
        ("9 H.No. 360", "H.No. 360"),
        ("4 High Street", "4 High Street"),
        ("5 Rue de la Paix", "5 Rue de la Paix"),
    ])
    func pinPictogramsBeforeAStreetAreDropped(printed: String, street: String) {
        #expect(AddressExtractor.dropIcon(printed) == street)
    }

    /// A street and its locality on one line with a dash between them, a sub-region key joined to
    /// its locality by a slash, and the postcode's label: each part goes to its field.
    @Test(arguments: [
        ("US", "Dana Whitfield\n77 Orchard Lane Suite 4 - Millbrook, NY 12545", "77 Orchard Lane Suite 4", "Millbrook", "NY", "12545"),
        ("BR", "Carla Menezes\nAlameda dos Ipês, 45 - Vila Nova\nPedra Alta/MG 35400-000", "Alameda dos Ipês, 45 - Vila Nova", "Pedra Alta", "MG", "35400-000"),
        ("BR", "Carla Menezes\nTravessa do Sol, 12\nCEP 35400-000 - Pedra Alta - MG", "Travessa do Sol, 12", "Pedra Alta", "MG", "35400-000"),
    ] as [(String, String, String, String, String, String)])
    func streetLocalityAndSubregionSetApartByDashesAndSlashes(region: String, text: String, street: String, city: String,
                                                              subregion: String, postcode: String) throws {
        let a = try #require(ContactParser(fallbackRegion: region).parse(text: text).address, "\(text)")
        #expect(a.street == street && a.city == city && a.region == subregion && a.postalCode == postcode, "\(a)")
    }

    /// A card that prints no postcode: the locality with its sub-region's key, as the country's
    /// format sets them, and a street make the address; a line ending in a word that happens to be
    /// a key, or stray symbols above one, make none.
    @Test func anAddressWithoutAPostcodeIsReadByItsSubregion() throws {
        let oneLine = try #require(ContactParser(fallbackRegion: "BR").parse(text: "Rua das Palmeiras, 310 - Centro - Pedra Alta - MG").address)
        #expect(oneLine.street == "Rua das Palmeiras, 310 - Centro" && oneLine.city == "Pedra Alta" && oneLine.region == "MG")
        #expect(oneLine.postalCode == nil)
        let twoLines = try #require(ContactParser(fallbackRegion: "BR").parse(text: "Carla Menezes\nEstrada Velha, 88\nPedra Alta - MG").address)
        #expect(twoLines.street == "Estrada Velha, 88" && twoLines.city == "Pedra Alta" && twoLines.region == "MG")
        #expect(ContactParser(fallbackRegion: "BR").parse(text: "Orvalho Sistemas Ltda.\nCLIENT SERVICES ES").address == nil)
        #expect(ContactParser(fallbackRegion: "BR").parse(text: "Carla Menezes\nk\"e7w$\nPedra Alta - MG").address == nil)
        #expect(ContactParser(fallbackRegion: "GB").parse(text: "Dana Whitfield\n77 Orchard Lane\nMillbrook - NY").address == nil)
    }

    /// What stands before the postcode on its line is the street only when it reads as one: a
    /// label is stripped, and a word of debris leaves the street to the line above.
    @Test func aLabelOrDebrisBeforeThePostcodeIsNoStreet() throws {
        let labelled = try #require(ContactParser(fallbackRegion: "BE").parse(text: "Jan Peeters\nAdres: Kerkstraat 12, 2000 Antwerpen").address)
        #expect(labelled.street == "Kerkstraat 12" && labelled.city == "Antwerpen")
        let debris = try #require(ContactParser(fallbackRegion: "BE").parse(text: "Jan Peeters\nKerkstraat 12\noq 2000 Antwerpen").address)
        #expect(debris.street == "Kerkstraat 12" && debris.city == "Antwerpen" && debris.postalCode == "2000")
    }

    /// Another country's name at the end of a locality is part of a town's name; the card's own
    /// country there is its country.
    @Test func anotherCountrysNameEndsATownsName() throws {
        let town = try #require(ContactParser(fallbackRegion: "MX").parse(text: "Calle Morelos 45\n44100 Nueva Italia").address)
        #expect(town.city == "Nueva Italia")
        let country = try #require(ContactParser(fallbackRegion: "MX").parse(text: "Calle Morelos 45\n44100 Zamora México").address)
        #expect(country.city == "Zamora" && country.country == "México")
    }

    /// A card that names no country: of the lines that read as a postcode line, the one the most
    /// countries' formats read so (five digits, not a street's house number).
    @Test func withoutACountryTheLineMostFormatsReadIsThePostcodeLine() throws {
        let a = try #require(ContactParser(fallbackRegion: nil).parse(text: "Karel Novak\nStreljacka 708\n68617 Vinkovci").address)
        #expect(a.street == "Streljacka 708" && a.city == "Vinkovci" && a.postalCode == "68617")
    }

    /// A word of letters mixed with digits or signs after a town (texture or an icon read at the
    /// line's end) is dropped; a district's number or ordinal stays.
    @Test func junkAfterTheLocalityIsDropped() throws {
        let a = try #require(ContactParser(fallbackRegion: "DE").parse(text: "Jo Bell\nLindenweg 4\n37412 Herzberg /x7q").address)
        #expect(a.city == "Herzberg" && a.postalCode == "37412")
        // After a postcode that ends the address ("City, ST ZIP"), a lower-case word or junk alone.
        let us = try #require(ContactParser(fallbackRegion: "US").parse(text: "Jo Bell\n77 Orchard Lane\nMillbrook, NY 12545 qmxv").address)
        #expect(us.city == "Millbrook" && us.postalCode == "12545" && us.street == "77 Orchard Lane")
        #expect(AddressExtractor.withoutTrailingDebris("Lyon 3e") == "Lyon 3e")
        #expect(AddressExtractor.withoutTrailingDebris("Lyon q3x") == "Lyon")
        #expect(AddressExtractor.withoutTrailingDebris("Dublin 2") == "Dublin 2")
        #expect(AddressExtractor.withoutTrailingDebris("Saint-Denis") == "Saint-Denis")
    }

    /// A postcode line whose locality is in lower case (a number's digits and debris) gives way to
    /// a later one whose town is capitalised.
    @Test func aLowerCaseLocalityGivesWayToATown() throws {
        let a = try #require(ContactParser(fallbackRegion: "HU").parse(text: "Jo Bell\n06 1 234 0714 qwrt\nKossuth utca 5.\n3607 Miskolc").address)
        #expect(a.postalCode == "3607" && a.city == "Miskolc")
        // A town whose name starts with its article is no lower-case debris.
        let nl = try #require(ContactParser(fallbackRegion: "NL").parse(text: "Jo Bell\nMarkt 1\n5211 GJ 's-Hertogenbosch\nPostbus 1234, 1000 AB Amsterdam").address)
        #expect(nl.city == "'s-Hertogenbosch")
    }

    /// A unit word one letter from a label ("Suite", "Site") is the address's, not the label.
    @Test func aSuiteIsNoWebLabel() throws {
        let a = try #require(ContactParser(fallbackRegion: "NZ").parse(text: "Jo Bell\nSuite 489, 60 Kauri Track\nMillbrook 5863").address)
        #expect(a.street == "Suite 489, 60 Kauri Track")
        #expect(Labels.label("Suite") == nil && Labels.label("Celt") != nil)
    }

    /// A postcode and its locality OCR read as one word are two.
    @Test func aPostcodeGluedToItsLocalityIsTakenApart() throws {
        let a = try #require(ContactParser(fallbackRegion: "DE").parse(text: "Jo Bell\nBergstraße 4\n37412Herzberg").address)
        #expect(a.postalCode == "37412" && a.city == "Herzberg")
        #expect(AddressExtractor.unglued("4Life") == ["4Life"] && AddressExtractor.unglued("12345abc") == ["12345abc"])
        // A brand with a number in it places no card and makes no address of its own.
        #expect(ContactParser(fallbackRegion: nil).parse(text: "Jo Bell\n1800Blooms").address == nil)
    }

    /// A card placed in one country (its number's) whose address is printed in another's way:
    /// the postcode line the formats agree on is still read.
    @Test func anAddressOfAnotherCountryThanTheCardsIsRead() throws {
        let a = try #require(ContactParser(fallbackRegion: "DE").parse(text: "Jo Bell\nTel. 030 1234567\nBergstraße 4\n4572 Lindau").address)
        #expect(a.postalCode == "4572" && a.city == "Lindau" && a.street == "Bergstraße 4")
        // Without a street, a year in a tagline is no postcode line.
        for tagline in ["Est. 1998", "Family owned since 1998", "Suite 1204"] {
            #expect(ContactParser(fallbackRegion: "US").parse(text: "Jo Bell\n\(tagline)").address == nil, "\(tagline)")
        }
    }

    /// A postcode's digits OCR set apart at a space are joined where the card's country writes
    /// none; a phone number's groups, and a card that names no country, are left alone.
    @Test func aPostcodeSetApartIsJoined() throws {
        let a = try #require(ContactParser(fallbackRegion: "DE").parse(text: "Jo Bell\nLindenweg 4\n374 12 Herzberg").address)
        #expect(a.postalCode == "37412" && a.city == "Herzberg")
        let phone = ContactParser(fallbackRegion: "BE").parse(text: "Jo Bell\nTel 012 89 03 33 Mons")
        #expect(phone.address == nil)
        let unplaced = ContactParser(fallbackRegion: nil).parse(text: "Jo Bell\n374 12 Herzberg").address
        #expect(unplaced == nil || unplaced?.postalCode == "374 12")
        // Opening hours are no postcode.
        #expect(ContactParser(fallbackRegion: "AT").parse(text: "Jo Bell\nMo-Fr 10 18 Uhr").address == nil)
    }

    /// A unit, a street and a locality on one line: what follows the unit up to the dash is the
    /// street's name, even one no list knows as a street.
    @Test func aUnitsStreetRunsToTheDash() throws {
        let a = try #require(ContactParser(fallbackRegion: "GB").parse(text: "Jo Bell\nFlat 2, Hollin Meadows - Eastbury B2 4PA").address)
        #expect(a.street == "Flat 2, Hollin Meadows" && a.city == "Eastbury" && a.postalCode == "B2 4PA")
    }

    /// A one-digit house number before its comma, as French streets print it, stays with the
    /// street; pictogram debris before a street is still dropped.
    @Test func aOneDigitHouseNumberBeforeItsCommaIsKept() throws {
        let a = try #require(ContactParser(fallbackRegion: "FR").parse(text: "Claire Morel\n6, rue des Lilas\n69003 Lyon").address)
        #expect(a.street == "6, rue des Lilas")
        #expect(Labels.isPictogramDebris("©,") && Labels.isPictogramDebris("0)") && !Labels.isPictogramDebris("6,"))
    }

    /// Without a country to place it, a three-digit "postcode" (a house number, debris) or a
    /// locality in lower case (words of a tagline) makes no address; a town's name does.
    @Test func withoutACountryDebrisMakesNoAddress() throws {
        #expect(ContactParser(fallbackRegion: nil).parse(text: "Karel Novak\n204 an tervo").address == nil)
        #expect(ContactParser(fallbackRegion: nil).parse(text: "Karel Novak\n41870 quality and care").address == nil)
        let town = try #require(ContactParser(fallbackRegion: nil).parse(text: "Karel Novak\nMillbrook 4187 zq").address)
        #expect(town.city == "Millbrook" && town.postalCode == "4187")
    }

    /// A line OCR was unsure of between the street and the postcode line (a logo or texture read
    /// as letters) is looked past; a line read surely that is no street ends the address.
    @Test func unsureDebrisBetweenTheStreetAndThePostcodeLineIsLookedPast() throws {
        func lines(_ debrisConfidence: Double) -> [TextLine] {
            [TextLine(text: "Jan Peeters", confidence: 0.9), TextLine(text: "Kerkstraat 12", confidence: 0.85),
             TextLine(text: "xitadi", confidence: debrisConfidence), TextLine(text: "2000 Antwerpen", confidence: 0.85)]
        }
        let past = try #require(ContactParser(fallbackRegion: "BE").parse(lines: lines(0.3)).address)
        #expect(past.street == "Kerkstraat 12" && past.city == "Antwerpen")
        let sure = try #require(ContactParser(fallbackRegion: "BE").parse(lines: lines(0.9)).address)
        #expect(sure.street == nil && sure.city == "Antwerpen")
    }

    /// A fragment of two or three letters between the street and the postcode line (an icon read
    /// as "o" or "nai") is no part of an address however surely OCR read it: looked past, as
    /// debris is, to a street read plainly; a building's and a flat's number ("48/99") is a house
    /// number.
    @Test func aFragmentBetweenTheStreetAndThePostcodeLineIsLookedPast() throws {
        func lines(_ fragment: String, _ street: String) -> [TextLine] {
            [TextLine(text: "Ewa Lis", confidence: 0.9), TextLine(text: street, confidence: 0.85),
             TextLine(text: fragment, confidence: 0.95), TextLine(text: "31-042 Kraków", confidence: 0.85)]
        }
        let pl = try #require(ContactParser(fallbackRegion: "PL").parse(lines: lines("nai", "al. Lipowa 48/99")).address)
        #expect(pl.street == "al. Lipowa 48/99" && pl.city == "Kraków" && pl.postalCode == "31-042")
        let one = try #require(ContactParser(fallbackRegion: "PL").parse(lines: lines("o", "ul. Lipowa 7")).address)
        #expect(one.street == "ul. Lipowa 7")
        let word = try #require(ContactParser(fallbackRegion: "PL").parse(lines: lines("Sprzedaż", "ul. Lipowa 7")).address)
        #expect(word.street == nil && word.city == "Kraków")
        #expect(AddressExtractor.isHouseNumber("48/99") && AddressExtractor.isHouseNumber("12a/3") && !AddressExtractor.isHouseNumber("1/2/3"))
    }

    /// A street named by its kind alone, without a number, in the kinds Brazil's, Portugal's and
    /// Spain's post list, also when OCR dropped its accent ("Praca").
    @Test func aStreetKindOfThePostsListsMakesAStreetLine() throws {
        let br = try #require(ContactParser(fallbackRegion: "BR").parse(text: "Rita Lopes\nPraca Dom Bosco\nVila Rica - RJ, 24350-120").address)
        #expect(br.street == "Praca Dom Bosco" && br.postalCode == "24350-120")
        let pt = try #require(ContactParser(fallbackRegion: "PT").parse(text: "Rita Lopes\nAlameda das Flores, S/N\n4000-123 Porto").address)
        #expect(pt.street == "Alameda das Flores, S/N" && pt.city == "Porto")
    }

    /// A street whose house number reads as a postcode, right above the postcode line: the line
    /// below is the postcode's.
    @Test func aHouseNumberAboveThePostcodeLineIsNoPostcode() throws {
        let a = try #require(ContactParser(fallbackRegion: "LT").parse(text: "Ona Petraitė\n48213 Linden Court\n03105 Vilnius").address)
        #expect(a.street == "48213 Linden Court" && a.city == "Vilnius" && a.postalCode == "03105")
    }

    /// A word of debris after a locality is dropped; a locality's own words stay.
    @Test(arguments: [
        ("Ghent ozr", "Ghent"), ("Port Elsmouth OZR", "Port Elsmouth"), ("Ghent", "Ghent"), ("SINT-NIKLAAS WEST", "SINT-NIKLAAS WEST"),
        ("Alphen aan den Rijn", "Alphen aan den Rijn"), ("Dublin 2", "Dublin 2"), ("Bergen op Zoom", "Bergen op Zoom"),
    ])
    func debrisAfterALocalityIsDropped(printed: String, city: String) {
        #expect(AddressExtractor.withoutTrailingDebris(printed) == city)
    }

    @Test func ocrSlipsInAPostcodeAreUndoneByItsShape() throws {
        let gb = try #require(ContactParser(fallbackRegion: "GB").parse(text: "3 Mandy Field\nWest Lynn SiB oPA\nUK").address)
        #expect(gb.postalCode == "S1B 0PA" && gb.city == "West Lynn" && gb.street == "3 Mandy Field")
    }

    /// "City - UF, CEP": the state after the locality's dash, in the segment before the postcode's,
    /// is the sub-region, not part of the city; so is "City ST, ZIP".
    @Test func theSubregionAfterTheLocalityBeforeAPostcodesSegmentIsTheRegion() throws {
        let br = try #require(ContactParser().parse(text: "Lia Prado\nRua Lima, 3\nVila Rica - MG, 35400-000").address)
        #expect(br.city == "Vila Rica" && br.region == "MG" && br.postalCode == "35400-000" && br.street == "Rua Lima, 3")
        let us = try #require(ContactParser().parse(text: "Jo Doe\n12 Main St\nAustin TX, 78701").address)
        #expect(us.city == "Austin" && us.region == "TX" && us.postalCode == "78701")
        // A city whose name ends with a state's name keeps it.
        let india = try #require(ContactParser(fallbackRegion: "IN").parse(text: "Ravi Rao\n12 Park Street\nNew Delhi, 110001").address)
        #expect(india.city == "New Delhi" && india.postalCode == "110001")
    }

    /// Ireland's pattern takes any three and four letters or digits, but an Eircode, like every
    /// postcode but Bermuda's, holds a digit: a firm's name of such words is no locality and code.
    @Test func wordsAlonePrintedLikeALoosePatternAreNoPostcode() throws {
        let c = ContactParser().parse(text: "CARRICK AND SONS\nAoife Byrne\nSales Manager\naoife@carrickandsons.ie")
        #expect(c.address == nil)
        #expect(c.organization == "CARRICK AND SONS")
        let ie = try #require(AddressExtractor.familyOfRegion["IE"]), bm = try #require(AddressExtractor.familyOfRegion["BM"])
        #expect(AddressExtractor.postcodeReading("AND SONS", family: AddressExtractor.families[ie]) == nil)
        #expect(AddressExtractor.postcodeReading("D02 X285", family: AddressExtractor.families[ie])?.code == "D02 X285")
        #expect(AddressExtractor.postcodeReading("HM GX", family: AddressExtractor.families[bm])?.code == "HM GX")
    }
}

/// Companies, names and labels.
@Suite struct PeopleAndLabelTests {
    /// Two people on one line: the card's person is the first; surnames joined as a firm, or a
    /// line with a legal form, are no pair of people.
    @Test func twoPeopleOnOneLineGiveTheFirst() throws {
        let c = ContactParser().parse(text: "Nordvik Bygg AS\nMaria Lund & Paulo Reis\nProsjektleder\nTel: +47 21 07 96 91\npost@nordvikbygg.no")
        #expect(c.name?.full == "Maria Lund")
        #expect(c.title == "Prosjektleder")
        let pair = try #require(PeopleExtractor.splitPeople("Maria Lund e Paulo Reis"))
        #expect(pair == ("Maria Lund", "Paulo Reis"))
        #expect(PeopleExtractor.splitPeople("Shannon & Kent") == nil)
        #expect(PeopleExtractor.splitPeople("Maria Lund & Jonas Berg AS") == nil)
        #expect(PeopleExtractor.splitPeople("Maria Lund & Jonas Berg & Eva Holm") == nil)
        // A slash sets apart no firm's names: one given name is enough, glued or not.
        let slashed = try #require(PeopleExtractor.splitPeople("Maria Lund /Ho soo Kim"))
        #expect(slashed == ("Maria Lund", "Ho soo Kim"))
        #expect(PeopleExtractor.splitPeople("Shannon / Kent") == nil)
        // Set apart by " / ", the two people are two lines the model may weigh alike: the first is
        // the card's.
        let card = ContactParser().parse(text: "Zorec Gradnje d.o.o.\nMetka Zorec, Jr. / Ana Zorec\nTel: +386 1 234 56 78\ninfo@zorec.si")
        #expect(card.name?.full == "Metka Zorec, Jr.")
        // A letter alone is no person: a firm's legal form written with a slash.
        #expect(PeopleExtractor.splitPeople("Duarte S/A") == nil)
        #expect(PeopleExtractor.splitPeople("Thomas A/S") == nil)
    }

    /// A name and a company in capitals set in two columns on one line, the company's name a given
    /// name too ("MAREK V.O.S."): the model may weigh part of the company's column a name before
    /// the name's column is found the first person; the company's column is then free to be the
    /// company.
    @Test func aCompanyBesideTheFirstPersonIsTheCompany() {
        func line(_ words: [(String, Double, Double, Double)], height: Double, top: Double) -> TextLine {
            let boxed = words.map { TextWord(text: $0.0, left: $0.1, right: $0.2, confidence: $0.3) }
            let mean = words.map(\.3).reduce(0, +) / Double(words.count)
            return TextLine(text: words.map(\.0).joined(separator: " "), confidence: mean, height: height, top: top, left: words[0].1, words: boxed)
        }
        // The e-mail's domain misread by a letter: it does not make the company's column one.
        let c = ContactParser(fallbackRegion: nil).parse(lines: [
            line([("Radek", 47, 225, 0.93), ("Horak", 244, 421, 0.74), ("MAREK", 643, 806, 0.93), ("V.O.S.", 835, 978, 0.5)], height: 40, top: 48),
            line([("Head", 45, 106, 0.96), ("of", 115, 136, 0.97), ("Partnerships", 145, 292, 0.96)], height: 21, top: 121),
            TextLine(text: "Tel +420 212 358 692", confidence: 0.94, height: 26, top: 464, left: 44),
            TextLine(text: "Mobile 601 138 865", confidence: 0.96, height: 26, top: 487, left: 44),
            TextLine(text: "Email hello@mark.cz", confidence: 0.86, height: 16, top: 534, left: 44),
        ])
        #expect(c.name?.full == "Radek Horak")
        #expect(c.organization?.uppercased() == "MAREK V.O.S.")
    }

    /// A title OCR read without its accents is still a title word, and its long words are written
    /// with them; a short word that another language prints without accents stays as read.
    @Test func aTitleReadWithoutItsAccentsIsSpelledWithThem() {
        #expect(PeopleExtractor.withTitleAccents("Projektipaallikko") == "Projektipäällikkö")
        #expect(PeopleExtractor.withTitleAccents("GESCHAFTSFUHRER") == "GESCHÄFTSFÜHRER")
        #expect(PeopleExtractor.withTitleAccents("Senior Inkopschef") == "Senior Inköpschef")
        #expect(PeopleExtractor.withTitleAccents("Tecnico Commerciale") == "Tecnico Commerciale")
        #expect(PeopleExtractor.withTitleAccents("President") == "President")
        #expect(PeopleExtractor.titleWordCount("Myyntipaallikko") == 1)
        let c = ContactParser().parse(text: "Aino Lehtinen\nMyyntipaallikko\nKoivisto Oy\n+358 40 123 4567\naino.lehtinen@koivisto.fi")
        #expect(c.title == "Myyntipäällikkö")
        #expect(c.name?.full == "Aino Lehtinen")
    }

    /// A name and a company set in two columns on one line, the company a name with a legal form
    /// written with a slash ("Duarte S/A"): the name's column is the name, the other the company.
    @Test func aCompanyWithASlashedLegalFormBesideTheNameIsTheCompany() {
        func line(_ words: [(String, Double, Double)], height: Double, top: Double) -> TextLine {
            let boxed = words.map { TextWord(text: $0.0, left: $0.1, right: $0.2, confidence: 0.93) }
            return TextLine(text: words.map(\.0).joined(separator: " "), confidence: 0.93, height: height, top: top, left: words[0].1, words: boxed)
        }
        for firm in ["Duarte", "Thomas", "Vicente"] {
            let c = ContactParser(fallbackRegion: nil).parse(lines: [
                line([("Rui", 58, 141), ("Mendes", 165, 278), (firm, 764, 895), ("S/A", 908, 963)], height: 38, top: 60),
                line([("Gerente", 58, 170), ("de", 180, 210), ("Projetos", 220, 340)], height: 26, top: 110),
                TextLine(text: "Tel 21 234 5976", confidence: 0.9, height: 22, top: 400, left: 58),
                TextLine(text: "E-mail hello@\(firm.lowercased()).pt", confidence: 0.9, height: 22, top: 430, left: 58),
                TextLine(text: "Site \(firm.lowercased()).pt", confidence: 0.9, height: 22, top: 460, left: 58),
            ])
            #expect(c.organization == "\(firm) S/A")
            #expect(c.name?.full == "Rui Mendes")
        }
    }

    /// A card whose name the model weighs under even odds (a name set below its title, names no
    /// list holds) still gives it when a line is shaped like a name and likelier a name than
    /// anything else; a trade or tagline in capitals is no name.
    @Test func aNameUnderEvenOddsIsTakenWhenShapedLikeOne() {
        func card(_ name: String) -> Contact {
            ContactParser().parse(lines: [
                TextLine(text: "Hrvatin Labs d.d.", confidence: 0.95, height: 61, top: 93, left: 117),
                TextLine(text: "DISTRIBUTED LEDGER HUB", confidence: 0.9, height: 28, top: 200, left: 117),
                TextLine(text: "Voditelj prodaje", confidence: 0.99, height: 22, top: 246, left: 117),
                TextLine(text: name, confidence: 0.96, height: 38, top: 276, left: 117),
                TextLine(text: "kontakt@hrvatin.hr", confidence: 0.9, height: 19, top: 335, left: 117),
                TextLine(text: "Ilirska 4a - 51484 Ivanić-Grad", confidence: 0.85, height: 25, top: 363, left: 117),
            ])
        }
        #expect(card("Zoran Babić").name?.full == "Zoran Babić")
        #expect(card("TRGOVINA").name == nil)
    }

    /// A name and a company on one line may be cut after two words or after three: the model
    /// weighs both cuts, and the halves of two cuts never both take a role.
    @Test func aNameAndACompanyOnOneLineAreCutWhereTheModelWeighsBest() {
        let cuts = PeopleExtractor.splitsOfNameAndCompany("Lotte De Wachter Kempen Logistiek VOF")
        #expect(cuts.map(\.n) == [2, 3])
        #expect(cuts.last?.first == "Lotte De Wachter" && cuts.last?.second == "Kempen Logistiek VOF")
        let card = ContactParser().parse(text: "Lotte De Wachter Kempen Logistiek VOF\nZaakvoerder\n+32 3 234 56 78\ninfo@kempenlogistiek.be")
        #expect(card.organization == "Kempen Logistiek VOF")
    }

    @Test(arguments: ["Kallio Oyj", "Geisler Sp. z o.o.", "Thomsen & Kjeldsen ApS", "Taliercio s.r.l.", "Drubin Oderwald e.G.",
                      "Monteiro - ME", "Held AG", "Nusslé Sàrl.", "Falk HB", "Bukit Robotics Pte. Ltd."])
    func legalFormsOfManyJurisdictionsMakeACompany(name: String) {
        let c = ContactParser().parse(text: "\(name)\nAnna Berg\nProject Manager")
        #expect(c.organization == name, "\(name)")
        #expect(c.name?.full == "Anna Berg", "\(name)")
    }

    @Test func logoDebrisIsTrimmedFromTheCompany() {
        #expect(ContactParser().parse(text: "C) Bukit Robotics Pte. Ltd\nSiti Aminah binte Yusof").organization == "Bukit Robotics Pte. Ltd")
        #expect(ContactParser().parse(text: "A Cabezas y Figuerola S.L.L.\nMaría Ángeles Saavedra").organization == "Cabezas y Figuerola S.L.L.")
        let glued = ContactParser().parse(text: "SCASTRO-JIMENEZ\nJo Tapia\njtapia@castrojimenez.com")
        #expect(glued.organization == "CASTRO-JIMENEZ")
    }

    /// A word in title case holds no glued letters, whatever the domain lacks: the domain lost a
    /// letter ("orvath.hu"), or had none for one ("lund.dk" for Ølund).
    @Test func aWordInTitleCaseKeepsItsFirstLetterAgainstTheDomain() {
        #expect(CrossChecks.repairOrganization("Horvath Partners Kft.", domains: ["orvath.hu"]) == "Horvath Partners Kft.")
        #expect(CrossChecks.repairOrganization("Ølund Design ApS", domains: ["lund.dk"]) == "Ølund Design ApS")
        #expect(CrossChecks.repairOrganization("iHorvath Partners Kft.", domains: ["horvath.hu"]) == "Horvath Partners Kft.")
    }

    /// An icon or a logo read as words of their own before the company ("a |", "47"), when the
    /// domain starts with the word after them, is dropped; an initial, a name's particle, a legal
    /// form, or a word the domain itself starts with is kept.
    @Test func debrisWordsBeforeTheCompanyAreDroppedByTheDomain() {
        let c = ContactParser().parse(text: "a | Lindqvist-Moen AS\nKari Nilsen\nkari@lindqvist-moen.no")
        #expect(c.organization == "Lindqvist-Moen AS")
        #expect(CrossChecks.repairOrganization("47 Brauneck Elektro GmbH", domains: ["brauneck.de"]) == "Brauneck Elektro GmbH")
        #expect(CrossChecks.repairOrganization("J Harlow Plumbing", domains: ["harlowplumbing.com"]) == "J Harlow Plumbing")
        #expect(CrossChecks.repairOrganization("de Wit Bouw BV", domains: ["witbouw.nl"]) == "de Wit Bouw BV")
        #expect(CrossChecks.repairOrganization("PT Maju Sentosa", domains: ["majusentosa.co.id"]) == "PT Maju Sentosa")
        #expect(CrossChecks.repairOrganization("a2 Brandt Design", domains: ["a2brandt.de"]) == "a2 Brandt Design")
        #expect(CrossChecks.repairOrganization("47 Brauneck Elektro GmbH", domains: ["elektro-profi.de"]) == "47 Brauneck Elektro GmbH")
    }

    /// A domain spells an umlaut as its vowel and "e": the company read without the dots gets
    /// them back, not the domain's spelling.
    @Test func anUmlautTheDomainSpellsOutIsRestored() {
        let c = ContactParser().parse(text: "SUSSEBIER KG\nAnna Berg\ninfo@suessebier.de\nwww.suessebier.de")
        #expect(c.organization == "SÜSSEBIER KG")
        #expect(CrossChecks.umlautSpelling("muller", domain: "mueller") == "müller")
        #expect(CrossChecks.umlautSpelling("bauer", domain: "bauere") == nil)
        #expect(CrossChecks.umlautSpelling("hoffman", domain: "hoffmann") == nil)
    }

    /// A domain printed small, misread letter for letter where the company's name, printed large,
    /// is read right ("i" for "l", "e" for "c", "t" for "l"), takes the name's spelling in the
    /// e-mail and the web address, even when both were misread alike; a domain that keeps only the
    /// start of a long name is compared with that start.
    @Test func aDomainMisreadInSmallPrintTakesTheCompanysSpelling() {
        let both = ContactParser().parse(text: "Pavlicek Hromadova s.r.o.\nIva Novak\niva@paviicekhromadov.cz\nhttps://www.paviicekhromadov.cz")
        #expect(both.emails == ["iva@pavlicekhromadov.cz"])
        #expect(both.urls == ["https://www.pavlicekhromadov.cz"])
        let form = ContactParser().parse(text: "Mendon PLC\nAnna Berg\nanna.berg@mendonple.co.uk\nmendonple.co.uk")
        #expect(form.emails == ["anna.berg@mendonplc.co.uk"])
        #expect(Reconciliation.organizationPrefix(of: "hoteiborgen", organization: "Hotel Borgen AS") == "hotelborgen")
        #expect(Reconciliation.organizationPrefix(of: "stadtwerke", organization: "Stadtwerke Ost GmbH") == nil)
        // Not a letter OCR confuses ("o" for "a": the company may be the one misread), not a short label.
        #expect(Reconciliation.organizationPrefix(of: "mortensen", organization: "Martensen AS") == nil)
        #expect(Reconciliation.organizationPrefix(of: "teiko", organization: "Telko AG") == nil)
        // A lower-case "l" in a word otherwise in capitals is the capital "I" OCR took for it.
        #expect(Reconciliation.organizationPrefix(of: "sousaei", organization: "Sousa - El") == nil)
    }

    /// A part of an e-mail's local part one letter away from a word of the person's name (five
    /// letters or more, the same length) that the name lists know takes the name's spelling,
    /// accents folded; a name word of four letters, an initial glued to a name, a part close to
    /// two words and a word the lists do not know are left alone.
    @Test func anEmailLocalPartTakesTheNamesSpelling() {
        #expect(ContactParser().parse(text: "Greta Nilsson\ngreta.niisson@acme.se").emails == ["greta.nilsson@acme.se"])
        let unlisted = PeopleExtractor.split(name: "Greta Qvistborgh")
        #expect(CrossChecks.emailsRespelledByName(["greta.qvistbongh@acme.se"], name: unlisted) == ["greta.qvistbongh@acme.se"])
        #expect(ContactParser().parse(text: "Maria Dvořáková\nmaria_dvorakove@acme.cz").emails == ["maria_dvorakova@acme.cz"])
        let name = PeopleExtractor.split(name: "Marc Dubois")
        #expect(CrossChecks.emailsRespelledByName(["mark.dubois@acme.fr", "mdubois@acme.fr"], name: name) == ["mark.dubois@acme.fr", "mdubois@acme.fr"])
        let twins = PeopleExtractor.split(name: "Karen Karin Olsen")
        #expect(CrossChecks.emailsRespelledByName(["karon@acme.no"], name: twins) == ["karon@acme.no"])
        #expect(CrossChecks.emailsRespelledByName(["karen@acme.no"], name: nil) == ["karen@acme.no"])
    }

    /// A web address OCR misread beside the card's e-mail domain is written as the e-mail has it,
    /// for the slips OCR makes: scheme letters glued on, the dot after "www" lost, an "m" read as
    /// two letters; a different suffix of the same name is left alone.
    @Test(arguments: [
        ("bttpswedwards.com", "edwards.com"),
        ("wwwjacksonmiles.ca", "jacksonmiles.ca"),
        ("hubermartinez.corw", "hubermartinez.com"),
        ("hubermartinez.corn", "hubermartinez.com"),
    ])
    func webAddressesAgreeWithTheEmailDomain(read: String, domain: String) {
        #expect(URLExtractor.agreeing(read, withEmailDomains: [domain]) == domain)
    }

    /// A web line OCR broke past reading as an address (the scheme misread, the dots read as
    /// spaces or dashes, "www" glued on) still names the e-mail's domain; a line that merely ends
    /// in the domain's letters, or a different domain, does not.
    @Test(arguments: [
        ("W hitpsv/www.corvale ie", "corvale.ie"),
        ("Web: hups://www-tamberlin.com.au", "tamberlin.com.au"),
        ("WWWPELLWORTH. COM", "pellworth.com"),
        ("Web: https://www fenwirk at", "fenwirk.at"),
    ])
    func brokenWebLinesNameTheEmailDomain(line: String, domain: String) {
        let c = ContactParser().parse(text: "Jana Holt\nSales Lead\njana@\(domain)\n\(line)")
        #expect(c.urls.map(URLExtractor.host) == [domain])
    }

    @Test func linesEndingInTheDomainsLettersAreNotWebAddresses() {
        #expect(URLExtractor.webLineOfEmailDomain("Outpost Design Studio", emailDomains: ["design.studio"]) == nil)
        #expect(URLExtractor.webLineOfEmailDomain("Footprint acme com", emailDomains: ["acme.com"]) == nil)
        #expect(URLExtractor.agreeing("s-bahn.de", withEmailDomains: ["bahn.de"]) == nil)
        #expect(URLExtractor.webLineOfEmailDomain("Corvale Design Studio Corvaleie", emailDomains: ["corvale.ie"]) == nil)
        #expect(URLExtractor.webLineOfEmailDomain("Corvale ie", emailDomains: ["corvale.ie"]) == nil)
        #expect(URLExtractor.webLineOfEmailDomain("W hitpsv/www.brenmoor ie", emailDomains: ["corvale.ie"]) == nil)
        #expect(URLExtractor.webLineOfEmailDomain("E jana@corvale ie", emailDomains: ["corvale.ie"]) == nil)
    }

    /// A web line OCR broke and the e-mail both misread the company's domain the same way: the
    /// company's name still mends the e-mail, and the web address follows it.
    @Test func aBrokenWebLineDoesNotOutvoteTheCompany() {
        let c = ContactParser().parse(text: "Fellmark AG\nJana Holt\njana@felimark.at\nWeb: https://www felimark at")
        #expect(c.organization == "Fellmark AG")
        #expect(c.emails == ["jana@fellmark.at"])
        #expect(c.urls.map(URLExtractor.host) == ["fellmark.at"])
    }

    /// OCR's slips in e-mail addresses, undone where the card itself shows what was printed.
    @Test func emailAddressesOCRBrokeAreMended() {
        // A space before an underscore inside the local part.
        #expect(ContactParser().parse(text: "Thomas Pearson\nthomas _pearson@edwards.com").emails == ["thomas_pearson@edwards.com"])
        // An "@" read as an "a", beside the card's web address.
        let at = ContactParser(fallbackRegion: "IN").parse(text: "KALA LLC\nAti Dixit\n® adixitakala.in\n® https://kala.in")
        #expect(at.emails == ["adixit@kala.in"])
        #expect(at.urls == ["https://kala.in"])
        // A domain with no real suffix, one slip from the web address.
        let suffix = ContactParser().parse(text: "Emily Francis\nfrancis@roberts.com.ay\nhttps://www.roberts.com.au")
        #expect(suffix.emails == ["francis@roberts.com.au"])
        // The same with a dot lost and a letter misread in a suffix of two labels.
        let lost = ContactParser().parse(text: "Taro Sato\nE | sato@hanada.cajp\nW | https://www.hanada.co.jp")
        #expect(lost.emails == ["sato@hanada.co.jp"])
        // An "@" read as a "g" or a "q", beside the card's web address.
        for sign in ["g", "q"] {
            let c = ContactParser(fallbackRegion: "PL").parse(text: "Nina Ostrowska\nnostrowska\(sign)lipowa.pl\nlipowa.pl")
            #expect(c.emails == ["nostrowska@lipowa.pl"], "\(sign)")
            #expect(c.urls == ["lipowa.pl"], "\(sign)")
        }
        // A suffix cut short where the line ends or a sign follows, beside the card's web address.
        for read in ["E | emily.francis@roberts", "emily.francis@roberts.c%1 Main Street"] {
            let cut = ContactParser().parse(text: "Emily Francis\n\(read)\nW | www.roberts.com.au")
            #expect(cut.emails == ["emily.francis@roberts.com.au"], "\(read)")
        }
        // The same after an e-mail icon read as an "@" with a space: that "@" is not the address's.
        let icon = ContactParser().parse(text: "Emily Francis\n@ emily.francis@roberts.\n® https://roberts.com.au")
        #expect(icon.emails == ["emily.francis@roberts.com.au"])
        // Not a shorter name: "robert" is no cut of "roberts.com.au", "acme" none of "acmegroup.com".
        #expect(!EmailExtractor.isCutShort("robert", of: "roberts.com.au"))
        #expect(!EmailExtractor.isCutShort("acme", of: "acmegroup.com"))
        #expect(EmailExtractor.isCutShort("acmegroup.", of: "acmegroup.com"))
        // Without a web address to say what it was, an address with no real suffix is left out.
        #expect(ContactParser().parse(text: "Emily Francis\nfrancis@roberts.com.ay").emails.isEmpty)
        #expect(ContactParser().parse(text: "Emily Francis\nE | emily.francis@roberts").emails.isEmpty)
        // A social handle after a number is no address cut short.
        let handle = ContactParser().parse(text: "Roberts Fitness (506) 221-1673 @robertsfitness\nhttp://www.robertsfitness.com")
        #expect(handle.emails.isEmpty)
    }

    @Test func differentSuffixesOfOneNameStayApart() {
        #expect(URLExtractor.agreeing("acme.ch", withEmailDomains: ["acme.com"]) == nil)
        #expect(URLExtractor.agreeing("acme.co.uk", withEmailDomains: ["acme.com"]) == nil)
        let c = ContactParser().parse(text: "Teo & Yeo Trading Pte. Ltd.\nLow Zhi Hao\nhello@teoyeo.sg\nhttps://tcoyeo.sg")
        #expect(c.urls.map { URLExtractor.host(of: $0) } == ["teoyeo.sg"])
    }

    /// A company named only inside its domain is not guessed from it: "lanternworks" may be
    /// "Lantern Works", "LanternWorks GmbH" or a person's own domain.
    @Test func withoutACompanyLineThereIsNoCompany() {
        let c = ContactParser().parse(text: "Jane Doe\nProduct Manager\njane@lanternworks.de")
        #expect(c.organization == nil)
    }

    /// A title of two letters read clearly on its own line is a title ("VD": verkställande direktör).
    @Test func shortTitlesOnTheirOwnLineAreTitles() {
        let c = ContactParser(fallbackRegion: "SE").parse(text: "Ibrahim AB\nHanna Möller\nVd\nMobil: +46 76 031 12 17")
        #expect(c.title == "Vd")
        #expect(c.name?.full == "Hanna Möller")
        // Read fairly (a short word in small print is read less surely than a long one): still a
        // title; two letters that are no title word, read so, are not a line of the card.
        func card(_ short: String, confidence: Double) -> [TextLine] {
            [TextLine(text: "Ibrahim AB", confidence: 0.93, height: 30, top: 20, left: 40),
             TextLine(text: "HANNA MÖLLER", confidence: 0.95, height: 34, top: 80, left: 40),
             TextLine(text: short, confidence: confidence, height: 18, top: 125, left: 40),
             TextLine(text: "Mobil: +46 76 031 12 17", confidence: 0.9, height: 18, top: 200, left: 40)]
        }
        #expect(ContactParser(fallbackRegion: "SE").parse(lines: card("VD", confidence: 0.6)).title == "VD")
        #expect(!PeopleExtractor.isReadable(CardLine(text: "QX", confidence: 0.6, index: 0)))
        #expect(!PeopleExtractor.isReadable(CardLine(text: "VD", confidence: 0.45, index: 0)))
    }

    @Test func namesKeepTheirLettersAndParticles() {
        for name in ["Søren Kierkegaard", "Łukasz Wójcik", "Émile Zola-Dupont", "Siti Aminah binte Yusof", "María de la Vega"] {
            #expect(ContactParser().parse(text: "\(name)\nProject Manager\nAcme GmbH").name?.full == name, "\(name)")
        }
    }

    @Test func aNameAndACompanyReadAsOneLineAreTakenApart() {
        let c = ContactParser().parse(text: "CÄCILIA HEUSER SÜSSEBIER KG\nProjektleiter\ninfo@suessebier.de")
        #expect(c.name?.full == "CÄCILIA HEUSER")
        #expect(c.organization == "SÜSSEBIER KG")
    }

    @Test func aNameWordOCRMisreadIsSpelledAsTheEmailSpellsIt() {
        let c = ContactParser().parse(text: "Gualtieri SPA\nPriscilla Colina\npcollina@gualtieri.it\ngualtieri.it")
        #expect(c.name?.full == "Priscilla Collina")
    }

    /// OCR misreads the e-mail as often as the name: a name word the name lists know keeps its
    /// spelling beside a local part one slip away that they do not know.
    @Test func aListedNameWordKeepsItsSpellingBesideAMisreadEmail() {
        let c = ContactParser().parse(text: "Paul Richardson\nSales Manager\npaul.richardsom@acme-tools.com\nAcme Tools Ltd")
        #expect(c.name?.full == "Paul Richardson")
        #expect(PersonNames.isListed("RICHARDSON") && !PersonNames.isListed("richardsom"))
    }

    @Test func titlesInManyLanguages() {
        for title in ["Ekonomichef", "Responsable de Compras", "Direttore Tecnico", "Geschäftsführer", "Toimitusjohtaja",
                      "Directrice générale", "Kierownik Projektu"] {
            #expect(ContactParser().parse(text: "Anna Berg\n\(title)\nAcme AB").title == title, "\(title)")
        }
    }

    @Test func labelsNeverLeakIntoValues() {
        let c = ContactParser(fallbackRegion: "DE").parse(text: "E-Mail:info@x-firma.de\nWeb: www.x-firma.de\nTel.:030 2345 6789\n™ harish@misra.co.in")
        #expect(c.emails == ["info@x-firma.de", "harish@misra.co.in"])
        #expect(c.urls == ["www.x-firma.de"])
        #expect(c.phones.first?.number == "030 2345 6789")
    }

    @Test func domainsOCRBrokeAreRepairedOnlyIntoRealOnes() {
        let c = ContactParser().parse(text: "jun@nipponprecision.cojp\nhttps://kansaiprecision.co jp\ninfo@simlow.comsg\nhetps://liebelt.com")
        #expect(c.emails == ["jun@nipponprecision.co.jp", "info@simlow.com.sg"])
        #expect(c.urls == ["https://kansaiprecision.co.jp", "https://liebelt.com"])
        // Not a domain at all: nothing.
        #expect(ContactParser().parse(text: "Meet me at the.fair").urls.isEmpty)
    }

    /// A two-label suffix whose labels OCR set apart with a comma, a dot and a space, or spaces
    /// alone, is one suffix; a word after a complete domain is not part of it.
    @Test func aSuffixSplitByOCRIsJoinedIntoTheLongerSuffix() {
        #expect(ContactParser().parse(text: "jun.rei@nipponrei,co. kr").emails == ["jun.rei@nipponrei.co.kr"])
        #expect(ContactParser().parse(text: "jun@nipponrei co kr").emails == ["jun@nipponrei.co.kr"])
        #expect(ContactParser().parse(text: "jun@nipponrei.co uk").emails == ["jun@nipponrei.co.uk"])
        #expect(ContactParser().parse(text: "jun@nipponrei.com and more").emails == ["jun@nipponrei.com"])
        // A two-letter word after the domain is a label only where it ends the line.
        #expect(ContactParser().parse(text: "jun@nipponrei, com in Tokyo").emails == ["jun@nipponrei.com"])
    }

    /// A local part never starts with a dot: a bar or a cent sign before one is the initial OCR misread.
    @Test func anInitialReadAsASignIsALetter() {
        #expect(ContactParser().parse(text: "|.rei@nipponrei.com.tw").emails == ["l.rei@nipponrei.com.tw"])
        #expect(ContactParser().parse(text: "¢.rei@nipponrei.com.tw").emails == ["c.rei@nipponrei.com.tw"])
        #expect(ContactParser().parse(text: "Tel 1234 | rei@nipponrei.com").emails == ["rei@nipponrei.com"])
        // Inside a line, after a label; not after a letter.
        #expect(ContactParser().parse(text: "E: |.rei@nipponrei.com.tw").emails == ["l.rei@nipponrei.com.tw"])
        #expect(ContactParser().parse(text: "x|.rei@nipponrei.com.tw").emails == ["rei@nipponrei.com.tw"])
    }
}

@Suite struct WebAddressSlipTests {
    /// "www" with a letter lost, doubled or turned is written as printed; a two-label host is not touched.
    @Test func wwwAsOCRReadsItIsMended() {
        #expect(URLExtractor.mendWWW("ww.lojadoze.com.br") == "www.lojadoze.com.br")
        #expect(URLExtractor.mendWWW("wwww.example.org") == "www.example.org")
        #expect(URLExtractor.mendWWW("https://vww.acme.co.uk/about") == "https://www.acme.co.uk/about")
        #expect(URLExtractor.mendWWW("ww.com") == "ww.com")
        #expect(URLExtractor.mendWWW("wave.example.com") == "wave.example.com")
    }

    /// The second slash of a scheme read as a letter glued to "www" ("https:/Awww.", "https:/Mwww.")
    /// is no part of the host; a host that is such a label itself, or one read without a scheme,
    /// stays as read.
    @Test func aSchemesSlashReadAsALetterIsDropped() {
        #expect(URLExtractor.mendWWW("https://awww.fennick.co.uk") == "https://www.fennick.co.uk")
        #expect(URLExtractor.mendWWW("https://mwww.fennick.cz/kontakt") == "https://www.fennick.cz/kontakt")
        #expect(URLExtractor.mendWWW("https://avww.fennick.dk") == "https://www.fennick.dk")
        #expect(URLExtractor.mendWWW("https://awww.com") == "https://awww.com")
        #expect(URLExtractor.mendWWW("awww.fennick.com") == "awww.fennick.com")
        let card = ContactParser().parse(text: "Ida Fennick\nE: ida@fennick.dk\nW: https:/Awww.fennick.dk")
        #expect(card.urls == ["https://www.fennick.dk"])
        #expect(ContactParser().parse(text: "Web https:/Mwww.orlova-fennick.cz").urls == ["https://www.orlova-fennick.cz"])
    }
    /// A space OCR set inside an e-mail's domain name, before the rest of the name and its
    /// suffix, stood for nothing ("quill catering.hu" is quillcatering.hu); before a suffix alone
    /// it stood for a dot ("quill com", "quill co.uk").
    @Test func aSpaceInsideAnEmailDomainNameIsJoinedWithoutADot() {
        #expect(ContactParser().parse(text: "Mara Quill\nE-mail: mara@quill catering.hu").emails == ["mara@quillcatering.hu"])
        #expect(ContactParser().parse(text: "Mara Quill\nmara@quillcat ering.it").emails == ["mara@quillcatering.it"])
        #expect(ContactParser().parse(text: "Mara Quill\nmara@quill com").emails == ["mara@quill.com"])
        #expect(ContactParser().parse(text: "Mara Quill\nmara@quillcatering co.uk").emails == ["mara@quillcatering.co.uk"])
        #expect(EmailExtractor.separator(before: "tering.hu", after: "quillca") == "")
        #expect(EmailExtractor.separator(before: "co.uk", after: "quill") == ".")
        #expect(EmailExtractor.separator(before: "com", after: "quill") == ".")
        #expect(EmailExtractor.separator(before: "co.uk", after: "quill.") == "")
    }

    /// A web address OCR split at a space is joined again; a label "www" before an address, or
    /// an address after one, is not joined to it.
    @Test func aWebAddressSplitAtASpaceIsJoined() {
        #expect(ContactParser().parse(text: "Tomas Quill\nWeb: http://www.quillgonza lez.com.ar").urls == ["http://www.quillgonzalez.com.ar"])
        #expect(ContactParser().parse(text: "Tomas Quill\nhttp://ww w.quillreeves.gr").urls == ["http://www.quillreeves.gr"])
        #expect(ContactParser().parse(text: "Tomas Quill\nwww | quillreeves.at").urls == ["quillreeves.at"])
        #expect(URLExtractor.joiningSplitHosts(["www.quill", "com"]) == ["www.quill", "com"])
        #expect(URLExtractor.joiningSplitHosts(["www.quill", "co.uk"]) == ["www.quill", "co.uk"])
        #expect(URLExtractor.joiningSplitHosts(["www.quill", "reeves.co.uk"]) == ["www.quillreeves.co.uk"])
        #expect(URLExtractor.joiningSplitHosts(["www", "https://quill.com"]) == ["www", "https://quill.com"])
        #expect(URLExtractor.joiningSplitHosts(["www.quill.com", "today"]) == ["www.quill.com", "today"])
    }

    /// A label glued before "www." by a dot ("Site. www.acme.com" read as one token) is no part
    /// of the host: "www" is only ever a host's first label.
    @Test func aLabelGluedBeforeWWWIsDropped() {
        #expect(ContactParser().parse(text: "Tomas Quill\nWebsite. www.quillreeves.com").urls == ["www.quillreeves.com"])
        #expect(URLExtractor.withoutGluedLabel("site.www.quill.com.sg") == "www.quill.com.sg")
        #expect(URLExtractor.withoutGluedLabel("https://site.www.quill.com") == "https://site.www.quill.com")
        #expect(URLExtractor.withoutGluedLabel("www.quill.com") == "www.quill.com")
    }
    /// A registered or copyright mark OCR read for the "@" of an address is the "@" when a real
    /// domain follows; a mark beside a brand's name stays as it is.
    @Test func aMarkReadForTheAtIsTheAt() {
        #expect(ContactParser().parse(text: "Mara Quill\nEmail : mara®quillreeves.com.tr").emails == ["mara@quillreeves.com.tr"])
        #expect(ContactParser().parse(text: "Mara Quill\ninfo©quillreeves.de").emails == ["info@quillreeves.de"])
        #expect(EmailExtractor.withMarkReadForAt("Quill® Tools") == "Quill® Tools")
        #expect(EmailExtractor.withMarkReadForAt("mara@quill.com ©2024") == "mara@quill.com ©2024")
    }

    /// "m" read as "rn" in a domain's top-level label ("acme.corn") is mended.
    @Test func anMReadAsRNInTheTopLevelLabelIsMended() {
        #expect(Domains.repair("quillreeves.corn") == "quillreeves.com")
        #expect(ContactParser().parse(text: "Mara Quill\nMAIL: office@quillreeves.corn").emails == ["office@quillreeves.com"])
    }
}
