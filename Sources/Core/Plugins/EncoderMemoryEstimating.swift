/// An encoder that can say, before it runs, how much memory it takes beyond the image it is given (its library's
/// working buffers and the output), so a render reserves that in the loader's pixel budget before encoding: the
/// encoder's memory is budgeted like a decode's. Estimates come from measurement (`imago-bench encoder-memory`).
public protocol EncoderMemoryEstimating: ImageEncoder {
    /// The peak bytes encoding `frames` frames of `size` with `options` adds to the process.
    func estimatedMemory(for size: PixelSize, frames: Int, options: EncodeOptions) -> Int
}

extension ImageEncoder {
    /// The estimate of an encoder that gives one (`EncoderMemoryEstimating`); otherwise one more copy of the
    /// pixels, the least any encoder holds (its output at worst).
    public func memoryEstimate(for size: PixelSize, frames: Int, options: EncodeOptions) -> Int {
        if let estimating = self as? any EncoderMemoryEstimating {
            return estimating.estimatedMemory(for: size, frames: frames, options: options)
        }
        return 4 * size.width * size.height * Swift.max(frames, 1)
    }
}

/// An encoder's memory as measured: a fixed part, a part per output pixel, and for an animation a part per pixel of
/// every frame after the first (the compressed frames the encoder keeps until it finishes).
public struct EncoderMemoryModel: Sendable, Hashable {
    /// Bytes whatever the size.
    public var fixed: Int
    /// Bytes per pixel of one frame.
    public var perPixel: Double
    /// Bytes per pixel of each frame after the first.
    public var perFollowingFramePixel: Double

    /// A model of `fixedMiB` MiB plus `perPixel` bytes a pixel (and `perFollowingFramePixel` for animations).
    public init(fixedMiB: Double, perPixel: Double, perFollowingFramePixel: Double = 0) {
        fixed = Int(fixedMiB * 1_048_576)
        self.perPixel = perPixel
        self.perFollowingFramePixel = perFollowingFramePixel
    }

    /// The peak bytes for `frames` frames of `size`.
    public func bytes(for size: PixelSize, frames: Int) -> Int {
        let pixels = Double(size.width) * Double(size.height)
        let total = Double(fixed) + perPixel * pixels + perFollowingFramePixel * pixels * Double(max(frames, 1) - 1)
        return total < Double(Int.max / 2) ? Int(total.rounded(.up)) : Int.max / 2
    }
}
