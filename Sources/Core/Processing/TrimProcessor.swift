/// Cuts away borders of the top-left pixel's colour from every frame.
///
/// A pixel is border when each of its four channels (alpha included) is within `threshold` of the top-left
/// pixel's; the result is the smallest rectangle holding every pixel that is not. The rectangle is found on the
/// first frame and cut from all of them. An image that is all border is returned unchanged.
///
/// The URL grammars ask for more (issue 35), each off by default: the bottom-right pixel as the reference
/// (thumbor's `trim:bottom-right`), or a given colour, against which pixels are first composited over magenta
/// (imgproxy's `trim:T:COLOUR`, magenta standing for transparency as in imgproxy); a Euclidean distance over the
/// colour channels, and alpha when the image has it, instead of the per-channel one (thumbor's tolerance); and
/// equal cuts from the left and right, or top and bottom, the smaller of the two taken from both (imgproxy's
/// `equal_hor`, `equal_ver`).
public struct TrimProcessor: ImageProcessor {
    /// What the border's colour is.
    public enum Reference: Sendable, Hashable {
        /// The top-left pixel's (the default).
        case topLeft
        /// The bottom-right pixel's.
        case bottomRight
        /// This colour (opaque); pixels are compared after compositing over magenta.
        case colour(RGBA)
    }

    /// How a pixel's difference from the reference is measured.
    public enum Distance: String, Sendable, Hashable {
        /// The largest difference of one channel, alpha included (the default).
        case channel
        /// The Euclidean distance over the channels (thumbor's).
        case euclidean
    }

    /// The largest difference, 0…255 (0…510 for `.euclidean`), a pixel may have and still be border.
    public var threshold: Int
    /// What the border's colour is.
    public var reference: Reference = .topLeft
    /// How differences are measured.
    public var distance: Distance = .channel
    /// Whether left and right, or top and bottom, lose the same width (the smaller of the two).
    public var equalHorizontal = false, equalVertical = false

    /// Creates a trim; a threshold outside 0…255 throws `processingFailed`.
    public init(threshold: Int = 10) throws {
        guard (0...255).contains(threshold) else {
            throw ImagoError(.processingFailed, "trim threshold \(threshold) is not within 0…255")
        }
        self.threshold = threshold
    }

    /// Creates a trim against `reference`, measuring by `distance`, with equal sides as asked; a threshold outside
    /// 0…255 (0…510 for `.euclidean`) throws `processingFailed`.
    public init(
        threshold: Int, reference: Reference, distance: Distance = .channel, equalHorizontal: Bool = false,
        equalVertical: Bool = false
    ) throws {
        self.threshold = threshold
        (self.reference, self.distance, self.equalHorizontal, self.equalVertical) =
            (reference, distance, equalHorizontal, equalVertical)
        try validate()
    }

    private func validate() throws {
        let range = distance == .euclidean ? 0...510 : 0...255
        guard range.contains(threshold) else {
            throw ImagoError(.processingFailed, "trim threshold \(threshold) is not within \(range)")
        }
    }

    /// `trim(THRESHOLD)`, with `,ref=br` or `,ref=RRGGBBAA`, `,euclidean` and `,equal=hv` when set.
    public var identifier: String {
        var parts = ["\(threshold)"]
        switch reference {
        case .topLeft: break
        case .bottomRight: parts.append("ref=br")
        case .colour(let colour): parts.append("ref=\(colour.hex)")
        }
        if distance == .euclidean { parts.append("euclidean") }
        if equalHorizontal || equalVertical {
            parts.append("equal=" + (equalHorizontal ? "h" : "") + (equalVertical ? "v" : ""))
        }
        return "trim(\(parts.joined(separator: ",")))"
    }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        try validate()
        guard var box = box(in: image.raster, channels: image.hasAlpha ? 4 : 3) else { return image }
        if equalHorizontal {
            let cut = min(box.x, image.width - box.x - box.width)
            box = (cut, box.y, image.width - 2 * cut, box.height)
        }
        if equalVertical {
            let cut = min(box.y, image.height - box.y - box.height)
            box = (box.x, cut, box.width, image.height - 2 * cut)
        }
        guard box != (0, 0, image.width, image.height) else { return image }
        return try image.mappingRasters { try $0.cropped(x: box.x, y: box.y, width: box.width, height: box.height) }
    }

    /// The content's rectangle in `raster`, nil when it is all border.
    private func box(in raster: Raster, channels: Int) -> (x: Int, y: Int, width: Int, height: Int)? {
        if reference == .topLeft, distance == .channel { return raster.contentBox(threshold: threshold) }
        return raster.withUnsafeBytes { bytes in
            func pixel(_ x: Int, _ y: Int) -> SIMD4<Int> {
                let offset = y * raster.bytesPerRow + x * 4
                return SIMD4(Int(bytes[offset]), Int(bytes[offset + 1]), Int(bytes[offset + 2]), Int(bytes[offset + 3]))
            }
            let magenta = SIMD4<Int>(255, 0, 255, 255)
            func overMagenta(_ p: SIMD4<Int>) -> SIMD4<Int> {
                (p &* p[3] &+ magenta &* (255 - p[3]) &+ 127) / 255
            }
            let target: SIMD4<Int>
            switch reference {
            case .topLeft: target = pixel(0, 0)
            case .bottomRight: target = pixel(raster.width - 1, raster.height - 1)
            case .colour(let c): target = SIMD4(Int(c.r), Int(c.g), Int(c.b), 255)
            }
            let flattens = if case .colour = reference { true } else { false }
            let limit = threshold
            func isContent(_ x: Int, _ y: Int) -> Bool {
                let value = flattens ? overMagenta(pixel(x, y)) : pixel(x, y)
                var difference = value &- target
                if channels == 3 || flattens { difference[3] = 0 }
                switch distance {
                case .channel:
                    return max(abs(difference[0]), abs(difference[1]), abs(difference[2]), abs(difference[3])) > limit
                case .euclidean:
                    let sum = (difference &* difference).wrappedSum()
                    return Double(sum).squareRoot() > Double(limit)
                }
            }
            var (left, right, top, bottom) = (raster.width, -1, raster.height, -1)
            for y in 0..<raster.height {
                guard let first = (0..<raster.width).first(where: { isContent($0, y) }) else { continue }
                let last = (first..<raster.width).last(where: { isContent($0, y) }) ?? first
                (left, right, top, bottom) = (min(left, first), max(right, last), min(top, y), y)
            }
            guard right >= 0 else { return nil }
            return (left, top, right - left + 1, bottom - top + 1)
        }
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
