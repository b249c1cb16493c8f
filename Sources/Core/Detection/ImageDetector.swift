import Foundation

/// Finds regions of interest in an image (faces, objects), so processing can keep them in a crop or hide them.
///
/// A detector is handed an upright raster (the first frame, its EXIF orientation applied) and answers with the regions
/// it found, in that raster's pixels. It runs on a compute thread, never on the cooperative pool, and checks its
/// `DetectionContext` between the steps of its work, so a load that is cancelled or past its deadline stops it.
/// Detection must be deterministic: the loader keeps an answer with the source's bytes, under `identifier`, and gives
/// it again for the same bytes (also across a fleet, through the data cache).
public protocol ImageDetector: Sendable {
    /// A stable identifier naming the detector and every setting that changes its answer, for example
    /// `"faces(haar,frontal+profile,640)"`: the key of cached answers.
    var identifier: String { get }
    /// The kinds of region it reports (`face`, …).
    var kinds: Set<RegionKind> { get }
    /// The longest side, in pixels, the detector works at: the loader may decode the source at a reduced scale, no
    /// smaller than this, before detecting; `nil` asks for the full size.
    var workingSize: Int? { get }

    /// The regions found in `raster` (upright), each inside it, with a kind from `kinds` and a confidence in 0…1.
    /// Throws `ImagoError`: `cancelled` or `timedOut` when `context` says so, `processingFailed` for anything else.
    func detect(in raster: Raster, context: DetectionContext) throws -> [DetectedRegion]
}

extension ImageDetector {
    /// The full size, unless the detector says otherwise.
    public var workingSize: Int? { nil }
}

/// What a detector finds: `face`, or any name a detector reports (`"cat"`, `"text"`).
public struct RegionKind: RawRepresentable, Sendable, Hashable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String

    /// Creates a kind.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Creates a kind.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }

    /// A human face, frontal or in profile.
    public static let face: RegionKind = "face"
}

/// One region a detector found: a rectangle in the pixels of the image it looked at, a kind and a confidence.
public struct DetectedRegion: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What was found.
    public var kind: RegionKind
    /// The rectangle: left, top, width and height in pixels.
    public var x: Int, y: Int, width: Int, height: Int
    /// How sure the detector is, 0…1 (each detector documents its scale).
    public var confidence: Double

    /// Creates a region.
    public init(kind: RegionKind, x: Int, y: Int, width: Int, height: Int, confidence: Double) {
        self.kind = kind
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.confidence = confidence
    }

    /// `face 10,20 30x40 0.85`.
    public var description: String {
        "\(kind) \(x),\(y) \(width)x\(height) \((confidence * 100).rounded() / 100)"
    }

    /// Pixels covered.
    public var area: Int { width * height }

    /// Whether the rectangle is non-empty and inside `size`.
    public func isInside(_ size: PixelSize) -> Bool {
        width > 0 && height > 0 && x >= 0 && y >= 0 && x + width <= size.width && y + height <= size.height
    }

    /// The part inside `size`, or nil when nothing of it is.
    public func clamped(to size: PixelSize) -> DetectedRegion? {
        let left = max(0, x)
        let top = max(0, y)
        let right = min(size.width, x + width)
        let bottom = min(size.height, y + height)
        guard left < right, top < bottom else { return nil }
        return DetectedRegion(
            kind: kind, x: left, y: top, width: right - left, height: bottom - top,
            confidence: min(max(confidence, 0), 1))
    }

    /// The same region in an image of `size` when it was found in one of `source`'s size (each axis scaled on its
    /// own, rounded outwards so a region never shrinks), kept inside `size`.
    public func scaled(from source: PixelSize, to size: PixelSize) -> DetectedRegion? {
        guard source != size else { return clamped(to: size) }
        guard source.width > 0, source.height > 0 else { return nil }
        let sx = Double(size.width) / Double(source.width)
        let sy = Double(size.height) / Double(source.height)
        let left = (Double(x) * sx).rounded(.down)
        let top = (Double(y) * sy).rounded(.down)
        let right = (Double(x + width) * sx).rounded(.up)
        let bottom = (Double(y + height) * sy).rounded(.up)
        return DetectedRegion(
            kind: kind, x: Int(left), y: Int(top), width: Int(right - left), height: Int(bottom - top),
            confidence: confidence
        ).clamped(to: size)
    }

    /// The intersection over union of two rectangles: 0 when apart, 1 when equal.
    public func overlap(with other: DetectedRegion) -> Double {
        let width = min(x + self.width, other.x + other.width) - max(x, other.x)
        let height = min(y + self.height, other.y + other.height) - max(y, other.y)
        guard width > 0, height > 0 else { return 0 }
        let shared = Double(width * height)
        return shared / (Double(area + other.area) - shared)
    }
}

/// What a detector checks between the steps of its work: whether its caller still wants the answer, and by when.
public struct DetectionContext: Sendable {
    /// When the answer is no longer wanted; nil: no deadline.
    public let deadline: ContinuousClock.Instant?
    private let cancelled: @Sendable () -> Bool

    /// Creates a context; `isCancelled` is asked at each checkpoint (from the detector's thread).
    public init(deadline: ContinuousClock.Instant? = nil, isCancelled: @escaping @Sendable () -> Bool = { false }) {
        self.deadline = deadline
        self.cancelled = isCancelled
    }

    /// Whether the caller has gone.
    public var isCancelled: Bool { cancelled() }

    /// Throws `cancelled` when the caller has gone and `timedOut` past the deadline; call it between steps.
    public func checkpoint() throws(ImagoError) {
        if cancelled() { throw ImagoError(.cancelled, "cancelled") }
        if let deadline, ContinuousClock.now >= deadline {
            throw ImagoError(.timedOut, "detection ran past its deadline")
        }
    }
}
