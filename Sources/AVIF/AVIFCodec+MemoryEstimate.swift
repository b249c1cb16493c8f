import ImagoCore

/// libavif over libaom's memory, reserved in the pixel budget before an encode: measured by `imago-bench encoder-memory`
/// (peak resident memory beyond the input, default settings, a photo-like noisy image: 24.2, 72.0 and 193.7 MiB at 1, 4 and 12 MP; 22.4 and 27.0 MiB for 20 and 40 frames of 0.25 MP), the line
/// through the 4 and 12 MP points with 10 % more per pixel. Re-measure when the encoder's settings change.
extension AVIFCodec: EncoderMemoryEstimating {
    static let memoryModel = EncoderMemoryModel(fixedMiB: 14, perPixel: 17.5, perFollowingFramePixel: 1.25)

    public func estimatedMemory(for size: PixelSize, frames: Int, options: EncodeOptions) -> Int {
        Self.memoryModel.bytes(for: size, frames: frames)
    }
}
