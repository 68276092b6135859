import ImageIngest
import TestSupport
import Testing
@testable import CardDetection

/// A card one of whose sides makes no line: it lies at the edge of a printed page as light as
/// it is, that side lost in the page's print, its other three sides clear against the desk.
/// Three lines and a card's proportions close its outline (`LineQuads.completed`).
@Suite struct CompletedOutlineTests {
    static let width = 420, height = 260
    /// The card: x 150-330, y 70-184 (a card's proportions, 1.58).
    static let card = (x0: 150, y0: 70, x1: 330, y1: 184)

    /// A dark grained desk; a page (the left of the photo, to x = 160) printed with rows of
    /// dashes, as light as the card; the card over the page's right edge, with three rows of its
    /// own print.
    static func picture() -> PixelImage {
        let w = width, h = height, c = card
        var g = SeededGenerator(state: 5)
        var px = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            for x in 0..<w {
                let onCard = (c.x0..<c.x1).contains(x) && (c.y0..<c.y1).contains(y)
                let printed = y % 12 < 3 && x % 11 < 7
                var v: Int
                if onCard {
                    let u = x - c.x0, r = y - c.y0
                    v = (20..<150).contains(u) && [30, 50, 70].contains(where: { (($0)..<($0 + 6)).contains(r) }) && x % 9 < 6 ? 40 : 236
                } else if x < 160 {
                    v = printed ? 70 : 236
                } else {
                    v = 70 + Int.random(in: 0...10, using: &g)
                }
                for k in 0..<3 { px[(y * w + x) * 3 + k] = UInt8(clamping: v) }
            }
        }
        return PixelImage(width: w, height: h, channels: 3, pixels: px)
    }

    static var cardCorners: [[Double]] {
        let c = card
        return [[Double(c.x0), Double(c.y0)], [Double(c.x1), Double(c.y0)], [Double(c.x1), Double(c.y1)], [Double(c.x0), Double(c.y1)]]
    }

    static func bestOverlap(_ quads: [[Point]]) -> Double {
        quads.map { q in overlap(q.map { [$0.x, $0.y] }, cardCorners, width: Double(width), height: Double(height)) }.max() ?? 0
    }

    /// No four lines make the card: its side on the page is no line.
    @Test func fourLinesMissTheCard() {
        let edges = EdgeMap(Self.picture())
        #expect(Self.bestOverlap(LineQuads.proposals(in: edges, completedKeep: 0).map(\.corners)) < 0.85)
    }

    /// Three lines closed by a card's proportions do, and are proposed as such.
    @Test func threeLinesAndACardsProportionsMakeIt() {
        let edges = EdgeMap(Self.picture())
        let completed = LineQuads.proposals(in: edges).filter { $0.source == .completed }.map(\.corners)
        #expect(Self.bestOverlap(completed) >= 0.9)
    }

    /// Among all proposals, the judge takes the card: not the card with the page, not the page.
    @Test func theCardIsFound() throws {
        let location = CardDetector.locate(in: Self.picture())
        #expect(location.method == .outline)
        let quad = try #require(location.quad)
        let corners = quad.corners.map { [$0.x * Double(Self.width), $0.y * Double(Self.height)] }
        let iou = overlap(corners, Self.cardCorners, width: Double(Self.width), height: Double(Self.height))
        #expect(iou >= 0.85, "the outline overlaps the card by \(iou)")
    }
}
