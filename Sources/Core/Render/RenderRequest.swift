import Foundation

/// What `ImageLoader.render(_:)` makes: a source loaded, processed and encoded (or only processed), through the
/// loader's one path with its interceptors, events, limits and pixel budget.
public struct RenderRequest: Sendable {
    /// The source, its processors and how it is decoded (colour profiles, orientation, limits), as for
    /// `ImageLoader.image(for:)`. Which frames are decoded follows from the output (`RenderOutput`).
    public var image: ImageRequest
    /// What comes out.
    public var output: RenderOutput
    /// The source's encoded bytes, when the caller holds them already (an operator's fallback image): then nothing
    /// is fetched and no source policy applies.
    public var sourceData: Data?
    /// A detector the processors need (faces for `g=face`, `blurfaces`): run on the source before the plan, its
    /// answer making `image.processors`.
    public var detection: RenderDetection?

    /// A render of `image` into `output`.
    public init(image: ImageRequest, output: RenderOutput, sourceData: Data? = nil) {
        self.image = image
        self.output = output
        self.sourceData = sourceData
    }
}

/// What a render gives: encoded bytes, or the processed image itself.
public struct RenderOutput: Sendable, Hashable {
    /// Encoded bytes, or the decoded, processed image (for reports on it: `/info`).
    public enum Kind: Sendable, Hashable {
        case encoded
        case decoded
    }

    /// Encoded or decoded.
    public var kind: Kind
    /// The output format: named, or the source's own.
    public var format: RenderFormat
    /// How it is encoded; `quality` is replaced by `qualities`' entry for the format chosen, when there is one.
    public var options: EncodeOptions
    /// The quality of each format when the format is chosen by the render (the source's own).
    public var qualities: [ImageFormat: Int]
    /// Most bytes the output may have: a lossy format's quality is lowered (a binary search, at most
    /// `maxEncodes` encodes) until it fits; `limitExceeded` when even quality 10 does not, or a lossless one does
    /// not.
    public var maxBytes: Int?
    /// One frame by index; nil: every frame when the output format holds an animation, else the first.
    public var frame: Int?
    /// How the user wrote `maxBytes` (`maxb=20000`), named when it cannot be met.
    public var maxBytesSpelling: String?
    /// `q=auto`: the lowest quality within the settings' DSSIM target is searched (`QualitySearch`) instead of
    /// encoding at `options.quality`; with `.best` formats, each candidate's. A decoded render searches too, and
    /// reports the decision (`RenderResult.quality`) beside the image. A format without a quality (PNG, GIF) is a
    /// `processingFailed` error whose underlying error is the `QualityError`.
    public var autoQuality: AutoQuality?
    /// When a quality search or a best-format choice must be done: it starts no encode it expects to end after it,
    /// and answers the best found so far (`QualityDecision.stoppedEarly`).
    public var deadline: ContinuousClock.Instant?

    /// Encoded bytes in `format`.
    public init(
        format: RenderFormat, options: EncodeOptions = .default, qualities: [ImageFormat: Int] = [:],
        maxBytes: Int? = nil, frame: Int? = nil
    ) {
        self.kind = .encoded
        self.format = format
        self.options = options
        self.qualities = qualities
        self.maxBytes = maxBytes
        self.frame = frame
    }

    /// The processed image, every frame (or `frame` alone), not encoded.
    public static func decoded(frame: Int? = nil) -> RenderOutput {
        var output = RenderOutput(format: .source(among: nil, otherwise: .png), frame: frame)
        output.kind = .decoded
        return output
    }

    /// Most encodes `maxBytes` may cost.
    public static let maxEncodes = 8
}

/// The format of a render's output.
public enum RenderFormat: Sendable, Hashable {
    /// This format.
    case format(ImageFormat)
    /// The source's own format when an encoder writes it and `among` has it (nil: any), else `otherwise`.
    case source(among: Set<ImageFormat>?, otherwise: ImageFormat)
    /// The smallest output among these formats (`f=best`, `BestFormat`), tried in this order: JPEG only for an
    /// opaque image (every processed pixel's alpha 255, whatever its channels) and PNG only for one with alpha
    /// (`BestFormat.formats(accepting:hasAlpha:order:)`); each at
    /// `RenderOutput.autoQuality`, or at `options.quality` without it.
    case best(among: [ImageFormat])
}

/// A finished render.
public struct RenderResult: Sendable {
    /// The encoded output (empty for a decoded render).
    public var data: Data
    /// The output format (a decoded render: the source's).
    public var format: ImageFormat
    /// A decoded render's image, processed (and turned upright unless the request asked not to).
    public var image: DecodedImage?
    /// The source's format.
    public var sourceFormat: ImageFormat
    /// The source's EXIF orientation (1 when it has none).
    public var sourceOrientation: ImageOrientation
    /// The source's size in bytes.
    public var sourceByteCount: Int
    /// Where the source's bytes came from (`interceptor` when an interceptor answered).
    public var origin: ImageOrigin
    /// The source's `Last-Modified`, when its transport or the data-cache entry knew it.
    public var sourceLastModified: String?
    /// The frames written (or decoded).
    public var frameCount: Int
    /// Whether the frames were converted one at a time (decode one, process it, encode it), never all held.
    public var streamed: Bool
    /// What the source's decoder reported (an animation that ended early, corrupt data decoded past).
    public var warnings: [String]
    /// What the request's detector found, in the upright source's pixels (`RenderRequest.detection`).
    public var detection: DetectionResult? = nil
    /// A decoded render's container facts (`ContainerFactsReading`), by their key: `video`.
    public var containerFacts: [String: JSONValue] = [:]
    /// What a quality search or a best-format choice decided (`RenderOutput.autoQuality`, `.best`); nil otherwise.
    public var quality: QualityDecision?
    /// The encodes made, by format (a search and a best-format choice make several).
    public var encodes: [ImageFormat: Int] = [:]
}
