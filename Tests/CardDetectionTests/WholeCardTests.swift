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

/// A card lying on a printed page: an outline of the card with part of the page has the page's
/// lines of text on both sides of its sides, where the card has its plain margin.
@Suite struct PrintedPageTests {
    /// A page with a line of dashes every 10 pixels over the whole frame, and a plain card
    /// (x 100-280, y 60-170) lying on it with its own few lines in the middle (x 130-250, y 90-140).
    static func picture() -> PixelImage {
        let w = 400, h = 260
        var px = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            for x in 0..<w {
                let onCard = (100..<280).contains(x) && (60..<170).contains(y)
                let printed = y % 10 < 3 && x % 12 < 8
                let v: Int
                if onCard {
                    v = (130..<250).contains(x) && (90..<140).contains(y) && printed ? 50 : 226
                } else {
                    v = printed ? 60 : 238
                }
                for c in 0..<3 { px[(y * w + x) * 3 + c] = UInt8(clamping: v) }
            }
        }
        return PixelImage(width: w, height: h, channels: 3, pixels: px)
    }

    static let card = WholeCardTests.rectangle(100, 60, 280, 170)
    static let cardWithPage = WholeCardTests.rectangle(100, 60, 280, 210)

    @Test func theCardsSidesHaveNoPrintAcrossThem() throws {
        let judge = HypothesisJudge(edges: EdgeMap(Self.picture()))
        let centre = Point(190, 115)
        for i in 0..<4 {
            #expect(judge.printAcross(Self.card[i], Self.card[(i + 1) % 4], centre: centre, depth: 8) < 0.1)
        }
        // The bottom of an outline that takes in part of the page runs through the page's print.
        let bottom = judge.printAcross(Self.cardWithPage[2], Self.cardWithPage[3], centre: Point(190, 135), depth: 8)
        #expect(bottom > 0.5)
        let card = try #require(judge.features(of: Self.card, source: .lines))
        let withPage = try #require(judge.features(of: Self.cardWithPage, source: .lines))
        #expect(card[HypothesisJudge.printAcrossFeature] < withPage[HypothesisJudge.printAcrossFeature])
    }

    /// The card with part of the page judged a little likelier (14) than the card (13.5), as the
    /// judge weighs them on `picture()`.
    static func ranked(_ judge: HypothesisJudge) throws -> [Hypothesis] {
        let card = try #require(judge.features(of: Self.card, source: .lines))
        let withPage = try #require(judge.features(of: Self.cardWithPage, source: .lines))
        return [Hypothesis(corners: Self.cardWithPage, source: .lines, features: withPage, score: 14),
                Hypothesis(corners: Self.card, source: .lines, features: card, score: 13.5)]
    }

    @Test func theCardTakesTheLeadFromTheCardWithThePage() throws {
        let judge = HypothesisJudge(edges: EdgeMap(Self.picture()))
        let ranked = try Self.ranked(judge)
        let card = ranked[1].features
        #expect(CardDetector.preferPlainMargins(ranked, judge: judge).first?.corners == Self.card)
        // Not when the judge would not accept the card's outline, nor for the same outline a few
        // pixels off.
        let unlikely = [ranked[0], Hypothesis(corners: Self.card, source: .lines, features: card, score: CardDetector.acceptLogit - 1)]
        #expect(CardDetector.preferPlainMargins(unlikely, judge: judge).first?.corners == Self.cardWithPage)
        let moved = WholeCardTests.rectangle(100, 60, 280, 214)
        let same = [ranked[0], Hypothesis(corners: moved, source: .lines, features: card, score: 13.5)]
        #expect(CardDetector.preferPlainMargins(same, judge: judge).first?.corners == Self.cardWithPage)
    }
}

/// Another outline nearly as likely as the chosen one, of something else, is its rival: the
/// text read inside each tells them apart (`CardScanner.read`).
@Suite struct RivalOutlineTests {
    static func hypothesis(_ corners: [Point], score: Double, text: Double = 0.2) -> Hypothesis {
        var features = [Double](repeating: 0, count: HypothesisJudge.featureNames.count)
        features[HypothesisJudge.textInsideFeature] = text
        return Hypothesis(corners: corners, source: .lines, features: features, score: score)
    }

    static let card = PrintedPageTests.card, cardWithPage = PrintedPageTests.cardWithPage

    @Test func theNextOutlineOfSomethingElseWithinTheMarginIsTheRival() {
        let best = Self.hypothesis(Self.cardWithPage, score: 14)
        // The same outline a few pixels off is no rival; the card's own outline is.
        let moved = Self.hypothesis(WholeCardTests.rectangle(100, 60, 280, 214), score: 13.9)
        let card = Self.hypothesis(Self.card, score: 14 - CardDetector.rivalMargin + 0.1)
        #expect(CardDetector.rival(in: [best, moved, card])?.corners == Self.card)
    }

    @Test func noRivalBeyondTheMarginUnderTheAcceptedScoreOrWithoutText() {
        let best = Self.hypothesis(Self.cardWithPage, score: 14)
        #expect(CardDetector.rival(in: [best, Self.hypothesis(Self.card, score: 14 - CardDetector.rivalMargin - 0.1)]) == nil)
        #expect(CardDetector.rival(in: [best, Self.hypothesis(Self.card, score: 13.5, text: 0)]) == nil)
        let weak = Self.hypothesis(Self.cardWithPage, score: CardDetector.acceptLogit + 0.2)
        #expect(CardDetector.rival(in: [weak, Self.hypothesis(Self.card, score: CardDetector.acceptLogit - 0.2)]) == nil)
        #expect(CardDetector.rival(in: [best]) == nil)
    }
}

/// An outline of the page's print that beat a card lying on the page by more than the rival
/// margin: the likeliest outline elsewhere in the photo is read when the first holds no contact
/// data (`CardScanner.read`).
@Suite struct OutlineElsewhereTests {
    static func hypothesis(_ corners: [Point], score: Double, text: Double = 0.2, across: Double = 0) -> Hypothesis {
        var h = RivalOutlineTests.hypothesis(corners, score: score, text: text)
        h.features[HypothesisJudge.printAcrossFeature] = across
        return h
    }

    static let page = WholeCardTests.rectangle(20, 20, 200, 130)
    /// Mostly the same part of the photo as `page` (two thirds of their union in common).
    static let pageAgain = WholeCardTests.rectangle(50, 20, 230, 130)
    static let card = WholeCardTests.rectangle(260, 160, 440, 270)

    /// No outline acceptable: the likeliest nearly acceptable one with text inside and plain
    /// margins is the one read when the text region's or the whole frame's reading holds nothing.
    @Test func theNearlyAcceptableOutlineIsKeptForAFoundCardWithoutOne() {
        let near = Self.hypothesis(Self.card, score: CardDetector.acceptLogit - 1)
        let bare = Self.hypothesis(Self.page, score: CardDetector.acceptLogit - 0.5, text: 0)
        let crossed = Self.hypothesis(Self.pageAgain, score: CardDetector.acceptLogit - 0.6, across: 0.5)
        #expect(CardDetector.nearlyAcceptable(in: [bare, crossed, near])?.corners == Self.card)
        #expect(CardDetector.nearlyAcceptable(in: [Self.hypothesis(Self.card, score: CardDetector.elsewhereLogit - 0.1)]) == nil)
        #expect(CardDetector.nearlyAcceptable(in: [bare, crossed]) == nil)
    }

    @Test func theLikeliestOutlineMostlyOutsideTheFirstIsElsewhere() {
        let best = Self.hypothesis(Self.page, score: 15)
        let ranked = [best, Self.hypothesis(Self.pageAgain, score: 14), Self.hypothesis(Self.card, score: CardDetector.elsewhereLogit + 0.1)]
        #expect(CardDetector.elsewhere(in: ranked)?.corners == Self.card)
        // Too far behind, without text, or with print across its sides (a picture on a busy card).
        for other in [Self.hypothesis(Self.card, score: CardDetector.elsewhereLogit - 0.1),
                      Self.hypothesis(Self.card, score: 12, text: 0),
                      Self.hypothesis(Self.card, score: 12, across: CardDetector.elsewherePrintAcross + 0.05)] {
            #expect(CardDetector.elsewhere(in: [best, Self.hypothesis(Self.pageAgain, score: 14), other]) == nil)
        }
    }

    @Test func locateReportsARivalNearlyAsLikelyFirstThenOneElsewhere() throws {
        let best = Self.hypothesis(Self.page, score: 15)
        let elsewhere = Self.hypothesis(Self.card, score: 9)
        let found = try #require(CardDetector.reportedRival(in: [best, elsewhere]))
        #expect(found.hypothesis.corners == Self.card && found.isElsewhere)
        // A rival nearly as likely (here the page's outline shifted: no plain margin asked) comes first.
        let near = try #require(CardDetector.reportedRival(in: [best, elsewhere, Self.hypothesis(Self.pageAgain, score: 14.5)]))
        #expect(near.hypothesis.corners == Self.pageAgain && !near.isElsewhere)
        #expect(CardDetector.reportedRival(in: [best]) == nil)
    }

    @Test func overlapIsTheCommonShareOfTheUnion() {
        #expect(abs(QuadGeometry.overlap(Self.page, Self.page) - 1) < 0.01)
        #expect(QuadGeometry.overlap(Self.page, Self.card) == 0)
        // 150 of 210 columns in common (estimated on a grid of points: to 0.1).
        #expect(abs(QuadGeometry.overlap(Self.page, Self.pageAgain) - 150.0 / 210) < 0.1)
        // A band of a quarter of the card inside it.
        let band = WholeCardTests.rectangle(260, 160, 440, 187.5)
        #expect(abs(QuadGeometry.overlap(Self.card, band) - 0.25) < 0.05)
    }
}

/// A card lying on a page whose running text lies wholly inside an outline of the card with part
/// of the page (its sides cross no print): the dense print it takes in tells it from the card.
@Suite struct DensePrintTests {
    /// A plain card (x 100-280, y 20-130) with two short lines of its own (dash lines at y 40
    /// and 60, x 130-250) on a plain page; when `runningText`, a block of the page's
    /// text below it (a dash line every 6 pixels, x 112-268, y 138-238).
    static func picture(runningText: Bool) -> PixelImage {
        let w = 400, h = 260
        var px = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            for x in 0..<w {
                let v: Int
                if (100..<280).contains(x) && (20..<130).contains(y) {
                    v = (130..<250).contains(x) && (40..<63).contains(y) && y % 20 < 3 && x % 12 < 8 ? 50 : 226
                } else {
                    v = runningText && (112..<268).contains(x) && (138..<238).contains(y) && y % 6 < 2 && x % 5 < 3 ? 60 : 238
                }
                for c in 0..<3 { px[(y * w + x) * 3 + c] = UInt8(clamping: v) }
            }
        }
        return PixelImage(width: w, height: h, channels: 3, pixels: px)
    }

    static let card = WholeCardTests.rectangle(100, 20, 280, 130)
    static let cardWithPage = WholeCardTests.rectangle(100, 20, 280, 250)

    static func ranked(_ judge: HypothesisJudge) throws -> [Hypothesis] {
        let card = try #require(judge.features(of: Self.card, source: .lines))
        let withPage = try #require(judge.features(of: Self.cardWithPage, source: .lines))
        return [Hypothesis(corners: Self.cardWithPage, source: .lines, features: withPage, score: 14),
                Hypothesis(corners: Self.card, source: .lines, features: card, score: 13.5)]
    }

    @Test func theCardTakesTheLeadFromAnOutlineTakingInThePagesText() throws {
        let judge = HypothesisJudge(edges: EdgeMap(Self.picture(runningText: true)))
        let density = judge.printDensity()
        let share = { density.denseShare($0) }
        #expect(share(Self.card) <= CardDetector.densePrintAllowed)
        #expect(share(Self.cardWithPage) > CardDetector.densePrintAllowed + 0.1)
        let ranked = try Self.ranked(judge)
        // No side of either outline runs through print: only the dense print tells them apart.
        #expect(ranked.allSatisfy { $0.features[HypothesisJudge.printAcrossFeature] < 0.1 })
        #expect(CardDetector.preferPlainMargins(ranked, judge: judge).first?.corners == Self.card)
    }

    @Test func theDensityIsTheShareOfDetailInTheSquareAroundAPoint() {
        let judge = HypothesisJudge(edges: EdgeMap(Self.picture(runningText: true)))
        let density = judge.printDensity()
        let w = judge.edges.width, h = judge.edges.height, r = PrintDensity.radius
        // Inside, at the borders and in the corners, where the square is cut by the photo's edges.
        for (x, y) in [(190, 190), (0, 0), (w - 1, h - 1), (3, 150), (200, h - 2), (120, 140)] {
            var on = 0, n = 0
            for yy in max(0, y - r)...min(h - 1, y + r) {
                for xx in max(0, x - r)...min(w - 1, x + r) {
                    n += 1
                    on += Int(judge.detail[yy * w + xx])
                }
            }
            #expect(density.density(x: x, y: y) == Double(on) / Double(n))
        }
        #expect(density.density(x: 190, y: 190) > PrintDensity.dense)
        #expect(density.density(x: 190, y: 100) == 0)
    }

    @Test func withoutThePagesTextTheJudgesRankingStands() throws {
        let judge = HypothesisJudge(edges: EdgeMap(Self.picture(runningText: false)))
        #expect(CardDetector.preferPlainMargins(try Self.ranked(judge), judge: judge).first?.corners == Self.cardWithPage)
    }
}
