import Foundation

/// What `GET /info/…` and `imago info --json` report about an image: computed on the decoded (and, with options,
/// processed) image, without encoding one.
public struct ImageInfo: Sendable, Hashable {
    /// The source's format (`jpeg`, …).
    public var format: String
    /// The upright size, in pixels.
    public var width: Int, height: Int
    /// How many frames, and how long each is shown (seconds; 0 for still images).
    public var frames: Int
    public var durations: [Double]
    /// The source's EXIF orientation, 1–8 (1 when it has none).
    public var orientation: Int
    /// Whether the image has an alpha channel or transparency.
    public var hasAlpha: Bool
    /// The description of the ICC profile the file embedded, or nil.
    public var iccProfile: String?
    /// The size of the encoded source, in bytes.
    public var bytes: Int
    /// A ThumbHash of the first frame, in standard base64.
    public var thumbhash: String
    /// A BlurHash of the first frame, 4 × 3 components.
    public var blurhash: String
    /// The source's `Last-Modified`, when its transport or the data cache gave one (not part of `json`).
    public var sourceLastModified: String?
    /// The faces a detector found, when one ran: in the output's pixels when the output is a scaled copy of the
    /// source, else (a crop) in the upright source's; `facesSize` says which.
    public var faces: [DetectedRegion]?
    /// The size `faces` are placed in.
    public var facesSize: PixelSize?
    /// What the source's container says (`video`: container, codec, size, duration, frame rate), by key.
    public var containerFacts: [String: JSONValue] = [:]
    /// What `q=auto` or `f=best` decided for the image's render (`quality` in `json`: `format`, `q`, `dssim`,
    /// `target`, `partial` and `header`, the `Imago-Quality` value); nil without either.
    public var quality: QualityDecision?

    /// The information of `image`, already upright and processed; `orientation` is the source's, `bytes` its size.
    /// Computing the hashes is CPU-bound (a shrink to at most 100 px and a few DCTs): call it off the cooperative
    /// pool.
    public init(image: DecodedImage, orientation: ImageOrientation, bytes: Int) throws {
        let (width, height) = image.orientedPixelSize
        self.format = image.format.rawValue
        self.width = width
        self.height = height
        self.frames = image.frames.count
        self.durations = image.frames.map(\.duration)
        self.orientation = orientation.rawValue
        self.hasAlpha = image.hasAlpha
        self.iccProfile = image.colorProfileDescription
        self.bytes = bytes
        let upright = try image.raster.oriented(image.orientation)
        self.thumbhash = Data(try ThumbHash.encode(upright)).base64EncodedString()
        self.blurhash = try BlurHash.encode(upright, componentsX: 4, componentsY: 3)
    }

    /// The JSON object (`format`, `width`, `height`, `frames`, `durations`, `orientation`, `hasAlpha`,
    /// `iccProfile`, `bytes`, `thumbhash`, `blurhash`; `faces` when a detector ran, each container fact such as
    /// `video`).
    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "format": .string(format), "width": .number(Double(width)), "height": .number(Double(height)),
            "frames": .number(Double(frames)), "durations": .array(durations.map { .number($0) }),
            "orientation": .number(Double(orientation)), "hasAlpha": .bool(hasAlpha),
            "iccProfile": iccProfile.map(JSONValue.string) ?? .null, "bytes": .number(Double(bytes)),
            "thumbhash": .string(thumbhash), "blurhash": .string(blurhash),
        ]
        if let faces, let facesSize {
            object["faces"] = Self.facesJSON(
                faces, in: facesSize, output: facesSize == PixelSize(width: width, height: height))
        }
        object.merge(containerFacts) { own, _ in own }
        if let quality {
            object["quality"] = .object([
                "format": .string(quality.format.rawValue), "q": quality.quality.map { .number(Double($0)) } ?? .null,
                "dssim": quality.dssim.map(JSONValue.number) ?? .null,
                "target": quality.target.map(JSONValue.number) ?? .null, "partial": .bool(quality.stoppedEarly),
                "header": .string(quality.headerValue),
            ])
        }
        return .object(object)
    }

    /// `{"in": "output" | "source", "width", "height", "regions": [{"x", "y", "width", "height", "confidence"}]}`.
    public static func facesJSON(_ faces: [DetectedRegion], in size: PixelSize, output: Bool) -> JSONValue {
        .object([
            "in": .string(output ? "output" : "source"), "width": .number(Double(size.width)),
            "height": .number(Double(size.height)),
            "regions": .array(
                faces.map { face in
                    .object([
                        "x": .number(Double(face.x)), "y": .number(Double(face.y)),
                        "width": .number(Double(face.width)), "height": .number(Double(face.height)),
                        "confidence": .number((face.confidence * 1000).rounded() / 1000),
                    ])
                }),
        ])
    }

    /// `found`'s faces placed on an output of `output` pixels when it is a scaled copy of the source (the same
    /// aspect ratio within a pixel), else in the source's upright pixels.
    public static func faces(_ found: DetectionResult, output: PixelSize) -> (regions: [DetectedRegion], in: PixelSize)
    {
        let source = found.imageSize
        let scaledWidth = Double(source.width) * Double(output.height) / Double(max(1, source.height))
        let faces = found.filtered(to: [.face])
        guard abs(scaledWidth - Double(output.width)) <= 1 else { return (faces.regions, source) }
        return (faces.regions(in: output), output)
    }

    /// The information of a decoded render (`RenderOutput.decoded()`): its processed image, the source's
    /// orientation and size. Computing the hashes is CPU-bound: call it off the cooperative pool.
    public init(rendered result: RenderResult) throws {
        guard let image = result.image else {
            throw ImagoError(.processingFailed, "no image to describe: the render was encoded, not decoded")
        }
        try self.init(image: image, orientation: result.sourceOrientation, bytes: result.sourceByteCount)
        sourceLastModified = result.sourceLastModified
        if let found = result.detection {
            (faces, facesSize) = Self.faces(found, output: PixelSize(width: width, height: height))
        }
        containerFacts = result.containerFacts
        quality = result.quality
    }

    /// Renders `request`'s source with `loader` (decoded, processed by its processors, never encoded) and
    /// reports on it.
    public static func load(_ request: ImageRequest, loader: ImageLoader) async throws -> ImageInfo {
        let result = try await loader.render(RenderRequest(image: request, output: .decoded()))
        return try await WorkExecutor.compute.run { try ImageInfo(rendered: result) }
    }
}
