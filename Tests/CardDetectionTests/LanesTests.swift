import Testing
@testable import CardDetection

/// `Lanes`' floors give the integer part below, lane by lane.
@Suite struct LanesTests {
    @Test func floorIsTheIntegerPartBelow2To23() {
        for v: Float in [0, 0.5, 1, 1.999_999_9, 2, 1_000.25, 8_388_607.5] {
            #expect(Lanes.floor(SIMD8(repeating: v)) == SIMD8(repeating: v.rounded(.down)))
        }
        for v: Double in [0, 0.5, 1, 2.75, 4_503_599_627_370_495.0] {
            #expect(Lanes.floor(SIMD8(repeating: v)) == SIMD8(repeating: v.rounded(.down)))
        }
    }
}
