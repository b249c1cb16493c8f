/// Transforms a decoded image (resize, crop, …).
///
/// Its `identifier` becomes part of the memory-cache key, so it must change whenever a parameter that changes
/// the pixels does, and processing must be deterministic.
public protocol ImageProcessor: Sendable {
    /// A stable identifier that includes every parameter, for example `"resize(200x200,fit)"`.
    var identifier: String { get }

    /// Returns the processed image.
    func process(_ image: DecodedImage) throws -> DecodedImage
}

extension Sequence where Element == any ImageProcessor {
    /// Runs the processors in order on `image`; an error other than `ImagoError` becomes `processingFailed`
    /// naming the processor.
    public func process(_ image: DecodedImage) throws -> DecodedImage {
        var image = image
        for processor in self {
            do {
                image = try processor.process(image)
            } catch let error as ImagoError {
                throw error
            } catch {
                throw ImagoError(.processingFailed, "\(processor.identifier) failed: \(error)", underlying: error)
            }
        }
        return image
    }
}
