/// Limits checked from the header before any large allocation, against hostile input.
public struct ImageLimits: Sendable, Equatable {
    /// Largest pixel count accepted (width x height as stored). Default 100 megapixels.
    public var maxPixels: Int
    /// Largest encoded input accepted, in bytes. Default 256 MiB.
    public var maxBytes: Int
    /// Most memory one decode may take (`EncodedImage.decodeCost`), in bytes. Default 192 MiB:
    /// a 12 MP photo takes 30-90 MB; a compressed bomb (a 100 MP fax TIFF of 6 KB) is refused
    /// from its header. Scanners share it between workers, so the total stays within it.
    public var maxDecodeBytes: Int

    public init(maxPixels: Int = 100_000_000, maxBytes: Int = 256 << 20, maxDecodeBytes: Int = 192 << 20) {
        self.maxPixels = maxPixels
        self.maxBytes = maxBytes
        self.maxDecodeBytes = maxDecodeBytes
    }
}
