import Imago

/// Keeps only frame `index` (0-based) of an animation, as a still image; a processor, so the commands that
/// want one frame ask the loader for it.
struct FrameProcessor: SizeAwareProcessor {
    let index: Int

    var identifier: String { "frame(\(index))" }

    /// Picking a frame does not care about the decoded size.
    var decodeSizeNeed: DecodeSizeNeed { .anySize }

    func process(_ image: DecodedImage) throws -> DecodedImage { try image.frame(index) }
}
