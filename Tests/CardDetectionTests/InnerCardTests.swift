import ImageIngest
import TestSupport
import Testing
@testable import CardDetection

/// An outline that took the page a card lies on: the page, as cut along it, fills the image with
/// rows of print, and the card lies on it, as light as the page, with a faint shadow along its
/// sides and print of its own. Detection run again inside (`CardDetector.inner`) finds the card.
@Suite struct InnerCardTests {
    static let width = 640, height = 900
    /// The card: x 300-540, y 420-572 (a card's proportions, 1.58).
    static let card = (x0: 300, y0: 420, x1: 540, y1: 572)

    /// The page's rows of dashes everywhere but on the card; the card a little lighter, its
    /// shadow a band of gray below and to the right, three rows of its own print.
    static func picture(card: (x0: Int, y0: Int, x1: Int, y1: Int)? = card) -> PixelImage {
        let w = width, h = height, c = card ?? (x0: -20, y0: -20, x1: -10, y1: -10)
        var px = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let onCard = (c.x0..<c.x1).contains(x) && (c.y0..<c.y1).contains(y)
                let shadow = !onCard && (c.x0 + 4..<c.x1 + 5).contains(x) && (c.y0 + 4..<c.y1 + 5).contains(y)
                var v: Int
                if onCard {
                    let u = x - c.x0, r = y - c.y0
                    v = (24..<200).contains(u) && [34, 64, 94].contains(where: { ($0..<($0 + 8)).contains(r) }) && x % 9 < 6 ? 40 : 246
                } else if shadow {
                    v = 170
                } else {
                    v = (40..<600).contains(x) && y % 22 < 6 && x % 13 < 9 ? 60 : 228
                }
                px[y * w + x] = UInt8(clamping: v)
            }
        }
        return PixelImage(width: w, height: h, channels: 1, pixels: px)
    }

    @Test func theCardOnThePageIsFoundInside() throws {
        let inner = try #require(CardDetector.inner(in: Self.picture()))
        let c = Self.card
        let truth = [[Double(c.x0), Double(c.y0)], [Double(c.x1), Double(c.y0)], [Double(c.x1), Double(c.y1)], [Double(c.x0), Double(c.y1)]]
        let found = inner.corners.map { [$0.x * Double(Self.width), $0.y * Double(Self.height)] }
        #expect(overlap(found, truth, width: Double(Self.width), height: Double(Self.height)) >= 0.85)
    }

    /// The page's print alone makes no card: its rows run across any outline drawn through them.
    @Test func aPageWithoutACardHoldsNone() {
        #expect(CardDetector.inner(in: Self.picture(card: nil)) == nil)
    }
}
