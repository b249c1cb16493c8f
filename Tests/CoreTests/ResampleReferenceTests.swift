import Foundation
import Testing

@testable import ImagoCore

/// The resampler (fixed tap counts padded with zero weights, a ring of resampled rows, byte/float conversions
/// without shifts) against a plain reference: every output pixel computed on its own in `Double`, from the
/// filter's weights over the source pixels it covers. Reductions below 3× (no block averaging), enlargements and
/// crops, opaque images and images with alpha.
@Suite struct ResampleReferenceTests {
    /// The weights of output `index` along an axis, normalised: (first source index, weights).
    static func referenceWeights(
        index: Int, sourceSize: Int, origin: Double, length: Double, outputSize: Int, filter: ResizeFilter
    ) -> (Int, [Double]) {
        let scale = length / Double(outputSize)
        let filterScale = max(1, scale)
        let support = filter.support * filterScale
        let center = origin + (Double(index) + 0.5) * scale
        let lowest = max(0, Int(origin.rounded(.down)))
        let highest = min(sourceSize, Int((origin + length).rounded(.up)))
        let first = max(lowest, Int((center - support).rounded(.down)))
        let last = min(highest, Int((center + support).rounded(.up)))
        let weights = (first..<max(first, last)).map { filter.weight((Double($0) + 0.5 - center) / filterScale) }
        let total = weights.reduce(0, +)
        return (first, weights.map { $0 / total })
    }

    /// The reference resample of `raster`'s `rect` to `width` × `height`.
    static func reference(
        _ raster: Raster, rect: (x: Double, y: Double, width: Double, height: Double), width: Int, height: Int,
        filter: ResizeFilter, premultiply: Bool
    ) -> [UInt8] {
        var output: [UInt8] = []
        for y in 0..<height {
            let (top, rows) = referenceWeights(
                index: y, sourceSize: raster.height, origin: rect.y, length: rect.height, outputSize: height,
                filter: filter)
            for x in 0..<width {
                let (left, columns) = referenceWeights(
                    index: x, sourceSize: raster.width, origin: rect.x, length: rect.width, outputSize: width,
                    filter: filter)
                var sum = [0.0, 0.0, 0.0, 0.0]
                for (j, wy) in rows.enumerated() {
                    for (i, wx) in columns.enumerated() {
                        let pixel = raster[left + i, top + j]
                        let alpha = Double(pixel.a)
                        let factor = premultiply ? alpha / 255 : 1
                        sum[0] += Double(pixel.r) * factor * wx * wy
                        sum[1] += Double(pixel.g) * factor * wx * wy
                        sum[2] += Double(pixel.b) * factor * wx * wy
                        sum[3] += alpha * wx * wy
                    }
                }
                let alpha = min(max(sum[3], 0), 255)
                if premultiply && alpha < 0.5 {
                    output += [0, 0, 0, 0]
                    continue
                }
                let unpremultiply = premultiply ? 255 / alpha : 1
                for channel in 0..<3 {
                    output.append(UInt8(min(max(sum[channel] * unpremultiply, 0), 255).rounded()))
                }
                output.append(premultiply ? UInt8(alpha.rounded()) : 255)
            }
        }
        return output
    }

    /// A noisy image (a fixed generator), opaque or with alpha everywhere from 1 to 255.
    static func noise(width: Int, height: Int, opaque: Bool, seed: UInt64) throws -> Raster {
        var state = seed
        var pixels: [UInt8] = []
        for _ in 0..<(width * height) {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let bits = state >> 24
            pixels += [
                UInt8(truncatingIfNeeded: bits), UInt8(truncatingIfNeeded: bits >> 8),
                UInt8(truncatingIfNeeded: bits >> 16), opaque ? 255 : UInt8(1 + (bits >> 24) % 255),
            ]
        }
        return try Raster(width: width, height: height, pixels: pixels)
    }

    struct Case: CustomStringConvertible, Sendable {
        var source: (Int, Int)
        var rect: (x: Double, y: Double, width: Double, height: Double)?
        var output: (Int, Int)
        var description: String { "\(source) \(rect.map { "\($0)" } ?? "whole") to \(output)" }
    }

    static let cases: [Case] = [
        Case(source: (400, 300), output: (256, 192)),  // the thumbnail batch's resize, after the 1/4 decode
        Case(source: (37, 23), output: (20, 13)),
        Case(source: (64, 48), output: (30, 47)),  // shrinks one axis, barely the other
        Case(source: (17, 9), output: (40, 25)),  // enlarges
        Case(source: (90, 60), rect: (x: 10.5, y: 3.25, width: 50, height: 41.5), output: (31, 29)),  // a crop
        Case(source: (5, 4), output: (3, 2)),  // fewer source pixels than taps
    ]

    @Test(arguments: cases, [true, false])
    func matchesTheReference(_ testCase: Case, opaque: Bool) throws {
        for filter in ResizeFilter.allCases {
            let raster = try Self.noise(
                width: testCase.source.0, height: testCase.source.1, opaque: opaque, seed: UInt64(testCase.output.0))
            let rect =
                testCase.rect ?? (x: 0, y: 0, width: Double(testCase.source.0), height: Double(testCase.source.1))
            let resized = try raster.resampled(
                sourceRect: rect, outputWidth: testCase.output.0, outputHeight: testCase.output.1, filter: filter,
                premultiply: !opaque)
            let expected = Self.reference(
                raster, rect: rect, width: testCase.output.0, height: testCase.output.1, filter: filter,
                premultiply: !opaque)
            let actual = resized.pixels
            #expect(actual.count == expected.count)
            // Float against Double sums, and a rounding either side of .5: at most one level apart. Where the
            // straight colour comes from a tiny alpha, one level of premultiplied error grows by 255 / alpha.
            var worst = 0
            for index in actual.indices where index % 4 == 3 || expected[index - index % 4 + 3] >= 64 {
                worst = max(worst, abs(Int(actual[index]) - Int(expected[index])))
            }
            #expect(worst <= 1, "\(filter), \(opaque ? "opaque" : "alpha"): \(worst) levels off")
        }
    }

    @Test(arguments: cases)
    func everyOutputHasTheSameTapsInsideTheSourceSummingToOne(_ testCase: Case) {
        let length = testCase.rect?.width ?? Double(testCase.source.0)
        for filter in ResizeFilter.allCases {
            let weights = ResampleWeights(
                sourceSize: testCase.source.0, origin: testCase.rect?.x ?? 0, length: length,
                outputSize: testCase.output.0, filter: filter)
            #expect(weights.weights.count == testCase.output.0 * weights.taps)
            #expect(weights.lanes.count == weights.weights.count)
            for (index, start) in weights.starts.enumerated() {
                #expect(start >= 0 && start + weights.taps <= testCase.source.0, "\(filter) output \(index)")
                let sum = weights.weights[(index * weights.taps)..<((index + 1) * weights.taps)].reduce(0, +)
                #expect(abs(sum - 1) < 1e-4, "\(filter) output \(index) sums to \(sum)")
            }
        }
    }
}
