import Foundation
import ImageIngest
import Testing
@testable import CardDetection

@Suite struct TextSkewTests {
    /// A made-up card: rows of dark word blocks on a light ground, level.
    static func rows(width: Int = 900, height: Int = 540) -> PixelImage {
        var image = PixelImage(width: width, height: height, channels: 1, fill: 235)
        var y = 60
        var row = 0
        while y + 18 < height - 40 {
            var x = 50 + (row % 3) * 20
            var word = row
            while x < width - 80 {
                let length = 40 + (word * 37) % 90
                for yy in y..<(y + 16) { for xx in x..<min(x + length, width - 50) { image.pixels[yy * width + xx] = 30 } }
                x += length + 18
                word += 1
            }
            y += 40
            row += 1
        }
        return image
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
        #expect(TextSkew.levelled(PixelImage(width: 30, height: 20, channels: 3, fill: 90), degrees: 5).channels == 3)
    }
}
