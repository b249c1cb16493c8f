/// Blends each colour channel towards a colour by its own percentage: thumbor's `colorize(R%,G%,B%,RRGGBB)`
/// (`(value × (100 − p) + colour × p) / 100`, truncated). Alpha is kept.
public struct ColorizeProcessor: ImageProcessor {
    /// The allowed percentages.
    public static let percentRange: ClosedRange<Int> = 0...100

    /// How much of `colour` goes into red, green and blue, in percent.
    public let redPercent: Int, greenPercent: Int, bluePercent: Int
    /// The colour blended in (its alpha is ignored).
    public let colour: RGBA

    /// Creates the processor; a percentage outside 0…100 throws `processingFailed`.
    public init(redPercent: Int, greenPercent: Int, bluePercent: Int, colour: RGBA) throws {
        for percent in [redPercent, greenPercent, bluePercent] where !Self.percentRange.contains(percent) {
            throw ImagoError(.processingFailed, "colorize: \(percent) % is not within 0…100")
        }
        (self.redPercent, self.greenPercent, self.bluePercent) = (redPercent, greenPercent, bluePercent)
        self.colour = RGBA(colour.r, colour.g, colour.b)
    }

    /// `colorize(R,G,B,RRGGBBAA)`.
    public var identifier: String { "colorize(\(redPercent),\(greenPercent),\(bluePercent),\(colour.hex))" }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        let blends = [(redPercent, colour.r), (greenPercent, colour.g), (bluePercent, colour.b)]
        let tables = blends.map { percent, target in
            (0...255).map { value in
                UInt8(clamping: Int((Double(value * (100 - percent)) + Double(Int(target) * percent)) / 100))
            }
        }
        return try image.mappingRasters { raster in
            try raster.mappingColours(through: tables)
        }
    }
}

extension ColorizeProcessor: FrameWiseProcessing {
    /// Always: each frame is mapped alike.
    public var processesFramesIndependently: Bool { true }
}
