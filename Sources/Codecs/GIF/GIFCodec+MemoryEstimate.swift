import ImagoCore

/// giflib with the quantizer's memory, reserved in the pixel budget before an encode: measured by `imago-bench encoder-memory`
/// (peak resident memory beyond the input, default settings, a photo-like noisy image: 8.6, 31.5 and 92.2 MiB at 1, 4 and 12 MP; 4.8 and 9.6 MiB for 20 and 40 frames of 0.25 MP), the line
/// through the 4 and 12 MP points with 10 % more per pixel. Re-measure when the encoder's settings change.
extension GIFCodec: EncoderMemoryEstimating {
    static let memoryModel = EncoderMemoryModel(fixedMiB: 1.2, perPixel: 8.8, perFollowingFramePixel: 1.25)

    public func estimatedMemory(for size: PixelSize, frames: Int, options: EncodeOptions) -> Int {
        Self.memoryModel.bytes(for: size, frames: frames)
    }
}
