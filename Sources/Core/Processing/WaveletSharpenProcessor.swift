import Foundation

/// Sharpens every frame the way thumbor's `sharpen(AMOUNT,RADIUS,LUMINANCE_ONLY)` does: a five-level "à trous"
/// wavelet decomposition (the smoothing kernel ¼·[1 2 1] with taps 1, 2, 4, 8 and 16 pixels apart, mirrored at the
/// edges), each level's detail multiplied by `amount × e^(−(level − radius)² / 1.5) + 1` and the levels added back.
/// So `radius` picks the scale of detail that gains most (0: one-pixel detail), and `amount` how much. With
/// `luminanceOnly` only the luma of YCbCr (JPEG's full-range matrix) is sharpened, else red, green and blue each.
/// Computed in single precision and truncated, as thumbor's filter does. Alpha is kept.
///
/// Memory: three single-precision planes of the frame (12 bytes a pixel) besides the output.
public struct WaveletSharpenProcessor: ImageProcessor {
    /// The allowed amounts and radii.
    public static let amountRange: ClosedRange<Double> = -100...100
    public static let radiusRange: ClosedRange<Double> = -100...100

    /// How much each level's detail is amplified at its peak (0 leaves the image as it is).
    public let amount: Double
    /// Which level (0…4) gains most.
    public let radius: Double
    /// Whether only luma is sharpened.
    public let luminanceOnly: Bool

    /// The levels of the decomposition.
    static let levels = 5

    /// Creates the processor; an amount or radius outside −100…100 (or not a number) throws `processingFailed`.
    public init(amount: Double, radius: Double, luminanceOnly: Bool) throws {
        guard Self.amountRange.contains(amount), Self.radiusRange.contains(radius) else {
            throw ImagoError(.processingFailed, "sharpen \(amount),\(radius): not within -100…100")
        }
        (self.amount, self.radius, self.luminanceOnly) = (amount, radius, luminanceOnly)
    }

    /// `wavelet-sharpen(AMOUNT,RADIUS,luma|rgb)`.
    public var identifier: String { "wavelet-sharpen(\(amount),\(radius),\(luminanceOnly ? "luma" : "rgb"))" }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        guard amount != 0 else { return image }
        let gains = (0..<Self.levels).map { level in
            Float(amount * exp(-(Double(level) - radius) * (Double(level) - radius) / 1.5) + 1)
        }
        return try image.mappingRasters { try sharpened($0, gains: gains) }
    }

    private func sharpened(_ raster: Raster, gains: [Float]) throws -> Raster {
        let (width, height) = (raster.width, raster.height)
        let count = width * height
        // The three channels as planes of 0…1 (Y, Cb, Cr when only luma is sharpened).
        var planes = [[Float]](repeating: [Float](repeating: 0, count: count), count: 3)
        raster.withUnsafeBytes { bytes in
            for y in 0..<height {
                for x in 0..<width {
                    let offset = y * raster.bytesPerRow + x * 4
                    var (r, g, b) = (Float(bytes[offset]), Float(bytes[offset + 1]), Float(bytes[offset + 2]))
                    if luminanceOnly { (r, g, b) = Self.ycbcr(r, g, b) }
                    planes[0][y * width + x] = r / 255
                    planes[1][y * width + x] = g / 255
                    planes[2][y * width + x] = b / 255
                }
            }
        }
        for channel in 0..<(luminanceOnly ? 1 : 3) {
            Self.sharpen(&planes[channel], width: width, height: height, gains: gains)
        }
        return try raster.mappingPixels { pixels, offset in
            let index = offset / 4
            var (r, g, b) = (planes[0][index] * 255, planes[1][index] * 255, planes[2][index] * 255)
            if luminanceOnly { (r, g, b) = Self.rgb(r, g, b) }
            pixels[offset] = Self.byte(r)
            pixels[offset + 1] = Self.byte(g)
            pixels[offset + 2] = Self.byte(b)
        }
    }

    /// Clamped to 0…255 and truncated.
    static func byte(_ value: Float) -> UInt8 {
        value.isNaN ? 0 : UInt8(min(255, max(0, value)).rounded(.towardZero))
    }

    /// `plane` with each level's detail multiplied by its gain.
    static func sharpen(_ plane: inout [Float], width: Int, height: Int, gains: [Float]) {
        let count = width * height
        var smooth = [Float](repeating: 0, count: count)
        var scratch = [Float](repeating: 0, count: max(width, height))
        // `plane` ends as the sum of the amplified details; `current` is the level's input (the previous smooth).
        var current = plane
        for level in 0..<gains.count {
            let step = 1 << level
            for y in 0..<height {
                smoothLine(current, start: y * width, stride: 1, count: width, step: step, into: &scratch)
                for x in 0..<width { smooth[y * width + x] = scratch[x] * 0.25 }
            }
            for x in 0..<width {
                smoothLine(smooth, start: x, stride: width, count: height, step: step, into: &scratch)
                for y in 0..<height { smooth[y * width + x] = scratch[y] * 0.25 }
            }
            let gain = gains[level]
            for index in 0..<count {
                let detail = (current[index] - smooth[index]) * gain
                plane[index] = level == 0 ? detail : plane[index] + detail
            }
            swap(&current, &smooth)
        }
        for index in 0..<count { plane[index] += current[index] }
    }

    /// `2·v[i] + v[i − step] + v[i + step]` along one line of `values`, neighbours past an end mirrored.
    static func smoothLine(
        _ values: [Float], start: Int, stride: Int, count: Int, step: Int, into line: inout [Float]
    ) {
        func mirrored(_ index: Int) -> Int {
            guard count > 1 else { return 0 }
            let period = 2 * (count - 1)
            var folded = index % period
            if folded < 0 { folded += period }
            return folded < count ? folded : period - folded
        }
        for i in 0..<count {
            let left = i - step >= 0 ? i - step : mirrored(i - step)
            let right = i + step < count ? i + step : mirrored(i + step)
            line[i] =
                2 * values[start + i * stride] + values[start + left * stride] + values[start + right * stride]
        }
    }

    /// JPEG's full-range RGB → YCbCr, in single precision.
    static func ycbcr(_ r: Float, _ g: Float, _ b: Float) -> (Float, Float, Float) {
        (
            0.2990 * r + 0.5870 * g + 0.1140 * b,
            -0.1687 * r - 0.3313 * g + 0.5000 * b + 128,
            0.5000 * r - 0.4187 * g - 0.0813 * b + 128
        )
    }

    /// The inverse of `ycbcr`.
    static func rgb(_ y: Float, _ cb: Float, _ cr: Float) -> (Float, Float, Float) {
        (y + 1.40200 * (cr - 128), y - 0.34414 * (cb - 128) - 0.71414 * (cr - 128), y + 1.77200 * (cb - 128))
    }
}

extension WaveletSharpenProcessor: FrameWiseProcessing {
    /// Always: each frame is sharpened on its own.
    public var processesFramesIndependently: Bool { true }
}
