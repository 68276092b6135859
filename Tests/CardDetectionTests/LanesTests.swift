import Testing
@testable import CardDetection

/// `Lanes`' helpers give, lane by lane, the integer part below (floors) and what the standard
/// library's slower generic functions give (max, min).
@Suite struct LanesTests {
    @Test func floorIsTheIntegerPartBelow2To23() {
        for v: Float in [0, 0.5, 1, 1.999_999_9, 2, 1_000.25, 8_388_607.5] {
            #expect(Lanes.floor(SIMD8(repeating: v)) == SIMD8(repeating: v.rounded(.down)))
        }
    }

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
