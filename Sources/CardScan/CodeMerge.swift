import CardCodes
import ContactParser
import Foundation
import ImageIngest

/// A code found on the card, as the record lists it.
public struct CodeSummary: Sendable, Equatable {
    /// zbar's name of the symbology ("QR-Code", "EAN-13" ...).
    public let symbology: String
    /// What contact data it held ("vcard", "mecard", "bizcard", "url", "email", "phone"); nil
    /// when none (a product number, plain text) or when it was refused (see the warnings).
    public let contact: String?
    /// Where it was found: "card" (the straightened card) or "frame" (the whole photo).
    public let foundIn: String
}

/// The codes of a card merged into the record OCR made of it: the fields a code holds are
/// exact (confidence 1.0) and win; OCR fills the rest; where OCR read something else for a field
/// the code holds, a warning says so (without quoting either: records' warnings reach logs).
enum CodeMerge {
    struct Result {
        var contact: Contact
        var sources: [Contact.Field: String]
        var codes: [CodeSummary]
        var warnings: [String]
    }

    /// The codes on `card`, or on `frame` when the card shows none, each with where it was found;
    /// none when `options` is nil (codes are not looked for).
    static func read(card: PixelImage, frame: PixelImage?, options: CodeReader.Options?) -> [(DecodedCode, String)] {
        guard let options else { return [] }
        let found = CodeReader.read(card, options: options).map { ($0, "card") }
        guard found.isEmpty, let frame else { return found }
        return CodeReader.read(frame, options: options).map { ($0, "frame") }
    }

    /// `ocr` with the data of `found` merged in. A code whose data is refused leaves a warning and
    /// the OCR record as it was.
    static func merge(ocr: Contact, found: [(DecodedCode, String)], fallbackRegion: String?) -> Result {
        var result = Result(contact: ocr, sources: [:], codes: [], warnings: [])
        let region = ocr.region?.code ?? fallbackRegion
        var fromCodes = Contact()
        for (code, place) in found {
            var held: CodeContact?
            do throws(CodeError) {
                try CodePayload.checkSize(code.length)
                // A QR code's Latin-1 bytes as its text; other bytes as CodePayload takes them (UTF-8, or refused).
                if let text = code.text {
                    held = try CodePayload.parse(text, region: region)
                } else {
                    held = try CodePayload.parse(code.payload, region: region)
                }
            } catch {
                result.warnings.append("\(code.symbology) ignored (\(error.code.rawValue)): \(error.message)")
            }
            result.codes.append(CodeSummary(symbology: code.symbology, contact: held?.kind.rawValue, foundIn: place))
            if let held {
                fromCodes = combine(fromCodes, held.contact)
            }
        }
        apply(fromCodes, to: &result)
        return result
    }

    /// `a` with the fields only `b` holds (a second code adds, it does not replace).
    static func combine(_ a: Contact, _ b: Contact) -> Contact {
        var c = a
        for field in Contact.Field.allCases where a.confidence[field] == nil && b.confidence[field] != nil {
            c.copy(field, from: b)
        }
        return c
    }

    /// The code's fields over OCR's, with the sources and the conflicts.
    static func apply(_ codes: Contact, to result: inout Result) {
        let ocr = result.contact
        for field in Contact.Field.allCases {
            if codes.confidence[field] != nil {
                if ocr.has(field), !ocr.agrees(with: codes, on: field) {
                    result.warnings.append("qr-conflict (\(field.rawValue)): what the card prints differs from its QR code; the QR code's value is kept")
                }
                result.contact.copy(field, from: codes)
                result.sources[field] = "qr"
            } else if ocr.has(field) {
                result.sources[field] = "ocr"
            }
        }
        // The code's address names the country where the card's text did not.
        if let qrRegion = codes.region, codes.confidence[.address] != nil,
           ocr.region == nil || ocr.region?.sources.allSatisfy({ $0 == "option" || $0 == "locale" }) == true,
           qrRegion.sources.contains("qr-address") {
            result.contact.region = qrRegion
        }
    }
}

extension Contact {
    mutating func copy(_ field: Field, from other: Contact) {
        switch field {
        case .name: name = other.name
        case .title: title = other.title
        case .organization: organization = other.organization
        case .phones: phones = other.phones
        case .emails: emails = other.emails
        case .urls: urls = other.urls
        case .address: address = other.address
        }
        confidence[field] = other.confidence[field]
    }

    /// True when both say the same of `field`, up to case, accents, punctuation and spacing
    /// (phones by number, web addresses without scheme and "www.").
    func agrees(with other: Contact, on field: Field) -> Bool {
        switch field {
        case .name: return Self.key(name?.full) == Self.key(other.name?.full)
        case .title: return Self.key(title) == Self.key(other.title)
        case .organization: return Self.key(organization) == Self.key(other.organization)
        case .phones: return Set(phones.map(Self.phoneKey)) == Set(other.phones.map(Self.phoneKey))
        case .emails: return Set(emails.map { $0.lowercased() }) == Set(other.emails.map { $0.lowercased() })
        case .urls: return Set(urls.map(Self.urlKey)) == Set(other.urls.map(Self.urlKey))
        case .address:
            return Self.key(address?.postalCode) == Self.key(other.address?.postalCode)
                && Self.key(address?.city) == Self.key(other.address?.city)
                && Self.key(address?.street) == Self.key(other.address?.street)
        }
    }

    static func key(_ s: String?) -> String {
        (s ?? "").folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(String.init).joined()
    }

    /// A number's last eight digits: the same number written nationally or internationally.
    static func phoneKey(_ p: Phone) -> String {
        String((p.e164 ?? p.number).filter(\.isNumber).suffix(8))
    }

    static func urlKey(_ u: String) -> String {
        var s = u.lowercased()
        if let r = s.range(of: "://") { s = String(s[r.upperBound...]) }
        if s.hasPrefix("www.") { s = String(s.dropFirst(4)) }
        while s.hasSuffix("/") { s.removeLast() }
        return s
    }
}
