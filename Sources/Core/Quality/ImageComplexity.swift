import Foundation

/// How much detail an image has, cheaply: what a quality search's first estimate is made from.
///
/// The score is the mean of the luma gradient (half the sum of the absolute differences to the right and lower
/// neighbours), each pixel's clipped at 16 levels, over every other row: texture raises it, a few strong edges
/// little. Of the features tried on the photo set (mean gradient, mean 8×8 deviation, mean |Laplacian|, share of
/// pixels with a gradient over 4), it follows the quality a DSSIM target needs most closely (Docs/Quality.md).
public enum ImageComplexity {
    /// The score of `raster`, from 0 (flat) to 16; composited over white like the metric.
    public static func score(of raster: Raster) -> Double {
        let width = raster.width, height = raster.height
        guard width > 1, height > 1 else { return 0 }
        var upper = [Float](repeating: 0, count: width), lower = upper
        var total = 0.0
        var rows = 0
        raster.withUnsafeBytes { bytes in
            let pixels = bytes.bindMemory(to: UInt8.self)
            for y in stride(from: 0, to: height - 1, by: 2) {
                luma(pixels, row: y, raster: raster, into: &upper)
                luma(pixels, row: y + 1, raster: raster, into: &lower)
                var sum: Float = 0
                for x in 0..<(width - 1) {
                    let gradient = (abs(upper[x + 1] - upper[x]) + abs(lower[x] - upper[x])) / 2
                    sum += min(gradient, 16)
                }
                total += Double(sum)
                rows += 1
            }
        }
        return total / Double(rows * (width - 1))
    }

    private static func luma(
        _ pixels: UnsafeBufferPointer<UInt8>, row y: Int, raster: Raster, into output: inout [Float]
    ) {
        var offset = y * raster.bytesPerRow
        for x in 0..<raster.width {
            let alpha = Float(pixels[offset + 3]) * (1 / 255)
            let value =
                0.299 * Float(pixels[offset]) + 0.587 * Float(pixels[offset + 1]) + 0.114 * Float(pixels[offset + 2])
            output[x] = 255 + alpha * (value - 255)
            offset += 4
        }
    }
}
