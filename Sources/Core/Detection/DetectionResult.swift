import Foundation

/// A detector's answer for one image: the regions, in the pixels of the upright image it looked at, and that size,
/// so the regions can be placed on the same image at any scale (a reduced decode, a resized copy).
public struct DetectionResult: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The detector's `identifier`.
    public var detector: String
    /// The upright size of the image looked at, in pixels.
    public var imageSize: PixelSize
    /// What was found, in `imageSize`'s pixels.
    public var regions: [DetectedRegion]

    /// Creates a result.
    public init(detector: String, imageSize: PixelSize, regions: [DetectedRegion]) {
        self.detector = detector
        self.imageSize = imageSize
        self.regions = regions
    }

    /// The regions placed on the same image shown at `size` (kept inside it).
    public func regions(in size: PixelSize) -> [DetectedRegion] {
        regions.compactMap { $0.scaled(from: imageSize, to: size) }
    }

    /// Only the regions of `kinds`.
    public func filtered(to kinds: Set<RegionKind>) -> DetectionResult {
        DetectionResult(detector: detector, imageSize: imageSize, regions: regions.filter { kinds.contains($0.kind) })
    }

    /// `WxH: region; region` (for identifiers: every number that changes a crop or a blur).
    public var description: String {
        "\(imageSize):" + regions.map { "\($0.kind)@\($0.x),\($0.y),\($0.width)x\($0.height)" }.joined(separator: ";")
    }
}

extension ImageDetector {
    /// Detects in `image`'s first frame turned upright, on the compute threads: cancelled with the calling task,
    /// and ended at `deadline` (`timedOut`) even when the detector is slow to notice. Regions outside the image are
    /// cut to it, and an error that is not an `ImagoError` becomes `processingFailed` naming the detector.
    public func detect(in image: DecodedImage, deadline: ContinuousClock.Instant? = nil) async throws
        -> DetectionResult
    {
        try await DetectionRun(detector: self).run(on: image, deadline: deadline).result
    }
}
