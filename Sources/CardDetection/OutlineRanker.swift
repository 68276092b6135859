import Foundation

/// Picks the card among a photo's judged outlines with weights learned from photos with known
/// card outlines (`scripts/fit_ranker.py`). The judge (`HypothesisJudge`) weighs each outline on
/// its own evidence; this model weighs each against the others of the same photo: a network with
/// one hidden layer over the judge's features, its log-odds less the best's and its rank, fitted
/// as a choice among the photo's outlines (a softmax over them) of one that overlaps the card.
enum OutlineRanker {
    /// Inputs per outline: the judge's features after its bias (`HypothesisJudge.featureNames`
    /// 1-14), the log-odds less the likeliest's, and log(1 + rank by log-odds).
    static let inputCount = 16
    static let hiddenCount = 8

    /// The learned choice's value for each outline of `ranked` (nil for one whose features are
    /// not all there).
    static func values(_ ranked: [Hypothesis]) -> [Double?] {
        guard let top = ranked.map(\.score).max() else { return [] }
        let byScore = ranked.indices.sorted { ranked[$0].score > ranked[$1].score || (ranked[$0].score == ranked[$1].score && $0 < $1) }
        var rank = [Int](repeating: 0, count: ranked.count)
        for (r, i) in byScore.enumerated() { rank[i] = r }
        return ranked.indices.map { i in
            let h = ranked[i]
            guard h.features.count >= inputCount - 1 else { return nil }
            let input = Array(h.features[1..<(inputCount - 1)]) + [h.score - top, log1p(Double(rank[i]))]
            return value(input)
        }
    }

    /// The network's output for one outline's inputs.
    static func value(_ input: [Double]) -> Double {
        var hidden = hiddenBias
        for i in 0..<inputCount {
            let x = (input[i] - mean[i]) / scale[i]
            for j in 0..<hiddenCount { hidden[j] += x * inputWeights[i * hiddenCount + j] }
        }
        var out = 0.0
        for j in 0..<hiddenCount { out += tanh(hidden[j]) * outputWeights[j] }
        return out
    }

    /// How much more (in the network's output) the learned choice must value an outline than the
    /// likeliest to put it first.
    static let leadMargin = 1.5
    /// The overlap (intersection over union) from which an outline is the likeliest a few pixels
    /// off: snapping to the card's edges settles those, and the learned choice has no evidence to.
    static let sameOverlap = 0.9
    /// The least share of the likeliest's area the learned choice's outline covers. (On 626
    /// generated photos it was not fitted on, every outline it rightly put first covered 0.42 or
    /// more; a piece of artwork inside a real card's outline, less.)
    static let leastAreaShare = 0.3

    /// `ranked` with the outline the learned choice prefers first, when the judge would accept
    /// it (`CardDetector.acceptLogit`), the choice values it clearly more than the likeliest
    /// (`leadMargin`), and it is another outline (`sameOverlap`) of about the card's size at
    /// least (`leastAreaShare`); as it is when the likeliest is not acceptable (the text region
    /// then stands in for the card).
    static func preferLearned(_ ranked: [Hypothesis]) -> [Hypothesis] {
        guard let first = ranked.first, first.score >= CardDetector.acceptLogit else { return ranked }
        let values = values(ranked)
        guard let firstValue = values[0] else { return ranked }
        var best = 0, bestValue = firstValue
        for (i, v) in values.enumerated() where ranked[i].score >= CardDetector.acceptLogit {
            if let v, v > bestValue { (best, bestValue) = (i, v) }
        }
        guard best != 0, takesLead(ranked[best].corners, value: bestValue, from: first.corners, value: firstValue) else { return ranked }
        var out = ranked
        out.insert(out.remove(at: best), at: 0)
        return out
    }

    /// True when the outline `chosen`, valued `value` by the learned choice, takes the lead from
    /// the likeliest, `first`, valued `firstValue`: by `leadMargin`, another outline
    /// (`sameOverlap`), and at least `leastAreaShare` of its area.
    static func takesLead(_ chosen: [Point], value: Double, from first: [Point], value firstValue: Double) -> Bool {
        value >= firstValue + leadMargin && QuadGeometry.overlap(first, chosen) < sameOverlap
            && QuadGeometry.area(chosen) >= leastAreaShare * QuadGeometry.area(first)
    }
}
