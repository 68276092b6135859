import ImageIngest
import Foundation

/// Finds a business card in a photo by weighing hypotheses: card outlines proposed by straight
/// lines (and the frame, for cards cut off by it) and by regions that stand out in colour,
/// brightness or enclosing edges, each judged on the same evidence (see `HypothesisJudge`).
public enum CardDetector {
    /// What detection saw, for the record and for tests.
    public struct Detection: Sendable {
        /// The card's outline, normalised to the preview (0...1), clockwise from the top-left.
        public let quad: Quadrilateral
        /// Share of the photo's area the card covers (0...1).
        public let areaFraction: Double
        /// How sure detection is (0...1).
        public let confidence: Double
    }

    /// Long side of the preview detection works on; the caller decodes at about this size.
    public static let previewLongSide = 640

    /// The best hypothesis must have at least these log-odds to count as the card (measured on
    /// ../shared/eval/wild and generated photos: right outlines score 10-18, wrong ones 6-15).
    public static let acceptLogit = 10.0

    /// How the card was found.
    public enum Method: String, Sendable {
        /// Its outline: four sides (or three and the frame's edge).
        case outline
        /// No outline convinced: the rectangle around its text, with a margin.
        case textRegion = "text-region"
        /// Neither: the whole frame.
        case wholeFrame = "whole-frame"
    }

    /// Where the card is in a preview.
    public struct Location: Sendable {
        public let method: Method
        /// Corners normalised to the preview (0...1), clockwise from the top-left; nil for the whole frame.
        public let quad: Quadrilateral?
        public let confidence: Double
        /// The next most likely outlines, best first, normalised like `quad` (for the debug overlay).
        public let alternatives: [Quadrilateral]
        /// Another outline, of another card or another part of the photo, that the evidence of
        /// edges weighs nearly as likely as `quad` (`rivalMargin`) or, when none is, the likeliest
        /// outline elsewhere in the photo (`rivalIsElsewhere`), normalised like it: the text read
        /// inside each tells them apart.
        public let rival: Quadrilateral?
        /// True when `rival` is not nearly as likely but the likeliest outline elsewhere in the
        /// photo (`CardDetector.elsewhere`): worth a reading only when the card's holds nothing.
        public let rivalIsElsewhere: Bool

        public init(method: Method, quad: Quadrilateral?, confidence: Double, alternatives: [Quadrilateral] = [],
                    rival: Quadrilateral? = nil, rivalIsElsewhere: Bool = false) {
            self.method = method
            self.quad = quad
            self.confidence = confidence
            self.alternatives = alternatives
            self.rival = rival
            self.rivalIsElsewhere = rivalIsElsewhere
        }
    }

    /// How much less likely (in the judge's log-odds) than the chosen outline another may be and
    /// still be read as its rival (`Location.rival`).
    static let rivalMargin = 1.0

    /// The most likely hypothesis after the first that outlines something else (not nearly the
    /// same outline), holds text, and is within `rivalMargin` of the first and acceptable itself.
    static func rival(in ranked: [Hypothesis]) -> Hypothesis? {
        guard let best = ranked.first else { return nil }
        let text = HypothesisJudge.textInsideFeature
        return ranked.dropFirst().first { h in
            h.score >= max(acceptLogit, best.score - rivalMargin) && h.features.count > text && h.features[text] > 0
                && !QuadGeometry.sameOutline(best.corners, h.corners)
        }
    }

    /// The least log-odds of an outline elsewhere (`elsewhere`): below the card's acceptance
    /// (`acceptLogit`), above most outlines of page text and desk.
    static let elsewhereLogit = 7.5

    /// The most print an outline elsewhere (`elsewhere`) may have across its sides
    /// (`HypothesisJudge.printAcross`): a card has its plain margin inside them. (Right outlines
    /// of 468 generated photos: 97% have at most 0.2; outlines through a busy card's artwork or a
    /// page's lines have more.)
    static let elsewherePrintAcross = 0.2

    /// The most likely hypothesis after the first, acceptable or nearly (`elsewhereLogit`), holding
    /// text, with a plain margin inside its sides (`elsewherePrintAcross`), that is mostly another
    /// part of the photo: they overlap by less than half their union (a card around the first's
    /// band, beside the page's print the first took or inside the page the first took with it).
    /// A card on a printed page, its sides faint against the paper, loses to an outline of the
    /// page's print (which holds no contact data) by more than `rivalMargin`.
    static func elsewhere(in ranked: [Hypothesis]) -> Hypothesis? {
        guard let best = ranked.first else { return nil }
        return ranked.dropFirst().first { h in mayLieElsewhere(h) && QuadGeometry.overlap(h.corners, best.corners) < 0.5 }
    }

    /// The tests of an outline found away from the likeliest (`elsewhere`, `inner`): acceptable or
    /// nearly (`elsewhereLogit`), holding text, with a plain margin inside its sides
    /// (`elsewherePrintAcross`).
    static func mayLieElsewhere(_ h: Hypothesis) -> Bool {
        let text = HypothesisJudge.textInsideFeature, across = HypothesisJudge.printAcrossFeature
        return h.score >= elsewhereLogit && h.features.count > across && h.features[text] > 0 && h.features[across] <= elsewherePrintAcross
    }

    /// When no outline convinced (`acceptLogit`), the likeliest that an outline elsewhere would need
    /// to be (`mayLieElsewhere`: nearly acceptable, text inside, a plain margin inside its sides),
    /// reported as the rival of the text region or the whole frame and read when their reading
    /// holds nothing (`CardScanner.read`): a card small in the frame, its sides faint in
    /// glare or against a pale desk, scores just under `acceptLogit`.
    static func nearlyAcceptable(in ranked: [Hypothesis]) -> Hypothesis? { ranked.first(where: mayLieElsewhere) }

    /// Largest share of the image the card found inside an outline (`inner`) may cover: a card
    /// lying on an A4 page covers about a tenth of it; more is the same card outlined again.
    static let innerShare = 0.5

    /// The card inside an outline already found, in `image` (that outline's content, straightened,
    /// for an outline that took the page a card lies on): the likeliest hypothesis that covers at
    /// most `innerShare` of it and that an outline elsewhere would need to be (`elsewhere`:
    /// `elsewhereLogit`, text inside, a plain margin inside its sides), normalised; nil when none is.
    public static func inner(in image: PixelImage) -> Quadrilateral? {
        guard image.width >= 32, image.height >= 32 else { return nil }
        let edges = EdgeMap(image)
        let w = Double(image.width), h = Double(image.height)
        let found = hypotheses(edges: edges, judge: HypothesisJudge(edges: edges)).first { c in
            mayLieElsewhere(c) && QuadGeometry.area(c.corners) <= innerShare * w * h
        }
        return found.map { Quadrilateral(corners: $0.corners.map { Point($0.x / w, $0.y / h) }) }
    }

    /// The rival `locate` reports (`Location.rival`): one nearly as likely (`rival`), else one
    /// elsewhere (`elsewhere`), which says so.
    static func reportedRival(in ranked: [Hypothesis]) -> (hypothesis: Hypothesis, isElsewhere: Bool)? {
        if let near = rival(in: ranked) { return (near, false) }
        return elsewhere(in: ranked).map { ($0, true) }
    }

    /// How many runners-up `Location.alternatives` keeps.
    static let alternativesKept = 6

    /// Finds the card's outline or, failing that, its text; the whole frame when neither is found.
    public static func locate(in preview: PixelImage) -> Location {
        guard preview.width >= 32, preview.height >= 32 else { return Location(method: .wholeFrame, quad: nil, confidence: 0) }
        let edges = EdgeMap(preview)
        let judge = HypothesisJudge(edges: edges)
        let w = Double(preview.width), h = Double(preview.height)
        let ranked = hypotheses(edges: edges, judge: judge)
        func normalised(_ corners: [Point]) -> Quadrilateral { Quadrilateral(corners: corners.map { Point($0.x / w, $0.y / h) }) }
        if let best = ranked.first, best.score >= acceptLogit {
            let other = reportedRival(in: ranked)
            return Location(method: .outline, quad: normalised(best.corners),
                            confidence: 1 / (1 + exp(-(best.score - acceptLogit) / 2)) * 0.5 + 0.5,
                            alternatives: ranked.dropFirst().prefix(alternativesKept).map { normalised($0.corners) },
                            rival: other.map { normalised($0.hypothesis.corners) }, rivalIsElsewhere: other?.isElsewhere ?? false)
        }
        let alternatives = ranked.prefix(alternativesKept).map { normalised($0.corners) }
        let nearly = nearlyAcceptable(in: ranked).map { normalised($0.corners) }
        if let region = TextRegion.find(detail: judge.detail, width: edges.width, height: edges.height) {
            return Location(method: .textRegion, quad: normalised(region.corners), confidence: 0.5 * region.confidence,
                            alternatives: alternatives, rival: nearly, rivalIsElsewhere: nearly != nil)
        }
        return Location(method: .wholeFrame, quad: nil, confidence: 0, alternatives: alternatives, rival: nearly,
                        rivalIsElsewhere: nearly != nil)
    }

    /// Detects the card's outline in an RGB (or gray) preview. Nil when no hypothesis is convincing.
    public static func detect(in preview: PixelImage) -> Detection? {
        let location = locate(in: preview)
        guard location.method == .outline, let quad = location.quad else { return nil }
        return Detection(quad: quad, areaFraction: QuadGeometry.area(quad.corners), confidence: location.confidence)
    }

    /// Every hypothesis with its features and score, best first (for diagnostics and fitting).
    static func hypotheses(in preview: PixelImage) -> [Hypothesis] {
        guard preview.width >= 32, preview.height >= 32 else { return [] }
        let edges = EdgeMap(preview)
        return hypotheses(edges: edges, judge: HypothesisJudge(edges: edges))
    }

    static func hypotheses(edges: EdgeMap, judge: HypothesisJudge) -> [Hypothesis] {
        var out: [Hypothesis] = []
        let proposals = LineQuads.proposals(in: edges)
            + RegionCandidates.find(in: edges).map { (QuadGeometry.orderClockwiseFromTopLeft($0), Hypothesis.Source.region) }
        // Many proposals are the same outline found twice: judge each once (corners to 3 px).
        var seen = Set<[Int]>()
        for (corners, source) in proposals {
            guard seen.insert(corners.flatMap { [Int(($0.x / 3).rounded()), Int(($0.y / 3).rounded())] } + [source == .region ? 1 : 0]).inserted
            else { continue }
            guard let f = judge.features(of: corners, source: source) else { continue }
            out.append(Hypothesis(corners: corners, source: source, features: f, score: judge.logit(f)))
        }
        out.sort { $0.score > $1.score }
        return OutlineRanker.preferLearned(preferPlainMargins(preferWholeCard(out, judge: judge), judge: judge))
    }

    /// A card lying on a printed page offers an outline of the card with part of the page, whose
    /// sides cut through the page's lines of text (print on both sides of a side, where a card has
    /// its plain margin: `HypothesisJudge.printAcross`), and which takes in the page's running
    /// text, denser than a card's few lines (`PrintDensity.denseShare`). Weighed with that
    /// evidence, an outline the judge ranked lower takes the lead: one it would accept, with text
    /// inside (a quarter of the best one's at least), not nearly the same outline
    /// (`QuadGeometry.sameOutline`), and not a band or frame that the best one is the whole card
    /// around (`isWholeCard`, as `preferWholeCard` judges it: a small card's print is dense too).
    static func preferPlainMargins(_ ranked: [Hypothesis], judge: HypothesisJudge) -> [Hypothesis] {
        guard let best = ranked.first else { return ranked }
        let text = HypothesisJudge.textInsideFeature, across = HypothesisJudge.printAcrossFeature
        var density: PrintDensity?
        func weighed(_ h: Hypothesis) -> Double {
            if density == nil { density = judge.printDensity() }
            let dense = density!.denseShare(h.corners)
            return h.score - printAcrossWeight * h.features[across] - densePrintWeight * max(0, dense - densePrintAllowed)
        }
        guard best.features.count > across,
              let (i, alt, altWeight) = ranked.enumerated().dropFirst().filter({ $0.1.features.count > across
                  && $0.1.score <= best.score && $0.1.score >= acceptLogit
                  && $0.1.features[text] > 0 && $0.1.features[text] >= 0.25 * best.features[text]
                  && !isWholeCard(best.corners, around: $0.1.corners, judge: judge) })
                .map({ ($0.0, $0.1, weighed($0.1)) }).max(by: { $0.2 < $1.2 }),
              altWeight > weighed(best), !QuadGeometry.sameOutline(best.corners, alt.corners) else { return ranked }
        var out = ranked
        out.remove(at: i)
        out.insert(alt, at: 0)
        return out
    }

    /// Log-odds per unit of `HypothesisJudge.printAcross` (on the outline's side with most of it).
    static let printAcrossWeight = 4.0

    /// Log-odds per unit of `PrintDensity.denseShare` over `densePrintAllowed`. A card's
    /// outline has 0.1-0.35 of its inside in dense print (0.42 for a small card's), an outline
    /// of a card with part of the page it lies on 0.4-0.8 (59 generated photos of cards on pages,
    /// seed 1796006101). Moving the lead by it: outlines of 240 generated photos of that seed
    /// right 190 -> 194 (IoU 0.85 or more), 240 of a fresh seed (1796007101) 210 -> 213.
    static let densePrintWeight = 10.0
    static let densePrintAllowed = 0.3

    /// A card with a coloured band or a printed frame offers its body as a hypothesis too, as
    /// well supported as the whole card (the band's edge is as sharp as the card's). When a
    /// nearly as likely hypothesis contains the best one, shares three of its sides and runs on
    /// along edges (`extensionSupport`), the larger one is the card.
    static func preferWholeCard(_ ranked: [Hypothesis], judge: HypothesisJudge) -> [Hypothesis] {
        guard var best = ranked.first else { return ranked }
        var bestIndex = 0
        var changed = true
        while changed {
            changed = false
            // Each step within the margin of the top hypothesis, so that steps do not add up.
            for (i, h) in ranked.enumerated() where i != bestIndex && h.score >= ranked[0].score - extensionMargin(from: best, to: h) {
                // The whole card has a card's proportions; a card with the paper it lies on has not.
                guard QuadGeometry.area(h.corners) > QuadGeometry.area(best.corners) * 1.08,
                      HypothesisJudge.aspectFit(QuadGeometry.aspect(h.corners)) >= 0.9,
                      isWholeCard(h.corners, around: best.corners, judge: judge) else { continue }
                best = h
                bestIndex = i
                changed = true
            }
        }
        var out = ranked
        out.remove(at: bestIndex)
        out.insert(best, at: 0)
        return out
    }

    /// True when `larger` holds `smaller` (corners within 3 px), shares three of its sides and
    /// runs on along edges where it adds to it (`extensionSupport`): a whole card around its band
    /// or printed frame, not a card with the desk or page beside it.
    static func isWholeCard(_ larger: [Point], around smaller: [Point], judge: HypothesisJudge) -> Bool {
        smaller.allSatisfy { QuadGeometry.contains(larger, $0, tolerance: 3) }
            && QuadGeometry.sharedSides(smaller, larger) >= 3
            && extensionSupport(from: smaller, to: larger, judge: judge) >= minimumExtensionSupport
    }

    /// A card lying on a desk, beside a keyboard or on a page offers larger outlines too: its own
    /// sides run on as lines into the desk until a line there (a shadow, the page's edge) closes
    /// them. Where such an outline adds to the card, its sides cross no edge; a card's band or
    /// frame is closed by the card's own sides, edges all along. The share of the added stretches
    /// of the larger outline's sides along which an edge runs: 1 when nothing was added along a
    /// side. (On ../shared/eval/wild and 120 generated photos: 0-0.41 where the larger outline was
    /// the card with the desk, 1.0 for a card with a band.)
    static func extensionSupport(from smaller: [Point], to larger: [Point], judge: HypothesisJudge) -> Double {
        let centre = Point(larger.map(\.x).reduce(0, +) / 4, larger.map(\.y).reduce(0, +) / 4)
        let size = min(distance(larger[0], larger[1]), distance(larger[1], larger[2]))
        let tolerance = max(4, 0.04 * size)
        func near(_ p: Point, _ corners: [Point]) -> Bool { corners.contains { distance($0, p) <= tolerance } }
        // The corners the larger outline moved out, each to its own new corner along a shared side.
        let moved = smaller.filter { !near($0, larger) }, added = larger.filter { !near($0, smaller) }
        var total = 0.0, n = 0
        for corner in added {
            guard let from = moved.min(by: { distance($0, corner) < distance($1, corner) }) else { continue }
            let stretch = judge.side(from, corner, centre: centre)
            guard stretch.visible >= 0.5 else { continue }
            total += stretch.support
            n += 1
        }
        return n == 0 ? 1 : total / Double(n)
    }

    /// The least `extensionSupport` with which a larger outline takes over.
    static let minimumExtensionSupport = 0.5

    /// How much less likely (in the judge's log-odds) a containing hypothesis may be and still win.
    static let extensionMargin = 2.5

    /// The margin for `larger` to take over from `smaller`: wider when text lies right around the
    /// smaller outline and the larger one takes it in (a logo band or a printed frame on a card
    /// has the card's text just outside it; a whole card has plain margins).
    static func extensionMargin(from smaller: Hypothesis, to larger: Hypothesis) -> Double {
        let ring = HypothesisJudge.textRingFeature
        // A band or a frame is well inside the card; an outline a few percent larger is the same
        // card with some desk (and the desk's texture) around it.
        guard smaller.features.count > ring, larger.features.count > ring, larger.score >= acceptLogit,
              QuadGeometry.area(larger.corners) >= 1.3 * QuadGeometry.area(smaller.corners) else { return extensionMargin }
        return extensionMargin + textAroundWeight * max(0, smaller.features[ring] - larger.features[ring])
    }

    /// Log-odds per unit of text share around the smaller outline that the larger one takes in.
    static let textAroundWeight = 4.0

    /// One hypothesis as diagnostics see it: corners normalised to the preview, the evidence and the score.
    public struct Candidate: Sendable {
        public let corners: [Point]
        public let source: String
        public let features: [Double]
        public let score: Double
    }

    /// Every hypothesis, best first (for diagnostics and for fitting the judge's weights).
    public static func candidates(in preview: PixelImage) -> [Candidate] {
        let w = Double(preview.width), h = Double(preview.height)
        return hypotheses(in: preview).map { hyp in
            Candidate(corners: hyp.corners.map { Point($0.x / w, $0.y / h) }, source: hyp.source.rawValue,
                      features: hyp.features, score: hyp.score)
        }
    }

    /// The straight lines detection found, as (rho, theta, votes) in preview pixels (diagnostics).
    public static func lines(in preview: PixelImage) -> [[Double]] {
        HoughLines.find(in: EdgeMap(preview), count: LineQuads.lineCount).map { [Double($0.rho), Double($0.theta), Double($0.votes)] }
    }

    /// The edge magnitude map, scaled to 0...255 (diagnostics).
    public static func edgeImage(of preview: PixelImage) -> PixelImage {
        let e = EdgeMap(preview)
        let scale = 255 / max(1, 3 * e.strongEdge)
        return PixelImage(width: e.width, height: e.height, channels: 1, pixels: e.magnitude.map { UInt8(min(255, $0 * scale)) })
    }

    /// Milliseconds per step of `locate` on one preview (for the benchmark).
    public static func profile(_ preview: PixelImage) -> [(String, Double)] {
        let clock = ContinuousClock()
        var out: [(String, Double)] = []
        var t = clock.now
        func lap(_ name: String) { out.append((name, (clock.now - t).milliseconds)); t = clock.now }
        let edges = EdgeMap(preview); lap("edges")
        let judge = HypothesisJudge(edges: edges); lap("judge-setup")
        let lines = LineQuads.proposals(in: edges); lap("line-quads")
        let regions = RegionCandidates.find(in: edges); lap("regions")
        var n = 0
        for (c, source) in lines { if judge.features(of: c, source: source) != nil { n += 1 } }
        for c in regions { if judge.features(of: QuadGeometry.orderClockwiseFromTopLeft(c), source: .region) != nil { n += 1 } }
        lap("judge(\(lines.count)+\(regions.count))")
        _ = TextRegion.find(detail: judge.detail, width: edges.width, height: edges.height); lap("text-region")
        return out
    }

    /// Names of the features in `Candidate.features`.
    public static var featureNames: [String] { HypothesisJudge.featureNames }

    /// Corners ordered clockwise from the one nearest the top-left.
    static func orderClockwiseFromTopLeft(_ quad: [Point]) -> [Point] { QuadGeometry.orderClockwiseFromTopLeft(quad) }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
