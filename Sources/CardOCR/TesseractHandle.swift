import CTesseract
import CTesseractLean
import Foundation

/// One TessBaseAPI: created, loaded with its language data, quietened, and torn down in one
/// place. Owned by one engine (`OCREngine`, `OrientationDetector`), used by one thread at a time.
final class TesseractHandle {
    let api: OpaquePointer

    /// - Parameters:
    ///   - what: how errors name it ("an engine", "an orientation engine").
    ///   - hint: what to do when the data does not load.
    ///   - skipUniversalAmbiguities: leave out the table of character confusions only Tesseract's
    ///     legacy recogniser consults (see `CTesseractLean`); only for language data without one.
    /// - Throws: `OCRError.engineFailed` when Tesseract cannot be created or load the data.
    init(tessdata dir: String, languages: String, mode: TessPageSegMode, what: String, hint: String,
         skipUniversalAmbiguities: Bool = false) throws(OCRError) {
        guard let api = TessBaseAPICreate() else {
            throw OCRError(.engineFailed, "Tesseract could not create \(what) (out of memory?)")
        }
        if skipUniversalAmbiguities { cs_tesseract_ambigs_skip_begin() }
        let loaded = TessBaseAPIInit3(api, dir, languages)
        if skipUniversalAmbiguities { cs_tesseract_ambigs_skip_end() }
        guard loaded == 0 else {
            TessBaseAPIDelete(api)
            throw OCRError(.engineFailed, "Tesseract could not load the language data '\(languages)' from \(dir); \(hint)")
        }
        // Tesseract prints notes ("Empty page!!") to stderr; send them nowhere: no card text in logs.
        _ = TessBaseAPISetVariable(api, "debug_file", "/dev/null")
        TessBaseAPISetPageSegMode(api, mode)
        self.api = api
    }

    /// Sets one of Tesseract's variables (names and values are Tesseract's own).
    func set(_ name: String, _ value: String) {
        _ = TessBaseAPISetVariable(api, name, value)
    }

    /// One of Tesseract's boolean variables; nil when it has no such variable.
    func bool(_ name: String) -> Bool? {
        var value: Int32 = 0
        return TessBaseAPIGetBoolVariable(api, name, &value) != 0 ? value != 0 : nil
    }

    deinit {
        TessBaseAPIEnd(api)
        TessBaseAPIDelete(api)
    }
}

/// libtesseract is built with OpenMP on Debian: parts of each reading fan out over as many threads
/// as Tesseract asks for, while cardscan already reads one card per core. Unless the environment
/// sets OMP_THREAD_LIMIT (the user's own choice, which OpenMP reads when the library loads), the
/// parallel regions a reading opens run on the reading's thread alone: OpenMP's max-active-levels
/// is set to 0 for that thread (an OpenMP setting each thread keeps for itself) before each call
/// into Tesseract. Without this, N workers run N x cores busy threads (7x slower per card).
enum OpenMPLimit {
    /// `omp_set_max_active_levels`, where libtesseract brought OpenMP in; 0 where it did not.
    private static let setMaxActiveLevels: UInt = {
        guard getenv("OMP_THREAD_LIMIT") == nil else { return 0 }
        return UInt(bitPattern: dlsym(UnsafeMutableRawPointer(bitPattern: 0), "omp_set_max_active_levels"))
    }()

    /// Makes the OpenMP regions opened on this thread from now on run on this thread alone.
    static func oneThreadHere() {
        guard let symbol = UnsafeRawPointer(bitPattern: setMaxActiveLevels) else { return }
        typealias SetLevels = @convention(c) (Int32) -> Void
        unsafeBitCast(symbol, to: SetLevels.self)(0)
    }
}
