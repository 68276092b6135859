import CResizeKernels
import TestSupport
import Testing

/// The resize's C kernels give the same floats and bytes with AVX2 as one value at a time, so a
/// processor without AVX2 makes the same preview (and so finds the same card).
@Suite struct ResizeKernelTests {
    typealias Generator = SeededGenerator

    @Test(arguments: [1, 2, 4, 5, 7])
    func weightedRowsAreTheSameEitherWay(rowCount: Int) {
        var g = Generator(state: UInt64(rowCount))
        let length = 203  // not a multiple of eight: the last values one at a time
        let rows = (0..<rowCount).map { _ in (0..<length).map { _ in UInt8.random(in: 0...255, using: &g) } }
        let weights = (0..<rowCount).map { _ in Float.random(in: 0...0.7, using: &g) }
        var vector = [Float](repeating: -1, count: length), plain = [Float](repeating: -2, count: length)
        withRowPointers(rows) { pointers in
            weights.withUnsafeBufferPointer { w in
                #expect(cs_weighted_rows(pointers, w.baseAddress, Int32(rowCount), &vector, length, 1) == (TestProcessor.hasAVX2 ? 1 : 0))
                #expect(cs_weighted_rows(pointers, w.baseAddress, Int32(rowCount), &plain, length, 0) == 0)
            }
        }
        #expect(vector.map(\.bitPattern) == plain.map(\.bitPattern))
        var expected = [Float](repeating: 0, count: length)
        for i in 0..<length { for t in 0..<rowCount { expected[i] += Float(rows[t][i]) * weights[t] } }
        #expect(plain.map(\.bitPattern) == expected.map(\.bitPattern))
    }

    @Test(arguments: [1, 3])
    func resampledRowsAreTheSameEitherWay(channels: Int) {
        var g = Generator(state: UInt64(channels) &* 31)
        let pixels = 97
        let sums = (0..<(pixels * channels)).map { _ in Float.random(in: 0...300, using: &g) }
        // Taps of one to six pixels, neighbours differing, the last reaching the row's end.
        var starts: [Int] = [], offsets: [Int] = [0], weights: [Float] = []
        var start = 0
        while true {
            let taps = Int.random(in: 1...6, using: &g)
            guard start + taps <= pixels else { break }
            starts.append(start)
            for _ in 0..<taps { weights.append(Float.random(in: 0...0.5, using: &g)) }
            offsets.append(weights.count)
            start += Int.random(in: 1...taps, using: &g)
        }
        var vector = [UInt8](repeating: 1, count: starts.count * channels), plain = [UInt8](repeating: 2, count: starts.count * channels)
        #expect(cs_resample_row(sums, sums.count, Int32(channels), starts, offsets, weights, starts.count, &vector, 1) == (TestProcessor.hasAVX2 && channels == 3 ? 1 : 0))
        #expect(cs_resample_row(sums, sums.count, Int32(channels), starts, offsets, weights, starts.count, &plain, 0) == 0)
        #expect(vector == plain)
        var expected: [UInt8] = []
        for x in starts.indices {
            for c in 0..<channels {
                var s: Float = 0
                for t in offsets[x]..<offsets[x + 1] { s += sums[(starts[x] + t - offsets[x]) * channels + c] * weights[t] }
                expected.append(UInt8(max(0, min(255, s + 0.5))))
            }
        }
        #expect(plain == expected)
    }

    private func withRowPointers(_ rows: [[UInt8]], _ body: (UnsafePointer<UnsafePointer<UInt8>?>) -> Void) {
        let copies = rows.map { row -> UnsafeMutablePointer<UInt8> in
            let p = UnsafeMutablePointer<UInt8>.allocate(capacity: row.count)
            p.initialize(from: row, count: row.count)
            return p
        }
        defer { copies.forEach { $0.deallocate() } }
        let pointers = copies.map { Optional(UnsafePointer($0)) }
        pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
