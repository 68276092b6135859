import CardDetection
import CardFormats
import CardOCR
import ContactParser
import FileAccess
import Foundation
import ImageIngest
import MetadataStripper

/// The result of scanning one input: a contact, or an error saying why there is none.
public struct ScanRecord: Sendable {
    /// The input as the user named it ("-" for stdin, "-#2" for the second image of a stream).
    public var source: String
    /// What came of the input: a contact, or the error that stopped it. Status, error and
    /// contact are read from it, so they cannot disagree.
    public var outcome: Outcome
    public var image: ImageSummary?
    public var metadata: MetadataReport?
    public var warnings: [String] = []
    /// What was asked besides the record and could not be written (the sanitized copy of
    /// --strip-to, the pictures of --debug-dir); also among `warnings`. The CLI exits 1 for them.
    public var outputErrors: [ScanError] = []
    /// Milliseconds per stage.
    public var timings = StageTimings()
    /// Where each field of the contact came from: "qr" (a code on the card) or "ocr".
    public var sources: [Contact.Field: String] = [:]
    /// The codes found on the card (or, when no card outline was found, in the photo).
    public var codes: [CodeSummary] = []
    /// The straightened card as a small JPEG, when `ScanConfiguration.cardPictures` asks for it
    /// (for the review page; never part of the JSON record).
    public var cardPicture: CardPicture?
    /// The OCR text, when `ScanConfiguration.keepText` asks for it (never part of the JSON record).
    public var text: String?
    /// The photo's SHA-256 (hex), when `ScanConfiguration.fingerprints` asks for it (never part of the JSON record).
    public var fingerprint: String?
    /// The id of the contact the record went to in the contact book (--db), for the review page
    /// (never part of the JSON record).
    public var bookID: Int64?

    public enum Outcome: Sendable {
        /// The photo was read; the contact holds what its text says (possibly little).
        case scanned(Contact)
        /// The input could not be read, decoded or recognised.
        case failed(ScanError)
    }

    /// What came of an input, as the record's "status" says it.
    public enum Status: String, Sendable {
        /// A contact was read (possibly with few fields).
        case ok
        /// The input failed (see the error).
        case error
        /// The photo shows no card, and no contact field was found in it: no contact.
        case noCard = "no-card"
    }

    public init(source: String, outcome: Outcome) {
        self.source = source
        self.outcome = outcome
    }

    /// A record for an input that was read.
    public static func scanned(_ source: String, _ contact: Contact) -> ScanRecord {
        ScanRecord(source: source, outcome: .scanned(contact))
    }

    /// A record for an input that failed.
    public static func failure(_ source: String, _ error: ScanError) -> ScanRecord {
        ScanRecord(source: source, outcome: .failed(error))
    }

    public var status: Status {
        guard case .scanned(let contact) = outcome else { return .error }
        return image?.cardDetected == false && contact.hasNoField ? .noCard : .ok
    }

    /// The contact of a scanned input; nil for a failed one and for a photo without a card.
    public var contact: Contact? {
        if case .scanned(let contact) = outcome, status != .noCard { return contact }
        return nil
    }

    /// The error of a failed input; nil for a scanned one.
    public var error: ScanError? {
        if case .failed(let error) = outcome { return error }
        return nil
    }
}

/// What the record says about the image.
public struct ImageSummary: Sendable, Equatable {
    public var format: ImageFormat
    public var width: Int
    public var height: Int
    public var orientation: ImageOrientation
    public var ocrWidth: Int
    public var ocrHeight: Int
    public var cardDetected: Bool
    /// How the card was found, where its corners are in the upright photo, and how sure that is.
    public var card: CardPlacement?
    /// Clockwise turn applied after EXIF orientation because the text itself lay turned.
    public var textRotation: QuarterTurn
}

/// The stages of a scan, in the order they run (and are printed in `timingsMs`).
public enum Stage: String, Sendable, CaseIterable {
    /// Decoding the photo (at the scale the card needs).
    case decode
    /// Reading what metadata the photo carries (and writing a --strip-to copy). The pixels
    /// that reach OCR never carry metadata: they are decoded, not copied.
    case metadata
    /// Finding and straightening the card.
    case detect
    /// Tesseract's readings (the second one in the card's language included).
    case ocr
    /// Looking for QR codes (and bar codes) on the card, and reading what they hold.
    case codes
    /// Turning the text into a contact.
    case parse
    /// The whole scan of the input, reading the file included.
    case total
}

/// Milliseconds per stage; stages not run are absent.
public struct StageTimings: Sendable, Equatable {
    private var values: [Stage: Double] = [:]

    public init() {}

    public subscript(stage: Stage) -> Double? {
        get { values[stage] }
        set { values[stage] = newValue }
    }

    /// Adds to a stage's time (a second reading adds to `ocr`).
    public mutating func add(_ milliseconds: Double, to stage: Stage) { values[stage, default: 0] += milliseconds }

    public var isEmpty: Bool { values.isEmpty }

    /// The measured stages in pipeline order.
    public var measured: [(stage: Stage, milliseconds: Double)] {
        Stage.allCases.compactMap { stage in values[stage].map { (stage, $0) } }
    }
}

/// Why an input produced no contact: a stable code and a sentence a person can act on.
public struct ScanError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stable codes of `error.code` in records (the README lists them).
    public enum Code: String, Sendable, CaseIterable {
        /// No such file, permissions, a link loop, an unreadable folder or list.
        case unreadable
        /// A FIFO, socket, device or folder named as an image.
        case notAFile = "not-a-file"
        case notAnImage = "not-an-image"
        case unsupportedFormat = "unsupported-format"
        case corruptImage = "corrupt-image"
        /// Bytes, pixels or decode memory over the limit.
        case tooLarge = "too-large"
        case emptyInput = "empty-input"
        case missingLanguage = "missing-language"
        case ocrFailed = "ocr-failed"
        /// An output asked for (a sanitized copy, a debug picture) could not be written.
        case writeFailed = "write-failed"
        case encodeFailed = "encode-failed"
        case interrupted
    }

    public var code: Code
    public var message: String
    public init(_ code: Code, _ message: String) { self.code = code; self.message = message }
    public var description: String { message }

    /// A file problem as a record's error; the message names the file.
    public init(_ error: FileError) {
        switch error.code {
        case .tooLarge: code = .tooLarge
        case .notRegular, .isDirectory: code = .notAFile
        case .interrupted: code = .interrupted
        case .writeFailed, .exists: code = .writeFailed
        default: code = .unreadable
        }
        message = error.description
    }

    /// A decoding problem; the message names the file.
    public init(_ error: IngestError) {
        switch error.code {
        case .unreadable: code = .unreadable
        case .notAnImage: code = .notAnImage
        case .unsupportedFormat: code = .unsupportedFormat
        case .corrupt: code = .corruptImage
        case .tooLarge: code = .tooLarge
        case .empty: code = .emptyInput
        case .encodeFailed: code = .encodeFailed
        }
        message = error.description
    }

    /// A stripping problem; the message names the file.
    public init(_ error: StripError) {
        switch error.code {
        case .unsupportedFormat: code = .unsupportedFormat
        case .damaged: code = .corruptImage
        case .notAnImage: code = .notAnImage
        }
        message = error.description
    }

    /// An OCR problem, for `source`.
    public init(_ error: OCRError, source: String? = nil) {
        switch error.code {
        case .missingLanguage: code = .missingLanguage
        case .engineFailed: code = .ocrFailed
        }
        message = source.map { "\($0): \(error.message)" } ?? error.message
    }
}

extension ScanRecord {
    /// The record as the JSON object of the documented output schema.
    public func json() -> JSONValue {
        var pairs: [(String, JSONValue)] = [("source", .string(source)), ("status", .string(status.rawValue))]
        switch outcome {
        case .failed(let error):
            pairs.append(("error", .object([("code", .string(error.code.rawValue)), ("message", .string(error.message))])))
        case .scanned where status == .noCard:
            break
        case .scanned(let contact):
            pairs.append(("contact", contact.json()))
            let conf = contact.confidence.sorted { $0.key < $1.key }.map { ($0.key.rawValue, JSONValue.rounded($0.value, places: 2)) }
            pairs.append(("confidence", .object(conf)))
            pairs.append(("sources", .object(sources.sorted { $0.key < $1.key }.map { ($0.key.rawValue, .string($0.value)) })))
        }
        if let image {
            pairs.append(("image", .object([
                ("format", .string(image.format.rawValue)), ("width", .integer(image.width)),
                ("height", .integer(image.height)), ("orientation", .integer(image.orientation.rawValue)),
                ("ocrWidth", .integer(image.ocrWidth)), ("ocrHeight", .integer(image.ocrHeight)),
                ("cardDetected", .bool(image.cardDetected)), ("textRotation", .integer(image.textRotation.degrees)),
                ("codes", .array(codes.map { code in
                    .object([("type", .string(code.symbology)), ("contact", .optional(code.contact)), ("foundIn", .string(code.foundIn))])
                })),
                ("card", image.card.map { card in
                    .object([
                        ("found", .string(card.method.rawValue)),
                        ("corners", card.corners.map { .array($0.map { .array([.integer(Int($0.x)), .integer(Int($0.y))]) }) } ?? .null),
                        ("confidence", .rounded(card.confidence, places: 2)),
                    ])
                } ?? .null),
            ])))
        }
        if let metadata {
            pairs.append(("metadata", .object([
                ("removed", .array(metadata.kinds.map { .string($0.rawValue) })),
                ("hadLocation", .bool(metadata.hadLocation)),
            ])))
        }
        if !warnings.isEmpty { pairs.append(("warnings", .array(warnings.map { .string($0) }))) }
        if !timings.isEmpty {
            pairs.append(("timingsMs", .object(timings.measured.map { ($0.stage.rawValue, .rounded($0.milliseconds, places: 1)) })))
        }
        return .object(pairs)
    }
}
