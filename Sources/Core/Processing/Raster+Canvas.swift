/// Canvases for the processors that grow an image (pad, extend) or draw on it (watermark).
extension Raster {
    /// This raster drawn at (`x`, `y`) on a `width` × `height` canvas of `background`: the part outside the canvas
    /// is cut off (`x` and `y` may be negative), pixels are copied as they are (no blending).
    public func placed(
        onCanvasOfWidth canvasWidth: Int, height canvasHeight: Int, x: Int, y: Int, background: RGBA
    ) throws -> Raster {
        try withUnsafeBytes { source in
            try Raster(width: canvasWidth, height: canvasHeight) { target in
                let words = target.bindMemory(to: UInt32.self)
                let fill =
                    UInt32(background.r) | UInt32(background.g) << 8 | UInt32(background.b) << 16
                    | UInt32(background.a) << 24
                words.initialize(repeating: UInt32(littleEndian: fill))
                let left = max(0, x)
                let right = min(canvasWidth, x + width)
                let top = max(0, y)
                let bottom = min(canvasHeight, y + height)
                guard left < right, top < bottom else { return }
                let rowBytes = (right - left) * 4
                for row in top..<bottom {
                    let from = (row - y) * bytesPerRow + (left - x) * 4
                    let to = (row * canvasWidth + left) * 4
                    UnsafeMutableRawBufferPointer(rebasing: target[to..<(to + rowBytes)])
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[from..<(from + rowBytes)]))
                }
            }
        }
    }
}

extension DecodeLimits {
    /// Throws `limitExceeded` when `frames` frames of `width` × `height` (the output of a processor that grows
    /// the image, `what`) are over `maxPixels` or `maxTotalPixels` and larger than the source: checked before
    /// anything is allocated.
    func checkGrowth(width: Int, height: Int, frames: Int, sourcePixels: Int, what: String) throws {
        guard width > 0, height > 0 else {
            throw ImagoError(.processingFailed, "\(what): empty output \(width)x\(height)")
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || (pixels > maxPixels && pixels > sourcePixels) {
            throw ImagoError(
                .limitExceeded,
                "too large: \(what) to \(width)x\(height) exceeds the \(Self.megapixels(maxPixels)) limit")
        }
        let (total, totalOverflow) = pixels.multipliedReportingOverflow(by: Swift.max(frames, 1))
        if totalOverflow || (total > maxTotalPixels && pixels > sourcePixels) {
            throw ImagoError(
                .limitExceeded,
                "too large: \(what) of \(frames) frames to \(width)x\(height) exceeds the "
                    + "\(Self.megapixels(maxTotalPixels)) limit")
        }
    }
}

extension DecodedImage {
    /// The image with every frame's raster replaced by `transform`'s (durations kept).
    func mappingRasters(_ transform: (Raster) throws -> Raster) rethrows -> DecodedImage {
        var result = self
        result.frames = try frames.map { ImageFrame(raster: try transform($0.raster), duration: $0.duration) }
        return result
    }
}

extension RGBA {
    /// `RRGGBBAA` in lowercase hex, for identifiers.
    var hex: String {
        [r, g, b, a].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// A colour from `RRGGBB` (opaque) or `RRGGBBAA` hex digits, either case, no `#`; nil for anything else.
    public init?(hex: some StringProtocol) {
        let digits = String(hex)
        guard digits.utf8.count == 6 || digits.utf8.count == 8, digits.allSatisfy(\.isHexDigit),
            let value = UInt32(digits, radix: 16)
        else { return nil }
        let rgba = digits.utf8.count == 6 ? value << 8 | 0xFF : value
        self.init(UInt8(rgba >> 24), UInt8((rgba >> 16) & 0xFF), UInt8((rgba >> 8) & 0xFF), UInt8(rgba & 0xFF))
    }

    /// An opaque pixel of `color`.
    public init(_ color: RGBColor) {
        self.init(color.r, color.g, color.b, 255)
    }
}
