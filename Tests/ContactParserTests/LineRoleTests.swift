import Testing
@testable import ContactParser

/// The line-role model and what the parser does with it, on made-up cards.
@Suite struct LineRoleTests {
    /// A card's lines with their type sizes, top to bottom.
    static func card(_ lines: [(String, Double)]) -> [TextLine] {
        var top = 40.0
        return lines.map { text, height in
            defer { top += height * 1.6 }
            return TextLine(text: text, confidence: 0.93, height: height, top: top, left: 60)
        }
    }

    @Test func hashesAreFNV1a() {
        // The published FNV-1a 64-bit test vectors; scripts/train_roles.py computes the same.
        #expect(HashedTable.hash("") == 0xcbf2_9ce4_8422_2325)
        #expect(HashedTable.hash("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(HashedTable.hash("foobar") == 0x8594_4171_f739_67e8)
    }

    @Test func theShippedWeightsAreRead() {
        let model = LineRoleModel.shared
        #expect(model.table.keys.count > 10_000)
        #expect(model.weights.count == model.table.keys.count)
        #expect(zip(model.table.keys, model.table.keys.dropFirst()).allSatisfy { $0 < $1 })
        let p = model.probabilities(["bias", "nameshape", "list:first=given", "list:last=family"])
        #expect(abs(p.reduce(0, +) - 1) < 1e-9)
        #expect(p[LineRole.name.rawValue] > p[LineRole.title.rawValue])
        #expect(PersonNames.given.keys.count > 5_000 && PersonNames.family.keys.count > 5_000)
    }

    @Test func aShopWithoutAPersonHasItsNameInLargeType() {
        let lines = Self.card([("Bakery Ostrowski", 70), ("fresh bread - cakes - coffee", 20), ("Mon - Sat 7:00 - 18:00", 18),
                               ("Tel 030 4456 7780", 20), ("Kirchweg 12", 18), ("10115 Berlin", 18)])
        let c = ContactParser(fallbackRegion: "DE").parse(lines: lines)
        #expect(c.organization == "Bakery Ostrowski")
        #expect(c.name == nil)
        #expect(c.title == nil)
    }

    @Test func aTitlePrintedAboveTheNameIsTheTitle() {
        let lines = Self.card([("Northwind Freight Ltd", 30), ("Chief Operating Officer", 18), ("Amelia Hartwell", 34),
                               ("amelia.hartwell@northwindfreight.co.uk", 16)])
        let c = ContactParser(fallbackRegion: "GB").parse(lines: lines)
        #expect(c.name?.full == "Amelia Hartwell")
        #expect(c.title == "Chief Operating Officer")
        #expect(c.organization == "Northwind Freight Ltd")
    }

    @Test func aTitleWithItsDepartmentIsOneTitle() {
        let lines = Self.card([("Kenji Morimoto", 34), ("General Manager, Overseas Sales Division", 18),
                               ("Tsubame Precision Japan Inc.", 24), ("morimoto@tsubame-precision.co.jp", 16)])
        let c = ContactParser(fallbackRegion: "JP").parse(lines: lines)
        #expect(c.title == "General Manager, Overseas Sales Division")
        #expect(c.organization == "Tsubame Precision Japan Inc.")  // never cut at the country's name
        // A domain's hyphens part words as the line's spaces do.
        #expect(PeopleExtractor.agreesWithDomain("Tsubame Precision Japan Inc.", labels: ["tsubame-precision"]))
        #expect(!PeopleExtractor.agreesWithDomain("Overseas Sales Division", labels: ["tsubame-precision"]))
    }

    @Test func aLabelledLineIsNeverTheOrganization() {
        let lines = Self.card([("Lukas Brenner", 32), ("E-Mail: lukas@brenner-bau.at", 16), ("Telefon", 16),
                               ("+43 1 234 5678", 16), ("Brenner Bau GmbH", 26)])
        let c = ContactParser(fallbackRegion: "AT").parse(lines: lines)
        #expect(c.organization == "Brenner Bau GmbH")
        #expect(c.phones.first?.type == .work)
    }

    @Test func aFirstNameBesideItsNumberIsTheName() {
        let lines = Self.card([("Greenleaf Landscaping", 48), ("lawns - hedges - patios", 18), ("PETER 555-201-7734", 20)])
        let c = ContactParser(fallbackRegion: "US").parse(lines: lines)
        #expect(c.name?.full == "PETER")
        #expect(c.organization == "Greenleaf Landscaping")
        #expect(c.phones.count == 1)
    }

    /// Look-alike marks in a name's words become the letters the name lists confirm; a word the
    /// lists do not know stays as read.
    @Test func lookAlikeMarksInANameAreMendedByTheNameLists() {
        #expect(NameMending.mend("Samue! Okafor") == "Samuel Okafor")
        #expect(NameMending.mend("Isabe! Okafor") == "Isabel Okafor")
        #expect(NameMending.mend("MAR1A LOPES") == "MARIA LOPES")
        #expect(NameMending.mend("Zq1x Okafor") == "Zq1x Okafor")
        #expect(NameMending.mend("Suite 12") == "Suite 12")
    }
}
