import ImagoCore

/// The promises of an `ImageProcessor`: an identifier that names every parameter, and deterministic output.
///
/// ```swift
/// let contract = ImageProcessorContract(makeVariants: {
///     [GrayscaleProcessor(intensity: 1), GrayscaleProcessor(intensity: 0.5)]
/// })
/// let report = await contract.run()
/// #expect(report.passed, "\(report)")
/// ```
public struct ImageProcessorContract: PluginContract {
    /// The checks, by name.
    public enum Check: String, CaseIterable, Sendable {
        case identifierIsStable = "has a stable, non-empty identifier"
        case identifierNamesParameters = "changes its identifier when its parameters change"
        case isDeterministic = "gives the same output for the same input"
        case handlesTinyImages = "handles 1x1 and one-pixel-wide images"
        case handlesAnimations = "handles animated images frame by frame"
        case processesConcurrently = "gives the same results when called concurrently"
    }

    let makeVariants: @Sendable () throws -> [any ImageProcessor]
    let preservesFrames: Bool

    /// Creates the contract.
    ///
    /// - Parameters:
    ///   - makeVariants: makes instances of the processor with different parameters (at least two, for example
    ///     two sizes of a resize; exactly one for a processor without parameters); called more than once, it must
    ///     make the same ones each time.
    ///   - preservesFrames: whether an animation keeps its frame count and durations through the processor.
    public init(makeVariants: @escaping @Sendable () throws -> [any ImageProcessor], preservesFrames: Bool = true) {
        self.makeVariants = makeVariants
        self.preservesFrames = preservesFrames
    }

    public var title: String {
        let names = (try? makeVariants())?.map(\.identifier).joined(separator: ", ") ?? "?"
        return "ImageProcessor contract (\(names))"
    }

    public var checks: [ContractCheck] {
        var checks = [check(.identifierIsStable) { try $0.identifierIsStable($1) }]
        // A processor without parameters has one variant, and nothing to tell apart.
        if ((try? makeVariants())?.count ?? 0) != 1 {
            checks.append(check(.identifierNamesParameters) { try Self.identifierNamesParameters($1) })
        }
        checks += [
            check(.isDeterministic) { try Self.isDeterministic($1) },
            check(.handlesTinyImages) { try Self.handlesTinyImages($1) },
            check(.handlesAnimations) { try $0.handlesAnimations($1) },
            ContractCheck(Check.processesConcurrently.rawValue) {
                try await Self.processesConcurrently(try makeVariants())
            },
        ]
        return checks
    }

    private func check(_ name: Check, _ body: @escaping @Sendable (Self, [any ImageProcessor]) throws -> Void)
        -> ContractCheck
    {
        ContractCheck.blocking(name.rawValue) {
            let variants = try makeVariants()
            try contractRequire(!variants.isEmpty, "makeVariants made no processor")
            try body(self, variants)
        }
    }

    /// Processes, turning errors into failures naming the processor and the input.
    static func process(_ processor: any ImageProcessor, _ image: DecodedImage, _ what: String) throws -> DecodedImage {
        do {
            return try processor.process(image)
        } catch {
            throw ContractFailure("\(processor.identifier) on \(what) failed with \(Describe.error(error))")
        }
    }

    static let sample = Result { try SampleImages.gradient(width: 64, height: 48, alpha: true) }
}
