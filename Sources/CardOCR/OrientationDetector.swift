import CTesseract
import Foundation
import ImageIngest

/// Finds text turned by 90, 180 or 270 degrees with Tesseract's orientation and script detection
/// (osd.traineddata), for cards that lay rotated on the table or photos without an EXIF orientation.
///
/// Like `OCREngine`, one per worker thread, never shared.
public final class OrientationDetector {
    private let tesseract: TesseractHandle
    private var handle: OpaquePointer { tesseract.api }

    /// - Throws: `OCRError.missingLanguage` when osd.traineddata is not installed.
    public init(dataPath: String? = nil) throws(OCRError) {
        let dir = try OCREngine.locateTessdata(languages: "osd", explicit: dataPath)
        tesseract = try TesseractHandle(tessdata: dir, languages: "osd", mode: PSM_OSD_ONLY,
                                        what: "an orientation engine", hint: "reinstall tesseract-ocr-osd")
    }

    /// What Tesseract's orientation and script detection makes of an image.
    public struct Detection: Sendable, Equatable {
        /// The clockwise turn that makes the text upright, and Tesseract's confidence in it.
        public var turn: QuarterTurn
        public var confidence: Double
        /// The script most of the text is written in, as Tesseract names it ("Latin", "Han",
        /// "Japanese", "Hangul", "Katakana", "Cyrillic" ...), and its confidence.
        public var script: String
        public var scriptConfidence: Double
    }

    /// The clockwise turn that makes the text upright, and Tesseract's confidence in it; nil when
    /// there is too little text to tell.
    public func uprightRotation(of image: PixelImage) -> (turn: QuarterTurn, confidence: Double)? {
        detect(image).map { ($0.turn, $0.confidence) }
    }

    /// The text's orientation and script; nil when there is too little text to tell.
    public func detect(_ image: PixelImage) -> Detection? {
        let gray = image.grayscale()
        var degrees: Int32 = 0
        var confidence: Float = 0
        var script: UnsafePointer<CChar>?
        var scriptConfidence: Float = 0
        let ok = gray.pixels.withUnsafeBufferPointer { buf -> Int32 in
            TessBaseAPISetImage(handle, buf.baseAddress, Int32(gray.width), Int32(gray.height), 1, Int32(gray.width))
            TessBaseAPISetSourceResolution(handle, 300)
            OpenMPLimit.oneThreadHere()
            return TessBaseAPIDetectOrientationScript(handle, &degrees, &confidence, &script, &scriptConfidence)
        }
        // The script's name points into the OSD data's character set (owned by the engine).
        let name = script.map { String(cString: $0) } ?? ""
        TessBaseAPIClear(handle)
        guard ok != 0 else { return nil }
        // Tesseract reports the page's orientation counter-clockwise; turning it back is clockwise.
        return Detection(turn: QuarterTurn(degrees: 360 - Int(degrees)), confidence: Double(confidence),
                         script: name, scriptConfidence: Double(scriptConfidence))
    }
}
