@testable import CardOCR
import ContactParser
import Testing
@testable import CardScan

/// Whether a card's English reading says it is a Latin card, not to be read again in an East
/// Asian script: made-up readings of a card 1000 wide and 600 tall.
@Suite struct LatinCardTests {
    static func line(_ text: String, top: Int, confidence: Double) -> OCRLine {
        let box = Box(left: 100, top: top, right: 100 + 20 * text.count, bottom: top + 24)
        return OCRLine(words: [OCRWord(text: text, confidence: confidence, box: box)], box: box)
    }

    /// Eight lines read surely; with `unread`, three more of stray letters read unsurely (the
    /// lines of another script English cannot read).
    static func page(unread: Bool) -> OCRPage {
        let sure = ["Director", "Pinewood Logistics", "Tel", "+81-3-1234-5678", "Fax", "+81-3-1234-5679",
                    "k.mori@pinewood.example", "www.pinewood.example"]
        var lines = sure.enumerated().map { line($1, top: 200 + 40 * $0, confidence: 0.95) }
        if unread { lines += ["BRE", "aR", "iyi"].enumerated().map { line($1, top: 40 + 50 * $0, confidence: 0.3) } }
        return OCRPage(lines: lines, width: 1000, height: 600)
    }

    /// English's record: a person and a title read surely, the name at `name` confidence.
    static func english(name: Double) -> Contact {
        var contact = Contact()
        contact.name = PersonName(full: "Kenji Mori", given: "Kenji", family: "Mori")
        contact.title = "Director"
        contact.confidence = [.name: name, .title: 0.95]
        return contact
    }

    @Test func aCardEnglishReadSurelyIsLatin() {
        #expect(CardScanner.isLatinCard(Self.english(name: 0.75), page: Self.page(unread: false)))
    }

    /// Lines English left unread beside a name the e-mail does not confirm: a bilingual card,
    /// whose East Asian name English read as a few Latin letters.
    @Test func unreadLinesBesideAnUnconfirmedNameAreABilingualCard() {
        #expect(!CardScanner.isLatinCard(Self.english(name: 0.75), page: Self.page(unread: true)))
    }

    /// A name read surely and confirmed by the e-mail is the card's person, whatever else English
    /// left unread (a logo, a line of icons).
    @Test func aConfirmedNameIsALatinCardsPersonBesideUnreadLines() {
        #expect(CardScanner.isLatinCard(Self.english(name: 1.0), page: Self.page(unread: true)))
    }
}
