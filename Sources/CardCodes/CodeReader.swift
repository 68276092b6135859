import CZbar
import ImageIngest

/// A code found in an image: its symbology and what it holds, as bytes.
public struct DecodedCode: Sendable, Equatable {
    /// zbar's name of the symbology: "QR-Code", "EAN-13", "CODE-128" ...
    public let symbology: String
    /// The data's bytes as the code holds them (QR codes are read in zbar's binary mode: no
    /// guessing at character sets), at most `CodeReader.maxPayloadBytes`.
    public let payload: [UInt8]
    /// How many bytes the code held (more than `CodeReader.maxPayloadBytes`: `payload` is empty).
    public let length: Int

    /// The data as text: UTF-8 when the bytes are valid UTF-8 (what generators write, with or
    /// without an ECI marker); otherwise, for a QR code, ISO 8859-1, QR's own default character
    /// set (ISO/IEC 18004: segno and others write "Försäljning" so); nil for other bytes.
    /// Bytes that are neither text are refused later as binary (`CodePayload`).
    public var text: String? {
        if let utf8 = String(validating: payload, as: UTF8.self) { return utf8 }
        guard symbology == "QR-Code" else { return nil }
        return String(String.UnicodeScalarView(payload.map { Unicode.Scalar($0) }))
    }

    /// `length` is the code's size when `payload` holds none of it (an oversized code).
    public init(symbology: String, payload: [UInt8], length: Int? = nil) {
        self.symbology = symbology
        self.payload = payload
        self.length = length ?? payload.count
    }
}

/// Reads the QR codes (and the bar codes of zbar's other symbologies) in an image with libzbar.
///
/// A scanner is created for each image (zbar's scanners are not safe to share between threads,
/// and one costs microseconds), so `read` may be called from any number of threads at once.
public enum CodeReader {
    /// The most bytes of a code's data that are kept: as many as `CodePayload` reads (a QR code
    /// holds at most 2,953 bytes; zbar joins the parts of a structured-append code).
    public static let maxPayloadBytes = CodePayload.maxBytes

    /// The most codes taken from one image (a card has one or two).
    public static let maxCodes = 8

    /// How zbar looks: which symbologies, and every how many pixel rows and columns it scans.
    ///
    /// The default, QR codes on every second row and column, costs 3-7 ms on a 1024 px card and
    /// finds every code that one-row scanning finds on ../shared/eval/wild; zbar's bar codes
    /// (EAN, UPC, Code 128, ...) too cost about 2 ms more on a clean card, 7 on a noisy one.
    public struct Options: Sendable {
        /// QR codes only, or every symbology zbar reads.
        public var qrOnly = true
        public var density = 2
        public init(qrOnly: Bool = true, density: Int = 2) {
            self.qrOnly = qrOnly
            self.density = density
        }
    }

    /// Every code zbar finds in `image` (gray or colour; colour is read as its gray).
    public static func read(_ image: PixelImage, options: Options = Options()) -> [DecodedCode] {
        guard image.width >= 16, image.height >= 16 else { return [] }
        let gray = image.channels == 1 ? image : image.grayscale()
        guard let scanner = zbar_image_scanner_create() else { return [] }
        defer { zbar_image_scanner_destroy(scanner) }
        if options.qrOnly {
            zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0)
            zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_ENABLE, 1)
        } else {
            zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 1)
        }
        // The QR code's bytes as they are: zbar's guess at a character set reads UTF-8 without an
        // ECI marker (what most generators write) as Shift-JIS or Big5. `text(of:)` decodes them.
        zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_BINARY, 1)
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_X_DENSITY, Int32(options.density))
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_Y_DENSITY, Int32(options.density))
        guard let zimage = zbar_image_create() else { return [] }
        defer { zbar_image_destroy(zimage) }
        let y800 = UInt(UInt8(ascii: "Y")) | UInt(UInt8(ascii: "8")) << 8 | UInt(UInt8(ascii: "0")) << 16 | UInt(UInt8(ascii: "0")) << 24
        zbar_image_set_format(zimage, y800)
        zbar_image_set_size(zimage, UInt32(gray.width), UInt32(gray.height))
        return gray.pixels.withUnsafeBufferPointer { px -> [DecodedCode] in
            // zbar only reads the buffer, during zbar_scan_image; the image is destroyed before
            // this closure returns, so it never outlives the pixels.
            zbar_image_set_data(zimage, px.baseAddress, UInt(px.count), nil)
            guard zbar_scan_image(scanner, zimage) > 0 else { return [] }
            var codes: [DecodedCode] = []
            var symbol = zbar_image_first_symbol(zimage)
            while let s = symbol, codes.count < maxCodes {
                codes.append(decoded(s))
                symbol = zbar_symbol_next(s)
            }
            // Detach the pixels before they go out of scope.
            zbar_image_set_data(zimage, nil, 0, nil)
            return codes
        }
    }

    static func decoded(_ symbol: OpaquePointer) -> DecodedCode {
        let name = zbar_get_symbol_name(zbar_symbol_get_type(symbol)).map { String(cString: $0) } ?? "unknown"
        let length = Int(zbar_symbol_get_data_length(symbol))
        guard length <= maxPayloadBytes else { return DecodedCode(symbology: name, payload: [], length: length) }
        guard length > 0, let data = zbar_symbol_get_data(symbol) else { return DecodedCode(symbology: name, payload: []) }
        let bytes = UnsafeRawPointer(data).withMemoryRebound(to: UInt8.self, capacity: length) {
            Array(UnsafeBufferPointer(start: $0, count: length))
        }
        return DecodedCode(symbology: name, payload: bytes)
    }
}
