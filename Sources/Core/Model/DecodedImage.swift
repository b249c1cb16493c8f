import Foundation

/// One frame of an image: a fully composited canvas and how long it is shown.
public struct ImageFrame: Sendable, Equatable {
    /// The canvas, composited as a browser shows it (for animations, after disposal and blending).
    public var raster: Raster
    /// How long the frame is shown, in seconds (0 for still images).
    public var duration: Double

    /// Creates a frame.
    public init(raster: Raster, duration: Double = 0) {
        self.raster = raster
        self.duration = duration
    }
}

/// A decoded image: one frame for a still image, several for an animation, with what the encoding said about it.
public struct DecodedImage: Sendable, Equatable {
    /// The frames, in display order; never empty.
    public var frames: [ImageFrame]
    /// How many times an animation plays; 0 means forever (and still images report 0).
    public var loopCount: Int
    /// The format the image was decoded from.
    public var format: ImageFormat
    /// The EXIF orientation of the stored pixels (`.up` when absent or already applied).
    public var orientation: ImageOrientation
    /// Whether the image has an alpha channel or transparency.
    public var hasAlpha: Bool
    /// The size of the encoded bytes it was decoded from (0 when it was made in memory).
    public var encodedSize: Int
    /// Pixels per point for display (2 for @2x images); the UI size is the pixel size divided by it.
    public var scale: Double
    /// What the decoder tolerated (corrupt data it decoded past, a malformed colour profile it ignored), in the
    /// library's words; empty for a clean file. `DecodeOptions.strict` turns these into errors.
    public var warnings: [String]
    /// The ICC profile the pixels are in, when it was kept (`ColorProfileHandling.keep`); nil means sRGB.
    public var iccProfile: Data?
    /// The description of the profile the file embedded (converted or kept), nil when it had none.
    public var colorProfileDescription: String?

    /// Creates an image; `frames` must not be empty.
    public init(
        frames: [ImageFrame], loopCount: Int = 0, format: ImageFormat, orientation: ImageOrientation = .up,
        hasAlpha: Bool, encodedSize: Int = 0, scale: Double = 1
    ) {
        precondition(!frames.isEmpty, "an image has at least one frame")
        self.frames = frames
        self.loopCount = loopCount
        self.format = format
        self.orientation = orientation
        self.hasAlpha = hasAlpha
        self.encodedSize = encodedSize
        self.scale = scale
        self.warnings = []
        self.iccProfile = nil
        self.colorProfileDescription = nil
    }

    /// A still image of one raster.
    public init(raster: Raster, format: ImageFormat, hasAlpha: Bool? = nil, encodedSize: Int = 0) {
        self.init(
            frames: [ImageFrame(raster: raster)], format: format,
            hasAlpha: hasAlpha ?? raster.hasTransparency, encodedSize: encodedSize)
    }

    /// The first frame's canvas: the still image, or an animation's poster.
    public var raster: Raster { frames[0].raster }
    /// Width of the stored pixels (before orientation).
    public var width: Int { raster.width }
    /// Height of the stored pixels (before orientation).
    public var height: Int { raster.height }
    /// Whether there is more than one frame.
    public var isAnimated: Bool { frames.count > 1 }
    /// Bytes of memory all frames take: what a memory cache charges for it.
    public var cost: Int { frames.reduce(0) { $0 + $1.raster.cost } }
    /// The size shown upright (width and height swapped for orientations 5–8), in pixels.
    public var orientedPixelSize: (width: Int, height: Int) {
        orientation.swapsDimensions ? (height, width) : (width, height)
    }
    /// The size shown upright, in points (pixels divided by `scale`).
    public var pointSize: (width: Double, height: Double) {
        let size = orientedPixelSize
        return (Double(size.width) / scale, Double(size.height) / scale)
    }
    /// Frame durations in seconds.
    public var durations: [Double] { frames.map(\.duration) }
}
