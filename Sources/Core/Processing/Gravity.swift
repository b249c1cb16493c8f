/// Where a window is kept when an image is cut to a smaller one (`ResizeProcessor`'s `.fill`, an aspect crop), or
/// where an image is placed on a larger canvas (`ExtendProcessor`, `WatermarkProcessor`).
public enum Gravity: Sendable, Hashable, CustomStringConvertible {
    /// The middle (the default).
    case center
    /// The top edge, centred horizontally.
    case north
    /// The bottom edge, centred horizontally.
    case south
    /// The right edge, centred vertically.
    case east
    /// The left edge, centred vertically.
    case west
    /// The top-right corner.
    case northEast
    /// The top-left corner.
    case northWest
    /// The bottom-right corner.
    case southEast
    /// The bottom-left corner.
    case southWest
    /// A point given as fractions (0…1) of the width and height: a window is centred on it as far as the image
    /// allows; an image placed on a canvas has this point of its free space (like the anchors above).
    case focusPoint(x: Double, y: Double)
    /// The window with the most salient content, by Imago's attention model (`Raster.attentionWindow`); placing
    /// an image on a canvas has nothing to look at, and centres it.
    case smart
    /// The window that keeps the regions a detector found (faces): their bounding box whole when the window holds
    /// it, centred on their centre weighted by area and confidence as far as the box and the image allow. Without a
    /// region it is `.smart`. The regions are placed on the image by `DetectionResult.regions(in:)`, so the image
    /// may be a scaled copy (a reduced decode) of the one detected on; placing on a canvas centres.
    case regions(DetectionResult)

    /// The short name used in identifiers and URLs: `c`, `n`, `s`, `e`, `w`, `ne`, `nw`, `se`, `sw`, `fp:X:Y`, `sm`;
    /// `regions(RESULT)` names every region (no URL names regions: a grammar's `face` asks a detector for them).
    public var code: String {
        switch self {
        case .center: "c"
        case .north: "n"
        case .south: "s"
        case .east: "e"
        case .west: "w"
        case .northEast: "ne"
        case .northWest: "nw"
        case .southEast: "se"
        case .southWest: "sw"
        case .focusPoint(let x, let y): "fp:\(x):\(y)"
        case .smart: "sm"
        case .regions(let result): "regions(\(result))"
        }
    }

    /// Whether the window depends on the pixels of the first frame (`.smart`, and `.regions` without a region), so
    /// the frames of an animation cannot be placed one by one.
    public var looksAtContent: Bool {
        switch self {
        case .smart: true
        case .regions(let result): result.regions.isEmpty
        default: false
        }
    }

    public var description: String { code }

    /// The gravity a `code` names, or nil.
    public init?(code: String) {
        switch code {
        case "c": self = .center
        case "n": self = .north
        case "s": self = .south
        case "e": self = .east
        case "w": self = .west
        case "ne": self = .northEast
        case "nw": self = .northWest
        case "se": self = .southEast
        case "sw": self = .southWest
        case "sm": self = .smart
        default:
            let parts = code.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0] == "fp", let x = Double(parts[1]), let y = Double(parts[2]) else {
                return nil
            }
            self = .focusPoint(x: x, y: y)
        }
    }

    /// Throws `processingFailed` for a focus point outside 0…1 (or not a number).
    public func validate() throws {
        if case .focusPoint(let x, let y) = self, !((0...1).contains(x) && (0...1).contains(y)) {
            throw ImagoError(.processingFailed, "focus point (\(x), \(y)) is not within 0…1")
        }
    }

    /// Fractions of the free space left of and above the placed thing (0 = left or top, 1 = right or bottom).
    var anchor: (x: Double, y: Double) {
        switch self {
        case .center, .smart, .regions: (0.5, 0.5)
        case .north: (0.5, 0)
        case .south: (0.5, 1)
        case .east: (1, 0.5)
        case .west: (0, 0.5)
        case .northEast: (1, 0)
        case .northWest: (0, 0)
        case .southEast: (1, 1)
        case .southWest: (0, 1)
        case .focusPoint(let x, let y): (x, y)
        }
    }

    /// The origin of a `window` (no larger than the image) inside `raster`'s `width` × `height`: an edge or
    /// corner, centred on the focus point as far as the image allows, or the most salient window (`raster` is
    /// looked at only for `.smart`, and a nil raster centres it).
    func windowOrigin(
        window: (width: Double, height: Double), width: Int, height: Int, raster: Raster?
    ) -> (x: Double, y: Double) {
        let freeX = max(0, Double(width) - window.width)
        let freeY = max(0, Double(height) - window.height)
        switch self {
        case .smart:
            guard let raster else { return (freeX / 2, freeY / 2) }
            return raster.attentionWindow(width: window.width, height: window.height)
        case .regions(let result):
            let regions = result.regions(in: PixelSize(width: width, height: height))
            guard !regions.isEmpty else {
                return Gravity.smart.windowOrigin(window: window, width: width, height: height, raster: raster)
            }
            return Self.origin(keeping: regions, window: window, width: width, height: height)
        case .focusPoint(let x, let y):
            let originX = x * Double(width) - window.width / 2
            let originY = y * Double(height) - window.height / 2
            return (min(max(originX, 0), freeX), min(max(originY, 0), freeY))
        default:
            return (anchor.x * freeX, anchor.y * freeY)
        }
    }

    /// Where something `width` × `height` goes on a `canvasWidth` × `canvasHeight` canvas (negative when it is
    /// larger than the canvas and sticks out); `.smart` centres.
    func placement(width: Int, height: Int, canvasWidth: Int, canvasHeight: Int) -> (x: Int, y: Int) {
        let (ax, ay) = anchor
        return (
            Int((Double(canvasWidth - width) * ax).rounded(.down)),
            Int((Double(canvasHeight - height) * ay).rounded(.down))
        )
    }

    /// The origin of `window` keeping `regions` (inside the image): see `.regions`.
    static func origin(
        keeping regions: [DetectedRegion], window: (width: Double, height: Double), width: Int, height: Int
    ) -> (x: Double, y: Double) {
        var weights = 0.0
        var centre = (x: 0.0, y: 0.0)
        for region in regions {
            let weight = Double(region.area) * max(region.confidence, 0.01)
            weights += weight
            centre.x += (Double(region.x) + Double(region.width) / 2) * weight
            centre.y += (Double(region.y) + Double(region.height) / 2) * weight
        }
        centre = (centre.x / weights, centre.y / weights)
        func axis(_ centre: Double, low: Int, high: Int, window: Double, length: Int) -> Double {
            let free = max(0, Double(length) - window)
            var origin = centre - window / 2
            // The box whole when it fits: the window may start no later than its first pixel, no earlier than
            // its last pixel minus the window.
            if Double(high - low) <= window { origin = min(max(origin, Double(high) - window), Double(low)) }
            return min(max(origin, 0), free)
        }
        return (
            axis(
                centre.x, low: regions.map(\.x).min()!, high: regions.map { $0.x + $0.width }.max()!,
                window: window.width, length: width),
            axis(
                centre.y, low: regions.map(\.y).min()!, high: regions.map { $0.y + $0.height }.max()!,
                window: window.height, length: height)
        )
    }
}
