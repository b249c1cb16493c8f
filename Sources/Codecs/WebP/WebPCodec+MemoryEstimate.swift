import ImagoCore

/// libwebp's memory, reserved in the pixel budget before an encode: measured by `imago-bench encoder-memory`
/// (peak resident memory beyond the input, default settings, a photo-like noisy image: 7.1, 26.7 and 77.2 MiB at 1, 4 and 12 MP; 7.7 and 12.2 MiB for 20 and 40 frames of 0.25 MP), the line
/// through the 4 and 12 MP points with 10 % more per pixel. Re-measure when the encoder's settings change.
extension WebPCodec: EncoderMemoryEstimating {
    static let memoryModel = EncoderMemoryModel(fixedMiB: 1.5, perPixel: 7.3, perFollowingFramePixel: 1.25)

    public func estimatedMemory(for size: PixelSize, frames: Int, options: EncodeOptions) -> Int {
        Self.memoryModel.bytes(for: size, frames: frames)
    }
}
