import Foundation

/// What a Tesseract `.traineddata` file holds, from its table of components alone (a few hundred
/// bytes; the file is not loaded).
///
/// The file starts with the number of components (32 bits) and then each one's offset (64 bits,
/// -1 for a component the file does not have), in Tesseract's `TessdataType` order, little-endian
/// as Tesseract writes them (a big-endian file has its count byte-swapped, which Tesseract
/// detects the same way).
enum TrainedData {
    /// `TESSDATA_INTTEMP`: the legacy recogniser's templates (Tesseract's `IsBaseAvailable`).
    static let legacyTemplates = 3
    /// `TESSDATA_LSTM`: the LSTM network (Tesseract's `IsLSTMAvailable`).
    static let lstmNetwork = 17
    /// More entries than any Tesseract has defined: the count is byte-swapped or the file is not
    /// language data.
    static let maximumEntries: UInt32 = 1000

    /// Which components the file at `path` has, by number; nil when it cannot be read as language data.
    static func components(at path: String) -> Set<Int>? {
        guard let file = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? file.close() }
        guard let head = try? file.read(upToCount: 4), head.count == 4 else { return nil }
        var count = head.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)) }
        let swapped = count > maximumEntries
        if swapped { count = count.byteSwapped }
        guard count > 0, count <= maximumEntries,
              let table = try? file.read(upToCount: Int(count) * 8), table.count == Int(count) * 8
        else { return nil }
        var present = Set<Int>()
        table.withUnsafeBytes { raw in
            for i in 0..<Int(count) {
                let stored = raw.loadUnaligned(fromByteOffset: i * 8, as: Int64.self)
                let offset = swapped ? Int64(bigEndian: stored) : Int64(littleEndian: stored)
                if offset >= 0 { present.insert(i) }
            }
        }
        return present
    }

    /// True when the file has an LSTM network and no legacy recogniser: Tesseract then reads with
    /// the LSTM alone, whatever engine mode it was given.
    static func isLSTMOnly(at path: String) -> Bool {
        guard let present = components(at: path) else { return false }
        return present.contains(lstmNetwork) && !present.contains(legacyTemplates)
    }
}
