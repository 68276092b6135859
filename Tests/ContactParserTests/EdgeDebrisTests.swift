import Testing
@testable import ContactParser

/// Words at the ends of a line that OCR read from a logo or an icon, on made-up lines.
@Suite struct EdgeDebrisTests {
    /// A line of words at these places (left, right) and confidences, `height` pixels high.
    static func line(_ words: [(String, Double, Double, Double)], height: Double = 30) -> TextLine {
        let w = words.map { TextWord(text: $0.0, left: $0.1, right: $0.2, confidence: $0.3) }
        let confidence = w.map(\.confidence).reduce(0, +) / Double(w.count)
        return TextLine(text: w.map(\.text).joined(separator: " "), confidence: confidence, height: height, words: w)
    }

    /// A logo read as "al", wider than letters and less sure than the words it stands before.
    static let logoBeforeCompany = line([("al", 40, 112, 0.5), ("NORVIK", 140, 300, 0.93), ("TRADING", 322, 510, 0.95),
                                         ("AS", 530, 580, 0.96)])

    @Test func featuresAreTheTrainingScriptsOnes() {
        // scripts/train_debris.py's `features` on the same words gives these.
        let words = Self.logoBeforeCompany.words
        let expected: [[Double]] = [[1, 0.5, 0.45, 0.2, 0.300104592450338, 1.0 / 3, 0, 0, 1, 1],
                                    [1, 0.96, 0, -0.2666666666666667, -0.07165598890643517, 1.0 / 3, 0, 0, 0, 0]]
        for (k, want) in zip([0, 3], expected) {
            let got = EdgeDebris.features(words, at: k, height: 30)
            #expect(got.count == EdgeDebrisWeights.weights.count)
            for (a, b) in zip(got, want) { #expect(abs(a - b) < 1e-9, "word \(k): \(got) against \(want)") }
        }
    }

    @Test func aLogoReadAsAWordIsNotPartOfTheCompany() {
        let kept = EdgeDebris.trimmed(Self.logoBeforeCompany.words, height: 30)
        #expect(kept.map(\.text) == ["NORVIK", "TRADING", "AS"])
        let card = [Self.line([("Ingrid", 60, 190, 0.95), ("Halvorsen", 210, 420, 0.94)], height: 44), Self.logoBeforeCompany]
        #expect(ContactParser().parse(lines: card).organization == "NORVIK TRADING AS")
    }

    @Test func wordsReadAsSurelyAsTheirLineStay() {
        let name = Self.line([("Jo", 40, 80, 0.94), ("Ann", 100, 160, 0.95), ("Lee", 180, 240, 0.95)])
        #expect(EdgeDebris.trimmed(name.words, height: 30).count == 3)
        let company = Self.line([("Brekke", 40, 170, 0.93), ("&", 190, 210, 0.9), ("Co", 230, 270, 0.95)])
        #expect(EdgeDebris.trimmed(company.words, height: 30).count == 3)
    }

    /// A lower-case particle before a word in title case begins a family name, or a firm named
    /// after one; before capitals it is still weighed as debris.
    @Test func aNameParticleBeforeAWordInTitleCaseStays() {
        let firm = Self.line([("da", 40, 90, 0.5), ("Rocha", 112, 230, 0.93), ("Lemos", 250, 380, 0.95), ("Ltda.", 400, 500, 0.94)])
        #expect(EdgeDebris.trimmed(firm.words, height: 30).map(\.text) == ["da", "Rocha", "Lemos", "Ltda."])
        let card = [Self.line([("Ingrid", 60, 190, 0.95), ("Halvorsen", 210, 420, 0.94)], height: 44), firm]
        #expect(ContactParser().parse(lines: card).organization == "da Rocha Lemos Ltda.")
        let caps = Self.line([("da", 40, 112, 0.5), ("NORVIK", 140, 300, 0.93), ("TRADING", 322, 510, 0.95), ("AS", 530, 580, 0.96)])
        #expect(EdgeDebris.trimmed(caps.words, height: 30).map(\.text) == ["NORVIK", "TRADING", "AS"])
        let mark = Self.line([("al", 40, 112, 0.84), ("Ojala", 137, 231, 0.97), ("Oy", 244, 297, 0.97)])
        #expect(EdgeDebris.trimmed(mark.words, height: 30).map(\.text) == ["Ojala", "Oy"])
    }

    @Test func contactDataAndLabelsAreNeverDebris() {
        #expect(!EdgeDebris.isCandidate("Tel"))
        #expect(!EdgeDebris.isCandidate("E-mail:"))
        #expect(!EdgeDebris.isCandidate("555-0100"))
        #expect(!EdgeDebris.isCandidate("ab@cd.no"))
        #expect(!EdgeDebris.isCandidate("www.norvik.no"))
        #expect(EdgeDebris.isCandidate("al"))
        // A phone line keeps its label whatever OCR's doubts: only people lines are trimmed.
        let phone = Self.line([("oe", 40, 112, 0.4), ("Tel", 140, 200, 0.9), ("+47", 220, 280, 0.9), ("22", 300, 340, 0.9),
                               ("33", 360, 400, 0.9), ("44", 420, 460, 0.9), ("55", 480, 520, 0.9)])
        let lines = CardLine.split([phone])
        #expect(lines.first?.text.hasPrefix("oe Tel") == true)
    }

    /// An icon OCR read as "@" and a symbol is no e-mail address: it is weighed as debris, and the
    /// company beside it, read unsurely in a thin typeface, is still the company.
    @Test func anAtSignWithoutLettersIsAnIconNotAnAddress() {
        #expect(EdgeDebris.isCandidate("@®"))
        #expect(EdgeDebris.isCandidate("@"))
        #expect(!EdgeDebris.isCandidate("a@b"))
        let company = Self.line([("@®", 40, 90, 0.63), ("Fenwick-Rowe", 110, 400, 0.35)], height: 36)
        #expect(EdgeDebris.trimmed(company.words, height: 36).map(\.text) == ["Fenwick-Rowe"])
    }

    @Test func eastAsianLinesAndLinesWithoutGeometryAreLeftAlone() {
        let words = [TextWord(text: "al", left: 0, right: 80, confidence: 0.3), TextWord(text: "株式会社", left: 100, right: 220, confidence: 0.9)]
        #expect(EdgeDebris.trimmed(words, height: 30).count == 2)
        #expect(EdgeDebris.trimmed(Self.logoBeforeCompany.words, height: nil).count == 4)
    }
}
