import ImageIngest
import TestSupport
import Testing
@testable import CardDetection

/// A larger outline that shares three sides with the best one takes over only when its sides run
/// on along edges: a card's coloured band does; the desk beside a card does not.
@Suite struct WholeCardTests {
    /// A light card (x 60-240, y 60-170) on a grained desk whose tone changes at x = 330 (a
    /// shadow's or a page's edge, which closes the card's top and bottom lines into a larger
    /// outline), with a red band across the card's right end when `band`.
    static func picture(band: Bool) -> PixelImage {
        let w = 400, h = 240
        var g = SeededGenerator(state: 7)
        var px = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            for x in 0..<w {
                let onCard = (60..<240).contains(x) && (60..<170).contains(y)
                var rgb: (Int, Int, Int)
                if onCard {
                    rgb = band && x >= 190 ? (200, 40, 45) : (228, 226, 220)
                } else {
                    let desk = (x < 330 ? 80 : 120) + Int.random(in: 0...12, using: &g)
                    rgb = (desk, desk - 6, desk - 12)
                }
                px[(y * w + x) * 3] = UInt8(clamping: rgb.0)
                px[(y * w + x) * 3 + 1] = UInt8(clamping: rgb.1)
                px[(y * w + x) * 3 + 2] = UInt8(clamping: rgb.2)
            }
        }
        return PixelImage(width: w, height: h, channels: 3, pixels: px)
    }

    static func rectangle(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> [Point] {
        [Point(x0, y0), Point(x1, y0), Point(x1, y1), Point(x0, y1)]
    }

    @Test func aBandsCardRunsOnAlongItsOwnEdges() {
        let judge = HypothesisJudge(edges: EdgeMap(Self.picture(band: true)))
        let body = Self.rectangle(60, 60, 190, 170), card = Self.rectangle(60, 60, 240, 170)
        let support = CardDetector.extensionSupport(from: body, to: card, judge: judge)
        #expect(support >= 0.9)
        #expect(support >= CardDetector.minimumExtensionSupport)
    }

    @Test func theDeskBesideACardIsNoPartOfIt() {
        let judge = HypothesisJudge(edges: EdgeMap(Self.picture(band: false)))
        let card = Self.rectangle(60, 60, 240, 170), withDesk = Self.rectangle(60, 60, 330, 170)
        let support = CardDetector.extensionSupport(from: card, to: withDesk, judge: judge)
        #expect(support <= 0.2)
        #expect(support < CardDetector.minimumExtensionSupport)
        // Whatever the order of the corners: nothing added, nothing to judge.
        #expect(CardDetector.extensionSupport(from: card, to: Array(card.reversed()), judge: judge) == 1)
    }
}
