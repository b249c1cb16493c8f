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
