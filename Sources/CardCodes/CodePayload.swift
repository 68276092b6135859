import CardFormats
import ContactParser
import Foundation

/// The contact data a code on a card holds.
public struct CodeContact: Sendable, Equatable {
    /// What the code held: a vCard (2.1, 3.0 or 4.0), a MeCard, a BIZCARD, or a single web
    /// address, e-mail address (mailto:, MATMSG:) or phone number (tel:).
    public enum Kind: String, Sendable {
        case vcard, mecard, bizcard, url, email, phone
    }

    public let kind: Kind
    /// The fields the code holds, each with confidence 1.0; the others are empty.
    public var contact: Contact

    /// The fields the code holds.
    public var fields: [Contact.Field] { Contact.Field.allCases.filter { contact.confidence[$0] != nil } }
}

/// Reads the contact data of a code's payload. Bounded against hostile payloads: too many bytes,
/// binary data, text that is not UTF-8, thousands of entries or vCards nested in vCards are
/// refused with a `CodeError` (the caller keeps the OCR record).
public enum CodePayload {
    /// The most bytes read (a QR code holds at most 2,953).
    public static let maxBytes = 8192
    /// The most lines (vCard) or fields (MeCard) read.
    public static let maxEntries = PayloadLimits.maxEntries
    /// The most phone numbers, e-mail or web addresses a payload may hold.
    public static let maxValuesPerField = PayloadLimits.maxValuesPerField
    /// The deepest a vCard may hold other vCards (AGENT).
    public static let maxNesting = PayloadLimits.maxNesting

    /// The contact data of `bytes`, reading national phone numbers as `region`'s (ISO 3166) when
    /// the payload names no country; nil when the payload is not contact data (a product number,
    /// plain text).
    public static func parse(_ bytes: [UInt8], region: String?) throws(CodeError) -> CodeContact? {
        try checkSize(bytes.count)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CodeError(.invalidText, "the code's data is not UTF-8 text")
        }
        return try parse(text, region: region)
    }

    /// `parse(_:region:)` for a payload already decoded as text.
    public static func parse(_ text: String, region: String?) throws(CodeError) -> CodeContact? {
        try checkSize(text.utf8.count)
        if let bad = text.unicodeScalars.first(where: isBinary) {
            throw CodeError(.binary, "the code's data holds control character U+\(String(bad.value, radix: 16, uppercase: true)); it is not text")
        }
        let payload = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let head = payload.prefix(12).uppercased()
        var builder = ContactBuilder(region: region)
        let kind: CodeContact.Kind
        do throws(FormatError) {
            guard let read = try read(payload, head: head, into: &builder) else { return nil }
            kind = read
        } catch {
            throw CodeError(error)
        }
        let contact = builder.finish()
        return contact.confidence.isEmpty ? nil : CodeContact(kind: kind, contact: contact)
    }

    /// Reads the payload by its kind (the shared vCard and MeCard readers of CardFormats); nil
    /// when it is no contact data.
    static func read(_ payload: String, head: String, into builder: inout ContactBuilder) throws(FormatError) -> CodeContact.Kind? {
        let kind: CodeContact.Kind
        if head.hasPrefix("BEGIN:VCARD") {
            try VCard.read(payload, into: &builder)
            kind = .vcard
        } else if head.hasPrefix("MECARD:") {
            try MeCard.read(payload, into: &builder)
            kind = .mecard
        } else if head.hasPrefix("BIZCARD:") {
            try MeCard.readBizcard(payload, into: &builder)
            kind = .bizcard
        } else if let single = try singleValue(payload, head: head, into: &builder) {
            kind = single
        } else {
            return nil
        }
        return kind
    }

    /// Refuses a payload of more than `maxBytes` bytes.
    public static func checkSize(_ count: Int) throws(CodeError) {
        guard count <= maxBytes else { throw CodeError(.oversized, "the code holds \(count) bytes; at most \(maxBytes) are read") }
    }

    /// A payload that is one address or number: "https://...", "www...", "mailto:...", "MATMSG:TO:...;;", "tel:...".
    static func singleValue(_ payload: String, head: String, into builder: inout ContactBuilder) throws(FormatError) -> CodeContact.Kind? {
        let isOneToken = !payload.contains(where: \.isWhitespace)
        if head.hasPrefix("MAILTO:"), isOneToken {
            let address = payload.dropFirst(7).split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
            try builder.addEmail(address.removingPercentEncoding ?? address)
            return .email
        }
        if head.hasPrefix("MATMSG:") {
            let fields = try MeCard.fields(of: payload.dropFirst(7))
            guard let to = fields.first(where: { $0.key == "TO" }) else { return nil }
            try builder.addEmail(to.value)
            return .email
        }
        if head.hasPrefix("TEL:"), isOneToken {
            let number = String(payload.dropFirst(4))
            try builder.addPhone(number.removingPercentEncoding ?? number, types: [])
            return .phone
        }
        if (head.hasPrefix("HTTP://") || head.hasPrefix("HTTPS://") || head.hasPrefix("WWW.")), isOneToken {
            try builder.addURL(payload)
            return .url
        }
        return nil
    }

    /// True for characters text does not hold: C0 controls but tab and line breaks, DEL, C1
    /// controls, and U+FFFD (bytes a decoder could not read).
    static func isBinary(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x09, 0x0A, 0x0D: return false
        case 0x00...0x1F, 0x7F...0x9F, 0xFFFD: return true
        default: return false
        }
    }
}
