import FileAccess
import Foundation

/// The public suffixes domains on a card are checked against: the ICANN section of the Public
/// Suffix List, read from the copy the system keeps up to date (Debian's `publicsuffix` package,
/// which libpsl reads too).
///
/// Only rules of one or two ASCII labels are kept (com, de, co.uk, com.au): a host from a card is
/// judged by its last two labels. Wildcard and exception rules are left out, and so is the private
/// section (blogspot.com, github.io): a page on a platform is named by the platform's label, as a
/// company's own domain is by its own.
public struct PublicSuffixList: Sendable, Equatable {
    /// The environment variable that names another copy of the list (a newer one, or on a system
    /// that keeps it elsewhere).
    public static let environmentVariable = "CARDSCAN_PUBLIC_SUFFIX_LIST"
    /// Where the list is looked for when the environment names none: where Debian and Ubuntu's
    /// `publicsuffix` package puts it. Elsewhere, `CARDSCAN_PUBLIC_SUFFIX_LIST` names a copy.
    public static let systemPaths = ["/usr/share/publicsuffix/public_suffix_list.dat"]
    /// The largest list read (the list is about 230 KB).
    public static let maximumBytes = 4 << 20

    /// The suffixes, lower case: one label (com, de) or two (co.uk).
    public let suffixes: Set<String>

    /// The suffixes of a list's text (the format of public_suffix_list.dat).
    public init(text: String) {
        self.init(bytes: Array(text.utf8))
    }

    /// The suffixes of a list's bytes (UTF-8), line by line without making a string of each.
    init(bytes: [UInt8]) {
        let begin = Array("===BEGIN ICANN DOMAINS===".utf8), end = Array("===END ICANN DOMAINS===".utf8)
        var suffixes = Set<String>()
        var icann = false
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            let rule = line.drop { $0 == 32 || $0 == 9 }.reversed().drop { $0 == 32 || $0 == 9 || $0 == 13 }.reversed()
            guard let first = rule.first else { continue }
            if first == UInt8(ascii: "/") {
                if !icann, Self.contains(rule, begin) { icann = true } else if icann, Self.contains(rule, end) { break }
                continue
            }
            // Wildcard and exception rules, rules of three labels or more, and names not in ASCII are left out.
            guard icann, first != UInt8(ascii: "!"), !rule.contains(UInt8(ascii: "*")), rule.allSatisfy({ $0 < 128 }),
                  rule.count(where: { $0 == UInt8(ascii: ".") }) <= 1 else { continue }
            suffixes.insert(String(decoding: rule, as: UTF8.self).lowercased())
        }
        self.suffixes = suffixes
    }

    private static func contains(_ line: some Collection<UInt8>, _ marker: [UInt8]) -> Bool {
        let bytes = Array(line)
        guard bytes.count >= marker.count else { return false }
        return (0...(bytes.count - marker.count)).contains { bytes[$0..<($0 + marker.count)].elementsEqual(marker) }
    }

    /// Reads the list at `path`.
    /// - Throws: `ContactParserError` when the file cannot be read, is larger than
    ///   `maximumBytes`, or holds no ICANN section.
    public init(contentsOf path: String) throws(ContactParserError) {
        let bytes: [UInt8]
        do {
            bytes = try SystemFile.readRegularFile(FilePathBytes(path), maxBytes: Self.maximumBytes)
        } catch {
            throw ContactParserError(.publicSuffixListUnreadable,
                                     "\(error.description); \(ContactParserError.publicSuffixListHint)")
        }
        self.init(bytes: bytes)
        guard !suffixes.isEmpty else {
            throw ContactParserError(.publicSuffixListUnreadable,
                                     "\(path): holds no ICANN section of the Public Suffix List; \(ContactParserError.publicSuffixListHint)")
        }
    }

    /// The list the environment names (`CARDSCAN_PUBLIC_SUFFIX_LIST`), else the first of
    /// `systemPaths` that exists.
    /// - Throws: `ContactParserError` naming the file looked for and the package to install.
    public static func system(environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(ContactParserError) -> PublicSuffixList {
        if let named = environment[environmentVariable], !named.isEmpty {
            return try PublicSuffixList(contentsOf: named)
        }
        let path = systemPaths.first { FileManager.default.fileExists(atPath: $0) } ?? systemPaths[0]
        return try PublicSuffixList(contentsOf: path)
    }

    /// Without a list, a last label is taken for a top-level domain by its shape alone: 2 to 18
    /// ASCII letters, or an internationalised name (xn--...). No two-label suffix is known then.
    static func looksLikeTopLevelDomain(_ label: some StringProtocol) -> Bool {
        if label.hasPrefix("xn--") { return label.count <= 63 }
        return (2...18).contains(label.count) && label.allSatisfy { $0.isASCII && $0.isLetter }
    }
}

/// Why the parser's data could not be read. Messages name the file and the package to install.
public struct ContactParserError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        case publicSuffixListUnreadable = "public-suffix-list-unreadable"
    }
    public let code: Code
    public let message: String
    public init(_ code: Code, _ message: String) { self.code = code; self.message = message }
    public var description: String { message }

    static let publicSuffixListHint = "install the Public Suffix List (sudo apt-get install publicsuffix) or name a copy "
        + "with \(PublicSuffixList.environmentVariable); until then domains are checked by the shape of their last label only"
}

extension ContactParser {
    /// Why the system's Public Suffix List could not be read, nil when it was. Without it the
    /// parser takes any last label of 2 to 18 letters for a top-level domain and knows no
    /// two-label suffix (co.uk), so fewer misread domains are mended and a domain says less of
    /// the card's country.
    public static var publicSuffixListError: ContactParserError? {
        if case .failure(let error) = ParserData.publicSuffixList { return error }
        return nil
    }
}
