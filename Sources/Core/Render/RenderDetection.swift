import Foundation

/// What a render's processors need a detector for (faces for `g=face`, `blurfaces`): the detector, and how the
/// processors are made once its answer is known. The render runs it on the source's bytes it fetched (read once;
/// the answer cached with the source by `ImageLoader.detect`), within the deadline and the caller's cancellation,
/// then renders with the processors made from the answer in place of the request's.
public struct RenderDetection: Sendable {
    /// The detector asked.
    public var detector: any ImageDetector
    /// When the detection gives up (`timedOut`); the calling task's cancellation stops it too.
    public var deadline: ContinuousClock.Instant?
    /// The processors of the render, made from what the detector found (regions in the upright source's pixels).
    public var processors: @Sendable (DetectionResult) throws -> [any ImageProcessor]

    /// A detection whose answer makes the render's processors.
    public init(
        detector: any ImageDetector, deadline: ContinuousClock.Instant? = nil,
        processors: @escaping @Sendable (DetectionResult) throws -> [any ImageProcessor]
    ) {
        self.detector = detector
        self.deadline = deadline
        self.processors = processors
    }
}
