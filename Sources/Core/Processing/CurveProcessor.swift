/// Maps each colour channel through a curve given by points, joined by a natural cubic spline: thumbor's
/// `curve([(x,y),…],[…],[…],[…])`, whose first curve applies to all channels after each channel's own (red, green,
/// blue). Below the first point a curve gives the first point's level, from the last point on the last point's;
/// values are rounded half away from zero and clamped. Alpha is kept.
public struct CurveProcessor: ImageProcessor {
    /// A curve: points with strictly increasing x, every coordinate 0…255.
    public typealias Curve = [(x: Int, y: Int)]

    /// The curve applied to every channel, after the channel's own.
    public let all: Curve
    /// Each channel's own curve.
    public let red: Curve, green: Curve, blue: Curve

    /// Creates the processor; a curve without points, with a coordinate outside 0…255 or with x not strictly
    /// increasing throws `processingFailed`.
    public init(all: Curve, red: Curve, green: Curve, blue: Curve) throws {
        for curve in [all, red, green, blue] {
            guard !curve.isEmpty, curve.allSatisfy({ (0...255).contains($0.x) && (0...255).contains($0.y) }),
                zip(curve, curve.dropFirst()).allSatisfy({ $0.x < $1.x })
            else {
                throw ImagoError(
                    .processingFailed,
                    "curve \(Self.text(curve)): points need x rising strictly and coordinates within 0…255")
            }
        }
        (self.all, self.red, self.green, self.blue) = (all, red, green, blue)
    }

    /// `curve([(x,y),…],[…],[…],[…])`.
    public var identifier: String { "curve(\([all, red, green, blue].map(Self.text).joined(separator: ",")))" }

    static func text(_ curve: Curve) -> String { "[" + curve.map { "(\($0.x),\($0.y))" }.joined(separator: ",") + "]" }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        let common = Self.table(all)
        let tables = [red, green, blue].map { Self.table($0).map { common[Int($0)] } }
        return try image.mappingRasters { raster in
            try raster.mappingColours(through: tables)
        }
    }

    /// The 256 levels `curve` gives.
    static func table(_ curve: Curve) -> [UInt8] {
        var levels = [UInt8](repeating: UInt8(curve[0].y), count: 256)
        let curvature = secondDerivatives(curve)
        for index in 0..<(curve.count - 1) {
            let (start, end) = (curve[index], curve[index + 1])
            let span = Double(end.x - start.x)
            for x in start.x..<end.x {
                let b = Double(x - start.x) / span
                let a = 1 - b
                let y =
                    a * Double(start.y) + b * Double(end.y) + span * span / 6
                    * ((a * a * a - a) * curvature[index] + (b * b * b - b) * curvature[index + 1])
                levels[x] = UInt8(min(255, max(0, y.rounded(.toNearestOrAwayFromZero))))
            }
        }
        for x in curve[curve.count - 1].x..<256 { levels[x] = UInt8(curve[curve.count - 1].y) }
        return levels
    }

    /// The spline's second derivative at each point, zero at both ends (a natural spline), by the tridiagonal
    /// system's elimination.
    static func secondDerivatives(_ curve: Curve) -> [Double] {
        let count = curve.count
        guard count > 2 else { return [Double](repeating: 0, count: count) }
        var lower = [Double](repeating: 0, count: count)
        var diagonal = [Double](repeating: 1, count: count)
        var upper = [Double](repeating: 0, count: count)
        var rhs = [Double](repeating: 0, count: count)
        for i in 1..<(count - 1) {
            let (previous, point, next) = (curve[i - 1], curve[i], curve[i + 1])
            lower[i] = Double(point.x - previous.x) / 6
            diagonal[i] = Double(next.x - previous.x) / 3
            upper[i] = Double(next.x - point.x) / 6
            rhs[i] =
                Double(next.y - point.y) / Double(next.x - point.x) - Double(point.y - previous.y)
                / Double(point.x - previous.x)
        }
        for i in 1..<count {
            let factor = lower[i] / diagonal[i - 1]
            diagonal[i] -= factor * upper[i - 1]
            rhs[i] -= factor * rhs[i - 1]
        }
        var result = [Double](repeating: 0, count: count)
        result[count - 1] = rhs[count - 1] / diagonal[count - 1]
        for i in stride(from: count - 2, through: 0, by: -1) {
            result[i] = (rhs[i] - upper[i] * result[i + 1]) / diagonal[i]
        }
        return result
    }
}

extension CurveProcessor: FrameWiseProcessing {
    /// Always: each frame is mapped alike.
    public var processesFramesIndependently: Bool { true }
}
