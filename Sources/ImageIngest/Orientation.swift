/// How a photo's stored pixels are turned or mirrored for display: the EXIF orientation, 1-8.
public enum ImageOrientation: Int, Sendable, CaseIterable {
    case up = 1, upMirrored, down, downMirrored, leftMirrored, right, rightMirrored, left

    /// The orientation an EXIF value gives; `up` for none or a value out of range.
    public init(exif value: Int?) { self = value.flatMap(ImageOrientation.init(rawValue:)) ?? .up }

    /// True for 5-8: the stored width is the displayed height.
    public var swapsAxes: Bool { rawValue >= 5 }
}

/// A clockwise turn by a multiple of 90 degrees.
public enum QuarterTurn: Int, Sendable, CaseIterable {
    case none = 0, quarter = 90, half = 180, threeQuarters = 270

    /// Any multiple of 90 degrees, negative ones and full turns included.
    public init(degrees: Int) { self = QuarterTurn(rawValue: (((degrees % 360) + 360) % 360) / 90 * 90) ?? .none }

    public var degrees: Int { rawValue }

    /// This turn followed by `other`.
    public func then(_ other: QuarterTurn) -> QuarterTurn { QuarterTurn(degrees: degrees + other.degrees) }

    /// The orientation that turns stored pixels this way.
    public var orientation: ImageOrientation {
        switch self {
        case .none: return .up
        case .quarter: return .right
        case .half: return .down
        case .threeQuarters: return .left
        }
    }
}
