/// Limits checked from the header before any large allocation, against hostile input.
public struct ImageLimits: Sendable, Equatable {
    /// Largest pixel count accepted (width x height as stored). Default 100 megapixels.
    public var maxPixels: Int
    /// Largest encoded input accepted, in bytes. Default 256 MiB.
    public var maxBytes: Int

    public init(maxPixels: Int = 100_000_000, maxBytes: Int = 256 << 20) {
        self.maxPixels = maxPixels
        self.maxBytes = maxBytes
    }
}
