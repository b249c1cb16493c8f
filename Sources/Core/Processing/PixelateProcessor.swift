/// Turns every frame into blocks of `blockSize` × `blockSize` pixels, each the average of the pixels it covers:
/// imgproxy's `pixelate:SIZE` (libvips's shrink then zoom). Blocks start at the top-left corner; a block cut by the
/// right or bottom edge averages the pixels it has with the edge pixels repeated, as imgproxy's extended copy does.
/// Averages are taken in premultiplied alpha and rounded to nearest. Media code may pixelate a region only
/// (`Raster.pixelated(blockSize:region:)`).
public struct PixelateProcessor: ImageProcessor {
    /// The allowed block sizes.
    public static let blockSizeRange: ClosedRange<Int> = 1...10_000

    /// The side of a block, in pixels (1 leaves the image as it is).
    public let blockSize: Int

    /// Creates the processor; a block size outside 1…10 000 throws `processingFailed`.
    public init(blockSize: Int) throws {
        guard Self.blockSizeRange.contains(blockSize) else {
            throw ImagoError(.processingFailed, "pixelate \(blockSize) is not within 1…10000")
        }
        self.blockSize = blockSize
    }

    /// `pixelate(N)`.
    public var identifier: String { "pixelate(\(blockSize))" }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        guard blockSize > 1 else { return image }
        return try image.mappingRasters { try $0.pixelated(blockSize: blockSize) }
    }
}

extension Raster {
    /// A copy whose `region` (the whole raster by default; clipped to it) is made of `blockSize`-pixel blocks from
    /// the region's top-left corner, each the premultiplied average of the pixels under it, the region's last row
    /// and column repeated where a block passes its edge.
    public func pixelated(
        blockSize: Int, region: (x: Int, y: Int, width: Int, height: Int)? = nil
    ) throws -> Raster {
        let area = region ?? (0, 0, width, height)
        let left = max(0, area.x)
        let top = max(0, area.y)
        let right = min(width, area.x + area.width)
        let bottom = min(height, area.y + area.height)
        guard blockSize > 1, left < right, top < bottom else { return self }
        return try withUnsafeBytes { source in
            try Raster(width: width, height: height) { target in
                let rowBytes = width * 4
                copyRows(from: source, into: target)
                for blockTop in stride(from: top, to: bottom, by: blockSize) {
                    for blockLeft in stride(from: left, to: right, by: blockSize) {
                        // Sums of premultiplied colours and of alpha, reading the untouched source.
                        var sums = (0, 0, 0, 0)
                        for dy in 0..<blockSize {
                            let row = min(blockTop + dy, bottom - 1) * bytesPerRow
                            for dx in 0..<blockSize {
                                let offset = row + min(blockLeft + dx, right - 1) * 4
                                let alpha = Int(source[offset + 3])
                                sums.0 += Int(source[offset]) * alpha
                                sums.1 += Int(source[offset + 1]) * alpha
                                sums.2 += Int(source[offset + 2]) * alpha
                                sums.3 += alpha
                            }
                        }
                        let count = blockSize * blockSize
                        let weight = max(sums.3, 1)
                        let pixel: (UInt8, UInt8, UInt8, UInt8) = (
                            UInt8(min(255, (sums.0 + weight / 2) / weight)),
                            UInt8(min(255, (sums.1 + weight / 2) / weight)),
                            UInt8(min(255, (sums.2 + weight / 2) / weight)),
                            UInt8((sums.3 + count / 2) / count)
                        )
                        for y in blockTop..<min(blockTop + blockSize, bottom) {
                            for x in blockLeft..<min(blockLeft + blockSize, right) {
                                let to = y * rowBytes + x * 4
                                (target[to], target[to + 1], target[to + 2], target[to + 3]) = pixel
                            }
                        }
                    }
                }
            }
        }
    }
}

extension PixelateProcessor: FrameWiseProcessing {
    /// Always: each frame is pixelated on its own.
    public var processesFramesIndependently: Bool { true }
}
