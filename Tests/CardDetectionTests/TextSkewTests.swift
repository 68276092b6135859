import Foundation
import ImageIngest
import Testing
@testable import CardDetection

@Suite struct TextSkewTests {
    /// A made-up card: rows of dark word blocks on a light ground, rising to the right by
    /// `slant` degrees (drawn so, not turned), within a margin that keeps them on the card.
    static func rows(width: Int = 900, height: Int = 540, slant: Double = 0) -> PixelImage {
        var image = PixelImage(width: width, height: height, channels: 1, fill: 235)
        let rise = tan(slant * .pi / 180)
        let margin = Int(abs(rise) * Double(width)) + 40
        var y = margin
        var row = 0
        while y + 18 < height - margin {
            var x = 50 + (row % 3) * 20
            var word = row
            while x < width - 80 {
                let length = 40 + (word * 37) % 90
                for xx in x..<min(x + length, width - 50) {
                    let top = y - Int((Double(xx) - Double(width) / 2) * rise)
                    for yy in top..<(top + 16) where yy >= 0 && yy < height { image.pixels[yy * width + xx] = 30 }
                }
                x += length + 18
                word += 1
            }
            y += 40
            row += 1
        }
        return image
    }

    @Test func printDrawnSlantedGivesItsSlantAndLevelledGivesNone() throws {
        // Drawn rising (not turned by `levelled`), so the measure and the turn are checked apart;
        // a tall card with steep print reaches the ends of the projection's range.
        for (width, height, slant) in [(900, 540, 10.0), (540, 900, 18.0), (540, 900, -18.0)] {
            let image = Self.rows(width: width, height: height, slant: slant)
            let first = try #require(TextSkew.partSlants(of: image).first, "\(slant)")
            #expect(abs(first - slant) <= 1, "\(slant): \(first)")
            let again = TextSkew.partSlants(of: TextSkew.levelled(image, degrees: first))
            #expect(!again.contains { abs($0 - slant) <= 2 }, "\(slant): \(again)")
        }
    }

    @Test func printSlantedByADozenDegreesGivesItsSlant() throws {
        // Levelling by -12 slants level rows by +12 (rising to the right).
        let slanted = TextSkew.levelled(Self.rows(), degrees: -12)
        let slants = TextSkew.partSlants(of: slanted)
        let first = try #require(slants.first)
        #expect(abs(first - 12) <= 1, "\(slants)")
        let down = TextSkew.partSlants(of: TextSkew.levelled(Self.rows(), degrees: 9))
        #expect(abs((down.first ?? 0) + 9) <= 1, "\(down)")
    }

    @Test func levelPrintAndLevelledPrintGiveNoSlant() {
        #expect(TextSkew.partSlants(of: Self.rows()).isEmpty)
        let slanted = TextSkew.levelled(Self.rows(), degrees: -12)
        let again = TextSkew.partSlants(of: TextSkew.levelled(slanted, degrees: 12))
        #expect(!again.contains { abs($0) >= 4 }, "\(again)")
        // A blank card has no print to slant.
        #expect(TextSkew.partSlants(of: PixelImage(width: 600, height: 400, channels: 1, fill: 200)).isEmpty)
    }

    @Test func slantsBeyondTheRangeAreNotGuessed() {
        // Print turned by more than the range looked in gives no slant at the range's end.
        let steep = TextSkew.levelled(Self.rows(), degrees: -Double(TextSkew.maxDegrees + 12))
        #expect(!TextSkew.partSlants(of: steep).contains { abs($0) == Double(TextSkew.maxDegrees) })
    }

    @Test func levellingGrowsTheCanvasAndFillsItWithTheBorderColour() {
        let image = Self.rows(width: 400, height: 200)
        let turned = TextSkew.levelled(image, degrees: 10)
        let a = 10 * Double.pi / 180
        #expect(turned.width == Int((400 * cos(a) + 200 * sin(a)).rounded(.up)))
        #expect(turned.height == Int((400 * sin(a) + 200 * cos(a)).rounded(.up)))
        #expect(turned.pixels[0] == 235)
        // A colour card turns as its gray does: each channel's pixels go where the gray's go.
        let gray = Self.rows(width: 300, height: 200, slant: 8)
        var colour = PixelImage(width: 300, height: 200, channels: 3, fill: 0)
        for i in 0..<(300 * 200) { colour.pixels[3 * i] = gray.pixels[i]; colour.pixels[3 * i + 1] = 255 - gray.pixels[i]; colour.pixels[3 * i + 2] = 7 }
        let g = TextSkew.levelled(gray, degrees: 8), c = TextSkew.levelled(colour, degrees: 8)
        #expect(c.channels == 3 && c.width == g.width && c.height == g.height)
        #expect((0..<(g.width * g.height)).allSatisfy { c.pixels[3 * $0] == g.pixels[$0] && c.pixels[3 * $0 + 2] == 7 })
        #expect(TextSkew.levelled(PixelImage(width: 0, height: 20, channels: 1, fill: 0), degrees: 5).pixels.allSatisfy { $0 == 255 })
    }
}
