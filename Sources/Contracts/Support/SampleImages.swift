import Foundation
import ImagoCore

/// Images the contracts generate for encoders, caches and processors.
public enum SampleImages {
    /// A smooth gradient (what lossy codecs keep well) of `width` × `height`; with `alpha`, alpha varies too.
    public static func gradient(width: Int, height: Int, alpha: Bool = false) throws -> DecodedImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let offset = (y * width + x) * 4
                pixels[offset] = UInt8(x * 255 / max(width - 1, 1))
                pixels[offset + 1] = UInt8(y * 255 / max(height - 1, 1))
                pixels[offset + 2] = UInt8((x + y) * 255 / max(width + height - 2, 1))
                pixels[offset + 3] = alpha ? UInt8(64 + (x * 191) / max(width - 1, 1)) : 255
            }
        }
        let raster = try Raster(width: width, height: height, pixels: pixels)
        return DecodedImage(raster: raster, format: ImageFormat("contract-sample"), hasAlpha: alpha)
    }

    /// One colour, for images whose content does not matter (cache entries); `seed` picks the colour.
    public static func solid(width: Int, height: Int, seed: Int) throws -> DecodedImage {
        let color = RGBA(
            UInt8(truncatingIfNeeded: seed), UInt8(truncatingIfNeeded: seed >> 8), UInt8(truncatingIfNeeded: seed >> 16)
        )
        let raster = try Raster(width: width, height: height, fill: color)
        return DecodedImage(raster: raster, format: ImageFormat("contract-sample"), hasAlpha: false)
    }

    /// An animation of `count` frames of different colours, 0.1 s each, looping twice.
    public static func animation(width: Int, height: Int, count: Int = 3) throws -> DecodedImage {
        let colors = [RGBA(255, 0, 0), RGBA(0, 255, 0), RGBA(0, 0, 255), RGBA(255, 255, 0)]
        let frames = try (0..<count).map { index in
            ImageFrame(
                raster: try Raster(width: width, height: height, fill: colors[index % colors.count]), duration: 0.1)
        }
        return DecodedImage(frames: frames, loopCount: 2, format: ImageFormat("contract-sample"), hasAlpha: false)
    }
}

/// Pixel comparisons for the checks.
enum PixelDifference {
    /// The largest difference of any channel of any pixel; `nil` when the sizes differ.
    static func maxChannelDelta(_ a: Raster, _ b: Raster, ignoringAlpha: Bool = false) -> Int? {
        guard a.width == b.width, a.height == b.height else { return nil }
        return maxChannelDelta(a.pixels, b.pixels, ignoringAlpha: ignoringAlpha)
    }

    /// The largest difference between two packed RGBA buffers of the same length.
    static func maxChannelDelta(_ a: [UInt8], _ b: [UInt8], ignoringAlpha: Bool = false) -> Int? {
        guard a.count == b.count else { return nil }
        var worst = 0
        for index in a.indices where !(ignoringAlpha && index % 4 == 3) {
            worst = max(worst, abs(Int(a[index]) - Int(b[index])))
        }
        return worst
    }

    /// The mean absolute difference over every channel (alpha too unless ignored).
    static func meanChannelDelta(_ a: Raster, _ b: Raster, ignoringAlpha: Bool = false) -> Double? {
        guard a.width == b.width, a.height == b.height else { return nil }
        let (pa, pb) = (a.pixels, b.pixels)
        var total = 0
        var count = 0
        for index in pa.indices where !(ignoringAlpha && index % 4 == 3) {
            total += abs(Int(pa[index]) - Int(pb[index]))
            count += 1
        }
        return count == 0 ? 0 : Double(total) / Double(count)
    }
}

/// Short descriptions for failure messages.
enum Describe {
    static func size(_ image: DecodedImage) -> String {
        "\(image.width)x\(image.height)" + (image.isAnimated ? " with \(image.frames.count) frames" : "")
    }

    static func error(_ error: any Error) -> String {
        if let error = error as? ImagoError { return "ImagoError.\(error.kind.name) \"\(error)\"" }
        return "\(type(of: error)) \"\(error)\" (not an ImagoError)"
    }

    /// A load's outcome in a few words: `an image (4x3, origin interceptor)` or the error.
    static func outcome(_ result: Result<ImageResponse, any Error>) -> String {
        switch result {
        case .success(let response): "an image (\(size(response.image)), origin \(response.origin))"
        case .failure(let failure): error(failure)
        }
    }
}
