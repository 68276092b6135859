import Testing
@testable import CardOCR

/// `Lanes`' helpers give what the standard library's slower generic functions give, lane by lane.
@Suite struct LanesTests {
    @Test func maxAndMinAreThePointwiseOnesForNumbers() {
        var generator = SystemRandomNumberGenerator()
        let specials: [Float] = [0, -0, 1, -1, 255, 256, .greatestFiniteMagnitude, -.infinity, .infinity, 1e-40]
        for _ in 0..<2_000 {
            let a = SIMD8<Float>((0..<8).map { _ in Bool.random(using: &generator) ? specials.randomElement()! : .random(in: -300...300) })
            let b = SIMD8<Float>((0..<8).map { _ in Bool.random(using: &generator) ? specials.randomElement()! : .random(in: -300...300) })
            // Equal as numbers (+0 and -0 are equal; for them either may come back, and both make 0).
            #expect(Lanes.max(a, b) == pointwiseMax(a, b))
            #expect(Lanes.min(a, b) == pointwiseMin(a, b))
        }
    }
}
