import ImagoCore

/// libjpeg-turbo's memory, reserved in the pixel budget before an encode: measured by `imago-bench encoder-memory`
/// (peak resident memory beyond the input, default settings, a photo-like noisy image: 1.1, 2.4 and 4.7 MiB at 1, 4 and 12 MP), the line
/// through the 4 and 12 MP points with 10 % more per pixel. Re-measure when the encoder's settings change.
extension JPEGCodec: EncoderMemoryEstimating {
    static let memoryModel = EncoderMemoryModel(fixedMiB: 1.5, perPixel: 0.35)

    public func estimatedMemory(for size: PixelSize, frames: Int, options: EncodeOptions) -> Int {
        Self.memoryModel.bytes(for: size, frames: frames)
    }
}
