import ImagoCore

/// A complete example processor: blends each pixel towards its gray (Rec. 601 luma) by `intensity`.
///
/// It shows what every processor must do: put every parameter in its identifier (it is part of the cache key),
/// be deterministic, and handle every frame of an animation.
struct GrayscaleProcessor: ImageProcessor {
    /// 0 leaves the image as it is, 1 makes it fully gray.
    let intensity: Double

    init(intensity: Double = 1) {
        self.intensity = min(max(intensity, 0), 1)
    }

    var identifier: String { "grayscale(\(intensity))" }

    func process(_ image: DecodedImage) throws -> DecodedImage {
        var output = image
        output.frames = try image.frames.map { frame in
            ImageFrame(raster: try gray(frame.raster), duration: frame.duration)
        }
        return output
    }

    private func gray(_ raster: Raster) throws -> Raster {
        // Fixed-point weights, so the result is the same on every machine.
        let weight = Int((intensity * 256).rounded())
        return try raster.withUnsafeBytes { source in
            try Raster(width: raster.width, height: raster.height) { target in
                for y in 0..<raster.height {
                    for x in 0..<raster.width {
                        let from = y * raster.bytesPerRow + x * 4
                        let to = (y * raster.width + x) * 4
                        let (r, g, b) = (Int(source[from]), Int(source[from + 1]), Int(source[from + 2]))
                        let luma = (77 * r + 150 * g + 29 * b) >> 8
                        target[to] = UInt8(r + ((luma - r) * weight) / 256)
                        target[to + 1] = UInt8(g + ((luma - g) * weight) / 256)
                        target[to + 2] = UInt8(b + ((luma - b) * weight) / 256)
                        target[to + 3] = source[from + 3]
                    }
                }
            }
        }
    }
}
