import ImagoCore

/// A worked example of a detector: finds patches of one colour (markers stuck on a photo, a chroma-key card) as
/// regions of kind `marker`, each the bounding box of a connected patch, with the share of the box the colour fills
/// as its confidence. It checks its context every 32 rows, so a cancelled or late load stops it.
struct MarkerDetector: ImageDetector {
    /// The marker colour, and how far (per channel) a pixel may be from it.
    let color: RGBA
    let tolerance: Int
    /// Patches smaller than this many pixels on a side are noise.
    let minimumSide: Int

    static let marker: RegionKind = "marker"

    init(color: RGBA = RGBA(255, 0, 255), tolerance: Int = 24, minimumSide: Int = 4) {
        self.color = color
        self.tolerance = tolerance
        self.minimumSide = minimumSide
    }

    var identifier: String { "marker(\(color.r),\(color.g),\(color.b)±\(tolerance),\(minimumSide))" }
    var kinds: Set<RegionKind> { [Self.marker] }

    func detect(in raster: Raster, context: DetectionContext) throws -> [DetectedRegion] {
        try context.checkpoint()
        let (width, height) = (raster.width, raster.height)
        var mask = [Bool](repeating: false, count: width * height)
        raster.withUnsafeBytes { bytes in
            for y in 0..<height {
                for x in 0..<width {
                    let offset = y * raster.bytesPerRow + x * 4
                    mask[y * width + x] =
                        abs(Int(bytes[offset]) - Int(color.r)) <= tolerance
                        && abs(Int(bytes[offset + 1]) - Int(color.g)) <= tolerance
                        && abs(Int(bytes[offset + 2]) - Int(color.b)) <= tolerance && bytes[offset + 3] > 127
                }
            }
        }
        var regions: [DetectedRegion] = []
        var stack: [Int] = []
        for y in 0..<height {
            if y % 32 == 0 { try context.checkpoint() }
            for x in 0..<width where mask[y * width + x] {
                // Flood the patch, clearing it, and keep its bounding box and pixel count.
                var (left, top, right, bottom, count) = (x, y, x, y, 0)
                mask[y * width + x] = false
                stack.append(y * width + x)
                while let index = stack.popLast() {
                    let (px, py) = (index % width, index / width)
                    count += 1
                    (left, right, top, bottom) = (min(left, px), max(right, px), min(top, py), max(bottom, py))
                    for (nx, ny) in [(px - 1, py), (px + 1, py), (px, py - 1), (px, py + 1)]
                    where nx >= 0 && ny >= 0 && nx < width && ny < height && mask[ny * width + nx] {
                        mask[ny * width + nx] = false
                        stack.append(ny * width + nx)
                    }
                }
                let (boxWidth, boxHeight) = (right - left + 1, bottom - top + 1)
                guard boxWidth >= minimumSide, boxHeight >= minimumSide else { continue }
                regions.append(
                    DetectedRegion(
                        kind: Self.marker, x: left, y: top, width: boxWidth, height: boxHeight,
                        confidence: Double(count) / Double(boxWidth * boxHeight)))
            }
        }
        return regions
    }
}
