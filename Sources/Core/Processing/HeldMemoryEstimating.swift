/// A processor that holds or makes pixels of its own besides its input and output (a watermark's image, its
/// faded and scaled copies), so a render reserves them in the pixel budget with the rest, before the work
/// (`ImageLoader.render`).
public protocol HeldMemoryEstimating: ImageProcessor {
    /// The most bytes it holds or allocates besides its input and output, for an output of `size`.
    func heldBytes(for size: PixelSize) -> Int
}

extension Sequence where Element == any ImageProcessor {
    /// The bytes these processors hold besides the images they pass on, for a render's output of `size`.
    public func heldBytes(for size: PixelSize) -> Int {
        reduce(0) { total, processor in
            let (sum, overflow) = total.addingReportingOverflow(
                (processor as? any HeldMemoryEstimating)?.heldBytes(for: size) ?? 0)
            return overflow ? Int.max : sum
        }
    }
}

extension WatermarkProcessor: HeldMemoryEstimating {
    /// The mark, its faded copy and its scaled copy (4 bytes a pixel).
    public func heldBytes(for size: PixelSize) -> Int {
        let mark = watermark.bytesPerRow * watermark.height
        let faded = alphaReduction > 0 ? 4 * watermark.width * watermark.height : 0
        let scaled = scaledSize(on: (size.width, size.height)).map { 4 * $0.width * $0.height } ?? 0
        return mark + faded + scaled
    }
}
