import CPhoneNumber
import Foundation

/// A number libphonenumber found in a text.
public struct PhoneMatch: Sendable, Equatable {
    /// UTF-8 byte range of the number in the searched text.
    public let utf8Range: Range<Int>
    public let printed: String
    public let e164: String
    public let region: String?
    public let valid: Bool
    public let kind: Kind
    /// The country calling code the number was read with (49 for Germany).
    public var countryCode: Int = 0

    public enum Kind: Sendable, Equatable { case fixedLine, mobile, fixedLineOrMobile, tollFree, other, unknown }
}

/// Google's libphonenumber through the project's C++ shim (thread-safe, exceptions caught).
public enum PhoneNumbers {
    /// Finds phone numbers in `text`, reading national numbers as `region`'s (ISO 3166 alpha-2).
    public static func find(in text: String, region: String, validOnly: Bool = false) -> [PhoneMatch] {
        let utf8 = Array(text.utf8)
        var matches = [cs_phone_match](repeating: cs_phone_match(), count: 16)
        let n = text.withCString { t in
            region.withCString { r in cs_phone_find(t, r, validOnly ? 1 : 0, &matches, Int32(matches.count)) }
        }
        guard n > 0 else { return [] }
        return matches.prefix(Int(n)).compactMap { m in
            let start = Int(m.start), end = Int(m.end)
            guard start >= 0, end <= utf8.count, start < end else { return nil }
            let printed = String(decoding: utf8[start..<end], as: UTF8.self)
            return PhoneMatch(utf8Range: start..<end, printed: printed, e164: string(m.e164),
                              region: string(m.region).isEmpty ? nil : string(m.region),
                              valid: m.valid != 0, kind: kind(m.type), countryCode: Int(m.countryCode))
        }
    }

    /// Parses one number; nil when libphonenumber cannot read it.
    public static func parse(_ text: String, region: String) -> PhoneMatch? {
        var m = cs_phone_match()
        let rc = text.withCString { t in region.withCString { r in cs_phone_parse(t, r, &m) } }
        guard rc == 1 else { return nil }
        return PhoneMatch(utf8Range: 0..<text.utf8.count, printed: text, e164: string(m.e164),
                          region: string(m.region).isEmpty ? nil : string(m.region),
                          valid: m.valid != 0, kind: kind(m.type), countryCode: Int(m.countryCode))
    }

    /// `text` as `region` prints its numbers at home (national format: "03-1234-5678" in Japan),
    /// nil when it is no valid number of that region.
    public static func nationalFormat(_ text: String, region: String) -> String? {
        var out = [CChar](repeating: 0, count: 64)
        guard cs_phone_national_format(text, region, &out, Int32(out.count)) == 1 else { return nil }
        return string(out)
    }

    /// The one region of `regions` in whose plan the card's national numbers (printed without
    /// a calling code) are valid and printed as that region prints them at home: the same groups
    /// of digits as its national format, and, counting half as much, the same separators (Japan
    /// and Korea hyphens, mainland China and Taiwan spaces). Nil when none fits, or two fit as well.
    public static func region(ofPrintedNumbers numbers: [String], among regions: [String]) -> String? {
        func groups(_ s: String) -> [Int] { s.split(whereSeparator: { !$0.isNumber }).map(\.count) }
        func separators(_ s: String) -> [Character] { s.filter { $0 == " " || $0 == "-" } }
        var score: [String: Double] = [:]
        for printed in numbers {
            let text = printed.trimmingCharacters(in: .whitespaces)
            guard !text.hasPrefix("+") else { continue }
            for region in regions {
                guard let home = nationalFormat(text, region: region), groups(home) == groups(text) else { continue }
                score[region, default: 0] += separators(home) == separators(text) ? 1.5 : 1
            }
        }
        guard let best = score.values.max() else { return nil }
        let top = score.filter { $0.value == best }.keys
        return top.count == 1 ? top.first : nil
    }

    /// The calling code of a region ("DE" -> 49), nil when unknown.
    public static func callingCode(of region: String) -> Int? {
        let code = region.withCString { cs_phone_country_code($0) }
        return code > 0 ? Int(code) : nil
    }

    /// libphonenumber's example number of a region: as the region prints it nationally, and E.164.
    public static func example(region: String, mobile: Bool) -> (national: String, e164: String)? {
        var national = [CChar](repeating: 0, count: 64), e164 = [CChar](repeating: 0, count: 32)
        guard cs_phone_example(region, mobile ? 1 : 0, &national, Int32(national.count), &e164, Int32(e164.count)) == 1 else { return nil }
        return (string(national), string(e164))
    }

    /// The regions libphonenumber knows (ISO 3166 alpha-2).
    public static var supportedRegions: [String] { ParserData.phoneRegions.sorted() }

    /// The main region of a calling code (49 -> "DE"), nil when unknown.
    public static func mainRegion(forCallingCode code: Int) -> String? {
        var buffer = [CChar](repeating: 0, count: 8)
        guard cs_phone_region_for_code(Int32(code), &buffer, Int32(buffer.count)) == 1 else { return nil }
        return string(buffer)
    }

    private static func kind(_ t: Int32) -> PhoneMatch.Kind {
        switch t {
        case Int32(CS_PHONE_FIXED_LINE): return .fixedLine
        case Int32(CS_PHONE_MOBILE): return .mobile
        case Int32(CS_PHONE_FIXED_LINE_OR_MOBILE): return .fixedLineOrMobile
        case Int32(CS_PHONE_TOLL_FREE): return .tollFree
        case Int32(CS_PHONE_UNKNOWN): return .unknown
        default: return .other
        }
    }

    /// The NUL-terminated UTF-8 text a C call wrote into `buffer`.
    private static func string(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func string<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
