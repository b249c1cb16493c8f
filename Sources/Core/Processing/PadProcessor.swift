/// Adds a border of `background` around every frame: `top`, `right`, `bottom` and `left` pixels.
public struct PadProcessor: ImageProcessor {
    /// Border widths, in pixels (0 or more).
    public var top: Int, right: Int, bottom: Int, left: Int
    /// The border's colour, straight alpha (a transparent border makes the image one with alpha).
    public var background: RGBA
    /// Bounds on the output, checked before allocating (the border grows the image). Not part of `identifier`.
    public var limits: DecodeLimits = .default

    /// Creates a border; a negative width throws `processingFailed`.
    public init(top: Int, right: Int, bottom: Int, left: Int, background: RGBA = RGBA(255, 255, 255)) throws {
        guard [top, right, bottom, left].allSatisfy({ (0...Int(Int32.max)).contains($0) }) else {
            throw ImagoError(.processingFailed, "pad \(top):\(right):\(bottom):\(left) has a negative side")
        }
        self.top = top
        self.right = right
        self.bottom = bottom
        self.left = left
        self.background = background
    }

    /// The same border on every side.
    public init(all width: Int, background: RGBA = RGBA(255, 255, 255)) throws {
        try self.init(top: width, right: width, bottom: width, left: width, background: background)
    }

    /// `pad(T,R,B,L,RRGGBBAA)`.
    public var identifier: String { "pad(\(top),\(right),\(bottom),\(left),\(background.hex))" }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        guard [top, right, bottom, left].allSatisfy({ (0...Int(Int32.max)).contains($0) }) else {
            throw ImagoError(.processingFailed, "pad \(top):\(right):\(bottom):\(left) has a negative side")
        }
        if top == 0, right == 0, bottom == 0, left == 0 { return image }
        let width = image.width + left + right
        let height = image.height + top + bottom
        try limits.checkGrowth(
            width: width, height: height, frames: image.frames.count, sourcePixels: image.width * image.height,
            what: "pad")
        var result = try image.mappingRasters {
            try $0.placed(onCanvasOfWidth: width, height: height, x: left, y: top, background: background)
        }
        result.hasAlpha = image.hasAlpha || background.a < 255
        return result
    }
}
