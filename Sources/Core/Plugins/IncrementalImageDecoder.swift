import Foundation

/// A decoder that can also decode an image while its bytes are still arriving, and show previews on the way.
///
/// An optional capability of an `ImageDecoder`: the loader asks for an incremental decoder only when a caller
/// wants previews. Custom decoders can offer it too.
public protocol IncrementalImageDecoding: ImageDecoder {
    /// A fresh decoder for one image decoded as `options` ask (the same options the one-shot decode gets).
    func makeIncrementalDecoder(options: DecodeOptions) -> any IncrementalImageDecoder
}

/// One image decoded as its bytes arrive: it keeps its state between chunks, so no byte is decoded twice.
///
/// Not thread-safe: one caller at a time (the loader keeps it on a serial queue). Releasing it frees its
/// buffers. Errors are `ImagoError`s, limits are checked from the header before any pixel is allocated.
public protocol IncrementalImageDecoder: AnyObject {
    /// Feeds the next bytes and decodes as far as they allow; returns where the image stands.
    func append(_ bytes: Data) throws -> IncrementalDecodeProgress

    /// A preview of everything received so far (the final image's size, orientation not applied), or `nil`
    /// when there is nothing to show yet.
    func makePreview() throws -> DecodedImage?

    /// All bytes have arrived: the final image, identical to `decode(_:options:)` of the same bytes. It may
    /// refuse bytes the one-shot decode accepts (the loader then decodes them in one shot), never the reverse.
    func finish() throws -> DecodedImage
}

/// Where an incremental decode stands after a chunk.
public struct IncrementalDecodeProgress: Sendable, Hashable {
    /// Refinement steps (JPEG scans, Adam7 passes) received in full that a preview would show; each one adds detail.
    public var completedSteps: Int
    /// Whether this image gives previews at all: `false` once the header rules them out (a baseline JPEG, a
    /// non-interlaced PNG), and the caller may then drop the decoder and decode the whole bytes at the end.
    public var offersPreviews: Bool
    /// Whether the end of the image has been seen.
    public var isComplete: Bool

    /// Creates progress.
    public init(completedSteps: Int, offersPreviews: Bool, isComplete: Bool) {
        self.completedSteps = completedSteps
        self.offersPreviews = offersPreviews
        self.isComplete = isComplete
    }
}
