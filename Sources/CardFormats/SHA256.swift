/// SHA-256 (FIPS 180-4), for identifiers that must stay the same from run to run: a vCard's UID,
/// a photo's fingerprint. Foundation on Linux has no digest of its own.
public struct SHA256: Sendable {
    private var state: [UInt32] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    ]
    private var buffer: [UInt8] = []
    private var length: UInt64 = 0

    static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    public init() {}

    /// The digest of `bytes`.
    public static func digest<S: Sequence>(_ bytes: S) -> [UInt8] where S.Element == UInt8 {
        var h = SHA256()
        h.update(Array(bytes))
        return h.finish()
    }

    /// The digest of `bytes` in lower-case hexadecimal.
    public static func hex<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
        digest(bytes).map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    /// Adds bytes to the message.
    public mutating func update(_ bytes: [UInt8]) {
        length += UInt64(bytes.count)
        var start = 0
        if !buffer.isEmpty {
            let take = min(64 - buffer.count, bytes.count)
            buffer += bytes[0..<take]
            start = take
            guard buffer.count == 64 else { return }
            buffer.withUnsafeBufferPointer { compress($0.baseAddress!) }
            buffer.removeAll(keepingCapacity: true)
        }
        bytes.withUnsafeBufferPointer { all in
            while start + 64 <= all.count {
                compress(all.baseAddress! + start)
                start += 64
            }
        }
        buffer += bytes[start...]
    }

    /// The digest of everything added.
    public mutating func finish() -> [UInt8] {
        let bits = length &* 8
        var tail = buffer + [0x80]
        while tail.count % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        tail.withUnsafeBufferPointer { all in
            for offset in stride(from: 0, to: all.count, by: 64) { compress(all.baseAddress! + offset) }
        }
        buffer.removeAll()
        return state.flatMap { word in [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> UInt32($0)) } }
    }

    private mutating func compress(_ block: UnsafePointer<UInt8>) {
        var w = [UInt32](repeating: 0, count: 64)
        for i in 0..<16 {
            w[i] = UInt32(block[4 * i]) << 24 | UInt32(block[4 * i + 1]) << 16 | UInt32(block[4 * i + 2]) << 8 | UInt32(block[4 * i + 3])
        }
        for i in 16..<64 {
            let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
            let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
            w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, h) = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
        for i in 0..<64 {
            let t1 = h &+ (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) &+ ((e & f) ^ (~e & g)) &+ Self.k[i] &+ w[i]
            let t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) &+ ((a & b) ^ (a & c) ^ (b & c))
            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
        }
        for (i, v) in [a, b, c, d, e, f, g, h].enumerated() { state[i] = state[i] &+ v }
    }

    private func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { x >> n | x << (32 - n) }
}

/// A UUID-shaped identifier made from a name (the first 16 bytes of its SHA-256, with the
/// version and variant bits of RFC 9562's name-based UUIDs): the same name, the same UID.
public func nameBasedUUID(_ name: String) -> String {
    var b = Array(SHA256.digest(Array(name.utf8)).prefix(16))
    b[6] = b[6] & 0x0f | 0x80  // version 8: custom (SHA-256 rather than v5's SHA-1)
    b[8] = b[8] & 0x3f | 0x80
    let hex = b.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    let c = Array(hex)
    return [c[0..<8], c[8..<12], c[12..<16], c[16..<20], c[20..<32]].map { String($0) }.joined(separator: "-")
}
