/// Helpers for the normaliser's stretch, eight values at a time: each lane's arithmetic stays the
/// one-value loop's, so the results are the same.
enum Lanes {
    /// The greater of each pair of lanes, for values that are never NaN (there it is the
    /// standard library's `pointwiseMax`, which is a call per vector rather than one instruction).
    @inline(__always)
    static func max(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> { a.replacing(with: b, where: a .< b) }

    /// The lesser of each pair of lanes, for values that are never NaN (`pointwiseMin`'s result there).
    @inline(__always)
    static func min(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> { a.replacing(with: b, where: b .< a) }
}
