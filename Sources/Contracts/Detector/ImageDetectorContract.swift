import ImagoCore

/// An image the detector suite shows a detector, with the regions it must find there.
public struct DetectorSample: Sendable {
    /// For failure messages, for example `"astronaut"`.
    public var name: String
    /// The upright image.
    public var raster: Raster
    /// Regions the detector must find (each matched by a found region of its kind overlapping it by at least the
    /// contract's `minimumOverlap`); confidences are ignored. More regions may be found.
    public var expected: [DetectedRegion]

    /// Creates a sample.
    public init(name: String, raster: Raster, expected: [DetectedRegion]) {
        self.name = name
        self.raster = raster
        self.expected = expected
    }
}

/// The promises of an `ImageDetector`: regions inside the image and of its kinds, the same answer for the same
/// pixels, nothing on a flat image, cancellation and deadlines honoured, concurrency, `ImagoError`s only.
///
/// ```swift
/// let contract = ImageDetectorContract(
///     makeDetector: { MarkerDetector() },
///     samples: [DetectorSample(name: "two markers", raster: raster, expected: [marker1, marker2])])
/// let report = await contract.run()
/// #expect(report.passed, "\(report)")
/// ```
public struct ImageDetectorContract: PluginContract {
    /// The checks, by name.
    public enum Check: String, CaseIterable, Sendable {
        case describesItself = "has a stable, non-empty identifier and declares its kinds"
        case findsExpectedRegions = "finds the expected regions in its samples"
        case reportsValidRegions = "reports regions inside the image, of its kinds, with confidences in 0…1"
        case isDeterministic = "gives the same regions for the same pixels"
        case findsNothingOnFlatImages = "finds nothing on a flat image"
        case handlesTinyImages = "handles 1x1 and one-pixel-wide images"
        case honoursCancellation = "stops with cancelled when its caller has gone"
        case honoursDeadline = "stops with timedOut past its deadline"
        case detectsConcurrently = "gives the same results when called concurrently"
    }

    let makeDetector: @Sendable () throws -> any ImageDetector
    let samples: [DetectorSample]
    let minimumOverlap: Double

    /// Creates the contract.
    ///
    /// - Parameters:
    ///   - makeDetector: makes the detector (called more than once; each must give the same answers).
    ///   - samples: images with what must be found in them (at least one with a region).
    ///   - minimumOverlap: the intersection over union a found region needs with an expected one (0.3 by default:
    ///     detectors frame the same object differently).
    public init(
        makeDetector: @escaping @Sendable () throws -> any ImageDetector, samples: [DetectorSample],
        minimumOverlap: Double = 0.3
    ) {
        self.makeDetector = makeDetector
        self.samples = samples
        self.minimumOverlap = minimumOverlap
    }

    public var title: String { "ImageDetector contract (\((try? makeDetector())?.identifier ?? "?"))" }

    public var checks: [ContractCheck] {
        [
            check(.describesItself) { try Self.describesItself($0, again: try makeDetector()) },
            check(.findsExpectedRegions) { try findsExpectedRegions($0) },
            check(.reportsValidRegions) { try reportsValidRegions($0) },
            check(.isDeterministic) { try isDeterministic($0, fresh: try makeDetector()) },
            check(.findsNothingOnFlatImages) { try Self.findsNothingOnFlatImages($0) },
            check(.handlesTinyImages) { try Self.handlesTinyImages($0) },
            check(.honoursCancellation) { try honoursCancellation($0) },
            check(.honoursDeadline) { try honoursDeadline($0) },
            ContractCheck(Check.detectsConcurrently.rawValue) { try await detectsConcurrently(try makeDetector()) },
        ]
    }

    private func check(_ name: Check, _ body: @escaping @Sendable (any ImageDetector) throws -> Void) -> ContractCheck {
        ContractCheck.blocking(name.rawValue) { try body(try makeDetector()) }
    }

    /// Detects without a deadline, turning errors into failures naming the detector and the input.
    static func detect(_ detector: any ImageDetector, _ raster: Raster, _ what: String) throws -> [DetectedRegion] {
        do {
            return try detector.detect(in: raster, context: DetectionContext())
        } catch {
            throw ContractFailure("\(detector.identifier) on \(what) failed with \(Describe.error(error))")
        }
    }
}
