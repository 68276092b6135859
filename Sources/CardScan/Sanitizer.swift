import Foundation
import ImageIngest
import MetadataStripper

/// Metadata for people and scripts: what a photo carries, and sanitized copies without it.
public enum Sanitizer {
    /// What metadata a file carries; values only when `values` is true.
    public static func inspect(bytes: [UInt8], values: Bool = false) -> MetadataReport {
        MetadataReport.read(bytes, values: values)
    }

    /// The file without its metadata (JPEG and PNG, losslessly).
    /// - Throws: `ScanError` for other formats and for damaged files.
    public static func strip(bytes: [UInt8], source: String, keepOrientation: Bool = true,
                             keepICC: Bool = false) throws(ScanError) -> [UInt8] {
        do {
            return try Stripper.strip(bytes, source: source,
                                      options: StripOptions(keepOrientation: keepOrientation, keepICC: keepICC))
        } catch {
            throw ScanError(error)
        }
    }
}
