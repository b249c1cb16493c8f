/// A processor built from an option, whose failure on an image names the option as the user wrote it
/// (`option "crop=500:500:10:10": the crop region … has nothing inside the 400x300 image`) instead of the
/// processor's identifier. Otherwise it is the processor: same identifier (so the same cache keys), same decode
/// size, frame-by-frame behaviour and held memory.
struct SpelledProcessor: ImageProcessor, SizeAwareProcessor, FrameWiseProcessing, OutputSizePredicting,
    HeldMemoryEstimating
{
    let processor: any ImageProcessor
    /// The option as written.
    let option: String

    init(_ processor: any ImageProcessor, option: String) {
        self.processor = processor
        self.option = option
    }

    var identifier: String { processor.identifier }

    var decodeSizeNeed: DecodeSizeNeed { (processor as? any SizeAwareProcessor)?.decodeSizeNeed ?? .fullSize }

    func predictedOutputSize(for size: PixelSize) -> PixelSize? {
        (processor as? any OutputSizePredicting)?.predictedOutputSize(for: size)
    }

    func heldBytes(for size: PixelSize) -> Int {
        (processor as? any HeldMemoryEstimating)?.heldBytes(for: size) ?? 0
    }

    var processesFramesIndependently: Bool {
        (processor as? any FrameWiseProcessing)?.processesFramesIndependently ?? false
    }

    func process(_ image: DecodedImage) throws -> DecodedImage {
        do {
            return try processor.process(image)
        } catch let error as ImagoError where error.kind == .processingFailed {
            var named = error
            named.reason = "option \"\(option)\": \(error.reason)"
            throw named
        }
    }
}
