import CTesseract

/// One TessBaseAPI: created, loaded with its language data, quietened, and torn down in one
/// place. Owned by one engine (`OCREngine`, `OrientationDetector`), used by one thread at a time.
final class TesseractHandle {
    let api: OpaquePointer

    /// - Parameters:
    ///   - what: how errors name it ("an engine", "an orientation engine").
    ///   - hint: what to do when the data does not load.
    /// - Throws: `OCRError.engineFailed` when Tesseract cannot be created or load the data.
    init(tessdata dir: String, languages: String, mode: TessPageSegMode, what: String, hint: String) throws(OCRError) {
        guard let api = TessBaseAPICreate() else {
            throw OCRError(.engineFailed, "Tesseract could not create \(what) (out of memory?)")
        }
        guard TessBaseAPIInit3(api, dir, languages) == 0 else {
            TessBaseAPIDelete(api)
            throw OCRError(.engineFailed, "Tesseract could not load the language data '\(languages)' from \(dir); \(hint)")
        }
        // Tesseract prints notes ("Empty page!!") to stderr; send them nowhere: no card text in logs.
        _ = TessBaseAPISetVariable(api, "debug_file", "/dev/null")
        TessBaseAPISetPageSegMode(api, mode)
        self.api = api
    }

    deinit {
        TessBaseAPIEnd(api)
        TessBaseAPIDelete(api)
    }
}
