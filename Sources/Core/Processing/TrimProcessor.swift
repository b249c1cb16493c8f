/// Cuts away borders of the top-left pixel's colour from every frame.
///
/// A pixel is border when each of its four channels (alpha included) is within `threshold` of the top-left
/// pixel's; the result is the smallest rectangle holding every pixel that is not. The rectangle is found on the
/// first frame and cut from all of them. An image that is all border is returned unchanged.
public struct TrimProcessor: ImageProcessor {
    /// The largest difference, 0…255, a channel may have and still be border.
    public var threshold: Int

    /// Creates a trim; a threshold outside 0…255 throws `processingFailed`.
    public init(threshold: Int = 10) throws {
        guard (0...255).contains(threshold) else {
            throw ImagoError(.processingFailed, "trim threshold \(threshold) is not within 0…255")
        }
        self.threshold = threshold
    }

    /// `trim(THRESHOLD)`.
    public var identifier: String { "trim(\(threshold))" }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        guard (0...255).contains(threshold) else {
            throw ImagoError(.processingFailed, "trim threshold \(threshold) is not within 0…255")
        }
        guard let box = image.raster.contentBox(threshold: threshold),
            box != (0, 0, image.width, image.height)
        else { return image }
        return try image.mappingRasters { try $0.cropped(x: box.x, y: box.y, width: box.width, height: box.height) }
    }
}

extension Raster {
    /// The smallest rectangle holding every pixel that differs from the top-left one by more than `threshold` in
    /// some channel; nil when there is none.
    func contentBox(threshold: Int) -> (x: Int, y: Int, width: Int, height: Int)? {
        withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self).baseAddress!
            let reference = SIMD4<Int16>(Int16(bytes[0]), Int16(bytes[1]), Int16(bytes[2]), Int16(bytes[3]))
            let limit = SIMD4<Int16>(repeating: Int16(threshold))
            var left = width
            var right = -1
            var top = height
            var bottom = -1
            for y in 0..<height {
                let row = bytes + y * bytesPerRow
                var first = -1
                for x in 0..<width {
                    let p = row + x * 4
                    let pixel = SIMD4<Int16>(Int16(p[0]), Int16(p[1]), Int16(p[2]), Int16(p[3]))
                    let difference = pixel &- reference
                    let magnitude = difference.replacing(with: 0 &- difference, where: difference .< 0)
                    if any(magnitude .> limit) {
                        first = x
                        break
                    }
                }
                guard first >= 0 else { continue }
                var last = first
                var x = width - 1
                while x > first {
                    let p = row + x * 4
                    let pixel = SIMD4<Int16>(Int16(p[0]), Int16(p[1]), Int16(p[2]), Int16(p[3]))
                    let difference = pixel &- reference
                    let magnitude = difference.replacing(with: 0 &- difference, where: difference .< 0)
                    if any(magnitude .> limit) {
                        last = x
                        break
                    }
                    x -= 1
                }
                left = min(left, first)
                right = max(right, last)
                top = min(top, y)
                bottom = y
            }
            guard right >= 0 else { return nil }
            return (left, top, right - left + 1, bottom - top + 1)
        }
    }
}
