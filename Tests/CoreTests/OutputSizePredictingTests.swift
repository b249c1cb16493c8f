import Testing

@testable import ImagoCore

/// A render reserves its whole peak before the work from the sizes its processors predict (issue 33): each
/// prediction is the size the processor then gives, or an upper bound of it.
@Suite struct OutputSizePredictingTests {
    static let sizes = [
        PixelSize(width: 40, height: 30), PixelSize(width: 17, height: 61), PixelSize(width: 1, height: 1),
    ]

    static func processors() throws -> [any ImageProcessor] {
        [
            try ScaleProcessor(x: 2.5, y: 0.5), try ScaleProcessor(x: 0.01, y: 0.01, rounding: .down),
            try AspectExtendProcessor(aspectWidth: 16, aspectHeight: 9, background: RGBA(0, 0, 0)),
            try CanvasFillProcessor(width: 50, height: nil, fill: .colour(RGBA(1, 2, 3))),
            try CanvasFillProcessor(width: 20, height: 20, fill: .average),
            StretchProcessor(width: 0, height: 25, upscale: true), StretchProcessor(width: 33, height: 0),
            StretchProcessor(width: 80, height: 10),
            try ExtendProcessor(width: 30, height: 45), try PixelateProcessor(blockSize: 3),
            FlattenProcessor(background: RGBA(255, 255, 255, 128)), try SaturationProcessor(factor: 0.2),
            try WaveletSharpenProcessor(amount: 1, radius: 1, luminanceOnly: false),
            try TruncatedGaussianBlurProcessor(radius: 2), EqualizeProcessor(), try NoiseProcessor(amount: 10),
            try ChannelShiftProcessor(red: 2, green: -1, blue: 0),
            try ColorizeProcessor(redPercent: 10, greenPercent: 20, bluePercent: 30, colour: RGBA(9, 9, 9)),
            try ConvolutionProcessor(kernel: [0, -1, 0, -1, 5, -1, 0, -1, 0], columns: 3, normalize: false),
        ]
    }

    @Test func everyPredictionIsTheSizeTheProcessorGives() throws {
        for processor in try Self.processors() {
            let predicting = try #require(processor as? any OutputSizePredicting, "\(processor.identifier)")
            for size in Self.sizes {
                let image = DecodedImage(
                    raster: try Raster(width: size.width, height: size.height, fill: RGBA(200, 100, 50, 128)),
                    format: .png)
                let output = try processor.process(image)
                let predicted = try #require(predicting.predictedOutputSize(for: size))
                #expect(
                    predicted == PixelSize(width: output.width, height: output.height),
                    "\(processor.identifier) on \(size)")
            }
        }
    }

    @Test func aChainPredictsThroughEveryStepOrNotAtAll() throws {
        let chain: [any ImageProcessor] = [
            try ScaleProcessor(x: 2, y: 2),
            try AspectExtendProcessor(aspectWidth: 1, aspectHeight: 1, background: RGBA(0, 0, 0)),
        ]
        #expect(chain.predictedOutputSize(for: PixelSize(width: 40, height: 30)) == PixelSize(width: 80, height: 80))
        // The orientation depends on the image, not its size: a chain with it cannot tell.
        #expect((chain + [OrientationProcessor()]).predictedOutputSize(for: PixelSize(width: 40, height: 30)) == nil)
    }
}
