import CardFormats
import ContactParser
import Foundation
import Testing

/// The review page from its cards: worst first, every value escaped, nothing fetched.
@Suite struct ReportPageTests {
    static func card(_ source: String, confidence: Double?, name: String = "Ana Ruiz") -> ReportPage.Card {
        var c = Contact()
        c.name = PersonName(full: name, given: nil, family: nil)
        c.confidence[.name] = confidence ?? 0
        var card = ReportPage.Card(source: source, contact: c)
        card.sources = [.name: "ocr"]
        return card
    }

    /// Errors and photos without a card first (in batch order), then the least sure.
    @Test func cardsAreListedWorstFirstWithTheirState() throws {
        var noCard = ReportPage.Card(source: "blank.jpg")
        noCard.noCard = true
        var pictured = Self.card("sure.jpg", confidence: 0.95)
        pictured.picture = CardPicture(jpeg: [0xFF, 0xD8, 0xFF, 0xD9], width: 800, height: 457)
        pictured.bookID = 12
        pictured.detection = ["Card found by its outline (confidence 0.91)", "photo 4032×3024"]
        let failed = ReportPage.Card(source: "broken.jpg", error: .init(code: "decode-failed", message: "broken.jpg: not an image"))
        let cards = [pictured, Self.card("unsure.jpg", confidence: 0.3), noCard, failed]
        let html = ReportPage.render(cards, summary: .init(elapsed: .seconds(2)))
        #expect(html.hasPrefix(ReportPage.signature))
        let order = ["blank.jpg", "broken.jpg", "unsure.jpg", "sure.jpg"].compactMap { html.range(of: ">\($0)</h2>")?.lowerBound }
        #expect(order.count == 4 && order == order.sorted())
        #expect(html.contains("<strong>Error (decode-failed):</strong> broken.jpg: not an image"))
        #expect(html.contains("<strong>No card:</strong>"))
        #expect(html.contains("<tr><th scope=\"row\">Cards</th><td>4</td></tr>") && html.contains("<th scope=\"row\">Read</th><td>2</td>"))
        #expect(html.contains("<img src=\"data:image/jpeg;base64,/9j/2Q==\" width=\"800\" height=\"457\""))
        #expect(html.contains("Book ID 12: <code>cardscan contacts edit 12 field=value</code>"))
        #expect(html.contains("<p class=\"detection\">Card found by its outline (confidence 0.91); photo 4032×3024</p>"))
        #expect(html.contains("<tr class=\"low\"><th scope=\"row\">Name</th><td>Ana Ruiz</td><td>0.30 <span class=\"flag\">check</span></td>"))
        #expect(ReportPage.badness(failed) == 2 && ReportPage.badness(noCard) == 2)
    }

    @Test func everyValueIsEscaped() {
        var card = Self.card("<img src=x>.jpg", confidence: 0.9, name: "<script>alert('x')</script> & \"co\"")
        card.warnings = ["<b>"]
        let html = ReportPage.render([card], summary: .init(elapsed: .zero))
        #expect(!html.contains("<script") && !html.contains("<img src=x>") && !html.contains("<b>"))
        #expect(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;co&quot;"))
        #expect(html.contains("content=\"default-src 'none'; img-src data:; style-src 'unsafe-inline'\""))
    }
}
