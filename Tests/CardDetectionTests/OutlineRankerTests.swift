import ImageIngest
import Testing
@testable import CardDetection

/// The learned choice among a photo's outlines (`OutlineRanker`, weights from
/// scripts/fit_ranker.py): it moves an acceptable outline to the lead, never an unacceptable one.
@Suite struct OutlineRankerTests {
    @Test func theWeightsFitTheNetwork() {
        #expect(OutlineRanker.mean.count == OutlineRanker.inputCount)
        #expect(OutlineRanker.scale.count == OutlineRanker.inputCount)
        #expect(OutlineRanker.scale.allSatisfy { $0 > 0 })
        #expect(OutlineRanker.inputWeights.count == OutlineRanker.inputCount * OutlineRanker.hiddenCount)
        #expect(OutlineRanker.hiddenBias.count == OutlineRanker.hiddenCount)
        #expect(OutlineRanker.outputWeights.count == OutlineRanker.hiddenCount)
        #expect(HypothesisJudge.featureNames.count == OutlineRanker.inputCount - 1)
    }

    /// A card on a printed page, its outline judged a little less likely than the card with part
    /// of the page (whose sides cut the page's lines): the learned choice takes the card.
    @Test func theCardLeadsTheCardWithThePage() throws {
        let ranked = try PrintedPageTests.ranked(HypothesisJudge(edges: EdgeMap(PrintedPageTests.picture())))
        let card = ranked[1].features, withPage = ranked[0].features
        let values = OutlineRanker.values(ranked)
        #expect(try #require(values[1]) > #require(values[0]))
        #expect(OutlineRanker.preferLearned(ranked).first?.corners == PrintedPageTests.card)
        // Not an outline the judge would not accept, and nothing when the likeliest is not acceptable.
        let unlikely = [ranked[0], Hypothesis(corners: PrintedPageTests.card, source: .lines, features: card, score: CardDetector.acceptLogit - 1)]
        #expect(OutlineRanker.preferLearned(unlikely).first?.corners == PrintedPageTests.cardWithPage)
        let neither = [Hypothesis(corners: PrintedPageTests.cardWithPage, source: .lines, features: withPage, score: CardDetector.acceptLogit - 1),
                       Hypothesis(corners: PrintedPageTests.card, source: .lines, features: card, score: CardDetector.acceptLogit - 2)]
        #expect(OutlineRanker.preferLearned(neither).map(\.corners) == neither.map(\.corners))
    }

    /// The learned choice takes the lead only clearly, for another outline, of about the card's
    /// size at least: not for the likeliest a few pixels off, nor for a piece of artwork inside it.
    @Test func theLeadGoesOnlyClearlyToAnotherOutlineOfACardsSize() {
        let first = WholeCardTests.rectangle(100, 60, 280, 210), card = WholeCardTests.rectangle(100, 60, 280, 170)
        let margin = OutlineRanker.leadMargin
        #expect(OutlineRanker.takesLead(card, value: 1 + margin, from: first, value: 1))
        #expect(!OutlineRanker.takesLead(card, value: 1 + margin - 0.1, from: first, value: 1))
        #expect(!OutlineRanker.takesLead(WholeCardTests.rectangle(102, 61, 281, 212), value: 10, from: first, value: 0))
        #expect(!OutlineRanker.takesLead(WholeCardTests.rectangle(120, 80, 180, 120), value: 10, from: first, value: 0))
        // A larger outline (the card around the page's print the likeliest took) may.
        #expect(OutlineRanker.takesLead(WholeCardTests.rectangle(60, 20, 380, 230), value: 10, from: first, value: 0))
    }

    /// An outline whose features are not all there is never chosen; an empty list stays empty.
    @Test func incompleteEvidenceIsNotChosen() {
        let full = [Double](repeating: 0.5, count: HypothesisJudge.featureNames.count)
        let ranked = [Hypothesis(corners: PrintedPageTests.card, source: .lines, features: full, score: 12),
                      Hypothesis(corners: PrintedPageTests.cardWithPage, source: .lines, features: [1, 1], score: 11)]
        #expect(OutlineRanker.values(ranked)[1] == nil)
        #expect(OutlineRanker.preferLearned(ranked).first?.corners == PrintedPageTests.card)
        #expect(OutlineRanker.preferLearned([]).isEmpty)
    }
}
