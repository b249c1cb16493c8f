import Foundation
import ImagoCore

extension ImageDetectorContract {
    static func describesItself(_ detector: any ImageDetector, again: any ImageDetector) throws {
        try contractRequire(!detector.identifier.isEmpty, "the identifier is empty")
        try contractRequire(
            detector.identifier == again.identifier,
            "made again, the identifier is \(again.identifier), not \(detector.identifier)")
        try contractRequire(!detector.kinds.isEmpty, "kinds is empty: a detector says what it finds")
        if let size = detector.workingSize { try contractRequire(size > 0, "workingSize \(size) is not positive") }
    }

    func findsExpectedRegions(_ detector: any ImageDetector) throws {
        try contractRequire(
            samples.contains { !$0.expected.isEmpty }, "give at least one sample with a region to find")
        for sample in samples {
            let found = try Self.detect(detector, sample.raster, sample.name)
            for expected in sample.expected {
                let best = found.filter { $0.kind == expected.kind }.map { $0.overlap(with: expected) }.max() ?? 0
                try contractRequire(
                    best >= minimumOverlap,
                    "\(sample.name): \(expected) not found (best overlap \((best * 100).rounded() / 100), found \(found))"
                )
            }
        }
    }

    func reportsValidRegions(_ detector: any ImageDetector) throws {
        let inputs =
            samples.map { ($0.name, $0.raster) } + [
                ("a 97x61 noise image", try Self.noise(width: 97, height: 61)),
                ("a 64x48 gradient", try SampleImages.gradient(width: 64, height: 48).raster),
            ]
        for (name, raster) in inputs {
            let size = PixelSize(width: raster.width, height: raster.height)
            for region in try Self.detect(detector, raster, name) {
                try contractRequire(region.isInside(size), "\(name): \(region) is empty or outside \(size)")
                try contractRequire(
                    detector.kinds.contains(region.kind), "\(name): \(region) is not of its kinds \(detector.kinds)")
                try contractRequire(
                    (0...1).contains(region.confidence), "\(name): \(region)'s confidence is not within 0…1")
            }
        }
    }

    func isDeterministic(_ detector: any ImageDetector, fresh: any ImageDetector) throws {
        for sample in samples {
            let first = try Self.detect(detector, sample.raster, sample.name)
            let second = try Self.detect(detector, sample.raster, sample.name)
            let third = try Self.detect(fresh, sample.raster, sample.name)
            try contractRequire(first == second, "\(sample.name): \(first) then \(second)")
            try contractRequire(first == third, "\(sample.name): \(first), and \(third) from a detector made again")
        }
    }

    static func findsNothingOnFlatImages(_ detector: any ImageDetector) throws {
        for color in [RGBA(128, 128, 128), RGBA(255, 255, 255), RGBA(0, 0, 0)] {
            let raster = try Raster(width: 640, height: 480, fill: color)
            let found = try detect(detector, raster, "a flat 640x480 image of \(color)")
            try contractRequire(found.isEmpty, "a flat 640x480 image of \(color) gave \(found)")
        }
    }

    static func handlesTinyImages(_ detector: any ImageDetector) throws {
        for (width, height) in [(1, 1), (1, 7), (7, 1)] {
            let raster = try SampleImages.gradient(width: width, height: height).raster
            do {
                let found = try detector.detect(in: raster, context: DetectionContext())
                let size = PixelSize(width: width, height: height)
                try contractRequire(found.allSatisfy { $0.isInside(size) }, "\(width)x\(height): \(found)")
            } catch let error as ImagoError {
                _ = error  // Refusing with a toolkit error is fine; crashing or a foreign error is not.
            } catch let failure as ContractFailure {
                throw failure
            } catch {
                throw ContractFailure("a \(width)x\(height) image threw \(Describe.error(error))")
            }
        }
    }

    func honoursCancellation(_ detector: any ImageDetector) throws {
        let raster = try largestSample()
        do {
            let found = try detector.detect(in: raster, context: DetectionContext(isCancelled: { true }))
            throw ContractFailure("a cancelled context gave an answer (\(found.count) regions) instead of cancelled")
        } catch let error as ImagoError {
            try contractRequire(error.kind == .cancelled, "a cancelled context threw \(Describe.error(error))")
        }
    }

    func honoursDeadline(_ detector: any ImageDetector) throws {
        let raster = try largestSample()
        do {
            let past = ContinuousClock.now - .seconds(1)
            let found = try detector.detect(in: raster, context: DetectionContext(deadline: past))
            throw ContractFailure("a past deadline gave an answer (\(found.count) regions) instead of timedOut")
        } catch let error as ImagoError {
            try contractRequire(error.kind == .timedOut, "a past deadline threw \(Describe.error(error))")
        }
    }

    func detectsConcurrently(_ detector: any ImageDetector) async throws {
        let samples = self.samples
        let expected = try await Blocking.run { try samples.map { try Self.detect(detector, $0.raster, $0.name) } }
        // Four rounds of every sample.
        let problems = await Blocking.concurrently(4 * samples.count) { job -> String? in
            let (round, index) = job.quotientAndRemainder(dividingBy: samples.count)
            let sample = samples[index]
            do {
                let found = try detector.detect(in: sample.raster, context: DetectionContext())
                return found == expected[index] ? nil : "\(sample.name) differs (round \(round))"
            } catch {
                return "\(sample.name) failed (round \(round)): \(Describe.error(error))"
            }
        }.compactMap { $0 }
        try contractRequire(
            problems.isEmpty, "concurrent runs disagree with a lone run: \(problems.prefix(3).joined(separator: "; "))")
    }

    /// The sample with the most pixels (the one a detector spends longest on).
    private func largestSample() throws -> Raster {
        guard let sample = samples.max(by: { $0.raster.width * $0.raster.height < $1.raster.width * $1.raster.height })
        else { throw ContractFailure("give at least one sample") }
        return sample.raster
    }

    /// Seeded noise, so a failure can be reproduced.
    static func noise(width: Int, height: Int) throws -> Raster {
        var generator = SeededGenerator(seed: 38)
        let pixels = (0..<(width * height * 4)).map { index in
            index % 4 == 3 ? 255 : UInt8.random(in: 0...255, using: &generator)
        }
        return try Raster(width: width, height: height, pixels: pixels)
    }
}
