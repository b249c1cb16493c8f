import ImagoCore

/// libjxl's memory, reserved in the pixel budget before an encode: measured by `imago-bench encoder-memory`
/// (peak resident memory beyond the input, default settings, a photo-like noisy image: 50.4, 181.5 and 521.8 MiB at 1, 4 and 12 MP), the line
/// through the 4 and 12 MP points with 10 % more per pixel. Re-measure when the encoder's settings change.
extension JXLCodec: EncoderMemoryEstimating {
    static let memoryModel = EncoderMemoryModel(fixedMiB: 12, perPixel: 49)

    public func estimatedMemory(for size: PixelSize, frames: Int, options: EncodeOptions) -> Int {
        Self.memoryModel.bytes(for: size, frames: frames)
    }
}
