import ImagoCore

extension ImageProcessorContract {
    func identifierIsStable(_ variants: [any ImageProcessor]) throws {
        let again = try makeVariants().map(\.identifier)
        for (index, processor) in variants.enumerated() {
            try contractRequire(!processor.identifier.isEmpty, "variant \(index) has an empty identifier")
            try contractRequire(
                processor.identifier == processor.identifier, "variant \(index)'s identifier changes between reads")
            try contractRequire(
                index < again.count && again[index] == processor.identifier,
                "variant \(index) made again has identifier \(index < again.count ? again[index] : "none"), "
                    + "not \(processor.identifier)")
        }
    }

    static func identifierNamesParameters(_ variants: [any ImageProcessor]) throws {
        try contractRequire(
            variants.count >= 2, "makeVariants must make at least two differently parameterised processors")
        var seen: [String: Int] = [:]
        for (index, processor) in variants.enumerated() {
            if let first = seen[processor.identifier] {
                throw ContractFailure(
                    "variants \(first) and \(index) have different parameters but the same identifier \"\(processor.identifier)\""
                )
            }
            seen[processor.identifier] = index
        }
    }

    static func isDeterministic(_ variants: [any ImageProcessor]) throws {
        let image = try sample.get()
        for processor in variants {
            let first = try process(processor, image, "a 64x48 gradient")
            let second = try process(processor, image, "a 64x48 gradient")
            try contractRequire(
                first == second, "\(processor.identifier) gave two different outputs for the same input")
        }
    }

    static func handlesTinyImages(_ variants: [any ImageProcessor]) throws {
        for (width, height) in [(1, 1), (1, 7), (7, 1)] {
            let image = try SampleImages.gradient(width: width, height: height)
            for processor in variants {
                do {
                    _ = try processor.process(image)
                } catch let error as ImagoError {
                    _ = error  // Refusing with a toolkit error is fine; crashing or a foreign error is not.
                } catch {
                    throw ContractFailure(
                        "\(processor.identifier) on a \(width)x\(height) image threw \(Describe.error(error))")
                }
            }
        }
    }

    func handlesAnimations(_ variants: [any ImageProcessor]) throws {
        let animation = try SampleImages.animation(width: 16, height: 12, count: 3)
        for processor in variants {
            let output = try Self.process(processor, animation, "a 3-frame 16x12 animation")
            guard preservesFrames else { continue }
            try contractRequire(
                output.frames.count == animation.frames.count,
                "\(processor.identifier) turned 3 frames into \(output.frames.count)")
            try contractRequire(
                output.durations == animation.durations,
                "\(processor.identifier) changed frame durations to \(output.durations)")
            let sizes = Set(output.frames.map { "\($0.raster.width)x\($0.raster.height)" })
            try contractRequire(
                sizes.count == 1, "\(processor.identifier) gave frames of different sizes: \(sizes.sorted())")
        }
    }

    static func processesConcurrently(_ variants: [any ImageProcessor]) async throws {
        let image = try sample.get()
        let expected = try await Blocking.run { try variants.map { try process($0, image, "a 64x48 gradient") } }
        // Four rounds of every variant.
        let problems = await Blocking.concurrently(4 * variants.count) { job -> String? in
            let (round, index) = job.quotientAndRemainder(dividingBy: variants.count)
            let processor = variants[index]
            do {
                return try processor.process(image) == expected[index]
                    ? nil : "\(processor.identifier) differs (round \(round))"
            } catch {
                return "\(processor.identifier) failed (round \(round)): \(Describe.error(error))"
            }
        }.compactMap { $0 }
        try contractRequire(
            problems.isEmpty, "concurrent runs disagree with a lone run: \(problems.prefix(3).joined(separator: "; "))")
    }
}
