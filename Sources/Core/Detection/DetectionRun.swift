import Foundation
import Synchronization

/// One run of a detector on the compute threads, with the CPU time it took (for the loader's statistics).
struct DetectionRun: Sendable {
    let detector: any ImageDetector

    /// What a run gives: the answer and the CPU seconds the detector's thread spent on it.
    struct Outcome: Sendable {
        var result: DetectionResult
        var cpuSeconds: Double
    }

    func run(on image: DecodedImage, deadline: ContinuousClock.Instant?) async throws -> Outcome {
        let detector = self.detector
        let cancelled = CancellationFlag()
        let timedOut = { @Sendable in ImagoError(.timedOut, "detection ran past its deadline") as any Error }
        do {
            return try await withTaskCancellationHandler {
                try await Deadline.run(by: deadline, error: timedOut) {
                    try await WorkExecutor.compute.run {
                        let context = DetectionContext(deadline: deadline) { cancelled.isSet }
                        try context.checkpoint()
                        let start = ThreadCPUClock.now
                        let raster = try image.frames[0].raster.oriented(image.orientation)
                        let found = try detector.detect(in: raster, context: context)
                        let size = PixelSize(width: raster.width, height: raster.height)
                        let regions = found.compactMap { $0.clamped(to: size) }
                        return Outcome(
                            result: DetectionResult(detector: detector.identifier, imageSize: size, regions: regions),
                            cpuSeconds: ThreadCPUClock.now - start)
                    }
                }
            } onCancel: {
                cancelled.set()
            }
        } catch let error as ImagoError {
            throw error
        } catch is CancellationError {
            throw ImagoError(.cancelled, "cancelled")
        } catch {
            throw ImagoError(
                .processingFailed, "detector \(detector.identifier) failed: \(error)", underlying: error)
        }
    }
}

/// A flag set once, read from any thread.
final class CancellationFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .relaxed) }
    func set() { flag.store(true, ordering: .relaxed) }
}

/// The CPU time of the calling thread, in seconds (what a detection costs, whatever else the machine runs).
enum ThreadCPUClock {
    static var now: Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }
}
