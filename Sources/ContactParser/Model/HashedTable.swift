import Foundation

/// A table keyed by the 64-bit FNV-1a hash of a string's UTF-8 bytes, shipped as base64 text and
/// read without building a dictionary: ascending keys searched by halving. Used for the line-role
/// model's weights and the name lists, which would otherwise cost a process more than 100 ms to
/// load as strings.
struct HashedTable: Sendable {
    let keys: [UInt64]

    /// Reads little-endian UInt64 keys in ascending order from base64 text; empty when malformed.
    init(base64 keysText: String) {
        keys = Self.decode(keysText, as: UInt64.self)
    }

    /// The position of `text`'s hash among the keys, nil when absent.
    func index(of text: String) -> Int? {
        let key = Self.hash(text)
        var low = 0, high = keys.count
        while low < high {
            let mid = (low + high) / 2
            if keys[mid] < key { low = mid + 1 } else { high = mid }
        }
        return low < keys.count && keys[low] == key ? low : nil
    }

    func contains(_ text: String) -> Bool { index(of: text) != nil }

    /// 64-bit FNV-1a of the UTF-8 bytes (scripts/train_roles.py and generate_name_data.py compute the same).
    static func hash(_ text: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            h ^= UInt64(byte)
            h = h &* 0x0000_0100_0000_01b3
        }
        return h
    }

    /// Little-endian values of a fixed-width type from base64 text.
    static func decode<T: FixedWidthInteger>(_ text: String, as: T.Type) -> [T] {
        guard let data = Data(base64Encoded: text), data.count % MemoryLayout<T>.size == 0 else { return [] }
        return data.withUnsafeBytes { raw in
            (0..<(data.count / MemoryLayout<T>.size)).map { T(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * MemoryLayout<T>.size, as: T.self)) }
        }
    }
}
