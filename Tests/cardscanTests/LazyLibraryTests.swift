import Foundation
import Testing
import TestSupport

/// libheif and its codecs (x265, libde265, dav1d, libaom) are loaded the first time a HEIF file
/// arrives, not by every run (`CHeifShim`): checked on the built binary's file opens.
@Suite struct LazyLibraryTests {
    /// Whether libheif was opened: a line naming it that is not a failed search of the run path
    /// (ENOENT). With threads strace may split one call over two lines, so lines are not counted.
    static func opensLibheif(_ trace: String) -> Bool {
        trace.split(separator: "\n").contains { $0.contains("libheif.so") && !$0.contains("ENOENT") }
    }

    @Test func libheifIsLoadedOnlyWhenAHEIFFileArrives() throws {
        guard let (jpeg, jpegTrace) = try NetworkLockdownTests.traced("openat,open", ["scan", "-q", TestPaths.cards.path]) else { return }
        #expect(jpeg.status == 0)
        #expect(!jpegTrace.contains("libheif"), "libheif was looked for while scanning a folder of JPEGs")
        #expect(!jpegTrace.contains("libde265"))

        // A HEIF container's start (an ftyp box of brand heic) with nothing after it: libheif is
        // loaded to read it, and says it is damaged.
        let heif = Data([0, 0, 0, 0x18] + Array("ftypheic".utf8) + [UInt8](repeating: 0, count: 64))
        guard let (result, trace) = try NetworkLockdownTests.traced("openat,open", ["scan", "-"], stdin: heif) else { return }
        #expect(result.status == 1)
        #expect(Self.opensLibheif(trace), "libheif was not loaded for a HEIF file")
    }
}
