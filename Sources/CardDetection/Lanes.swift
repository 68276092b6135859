/// Helpers shared by the kernels that work on eight values at a time (the gray warp, the snap's
/// edge strength and the normaliser's stretch): each lane's arithmetic stays the one-value loop's,
/// so the results are the same.
enum Lanes {
    /// The integer part of eight values known to be at least 0 and below 2^23, by adding and taking
    /// away 2^23 (exact there): Swift's vector conversions go element by element through calls.
    @inline(__always)
    static func floor(_ v: SIMD8<Float>) -> SIMD8<Float> {
        let shift = SIMD8<Float>(repeating: 8_388_608)
        var whole = (v + shift) - shift
        whole.replace(with: whole - 1, where: whole .> v)
        return whole
    }

    /// The four pixels around each of eight points, gathered lane by lane (`around(lane)` gives the
    /// top-left, top-right, bottom-left and bottom-right values) into one vector each.
    @inline(__always)
    static func gather<T: SIMDScalar>(_ around: (Int) -> (T, T, T, T)) -> (SIMD8<T>, SIMD8<T>, SIMD8<T>, SIMD8<T>) {
        let c0 = around(0), c1 = around(1), c2 = around(2), c3 = around(3)
        let c4 = around(4), c5 = around(5), c6 = around(6), c7 = around(7)
        return (SIMD8(c0.0, c1.0, c2.0, c3.0, c4.0, c5.0, c6.0, c7.0), SIMD8(c0.1, c1.1, c2.1, c3.1, c4.1, c5.1, c6.1, c7.1),
                SIMD8(c0.2, c1.2, c2.2, c3.2, c4.2, c5.2, c6.2, c7.2), SIMD8(c0.3, c1.3, c2.3, c3.3, c4.3, c5.3, c6.3, c7.3))
    }

    /// The greater of each pair of lanes, for values that are never NaN (there it is the
    /// standard library's `pointwiseMax`, which is a call per vector rather than one instruction).
    @inline(__always)
    static func max(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> { a.replacing(with: b, where: a .< b) }

    /// The lesser of each pair of lanes, for values that are never NaN (`pointwiseMin`'s result there).
    @inline(__always)
    static func min(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> { a.replacing(with: b, where: b .< a) }
}
