import ImagoContracts
import ImagoCore
import Testing

/// The worked example processor and the processors of issue 24 keep the processor contract.
@Suite struct ProcessorContractTests {
    @Test func grayscaleProcessorKeepsTheProcessorContract() async {
        let contract = ImageProcessorContract(makeVariants: {
            [GrayscaleProcessor(intensity: 1), GrayscaleProcessor(intensity: 0.5), GrayscaleProcessor(intensity: 0)]
        })
        let report = await contract.run()
        #expect(report.passed, "\(report)")
        #expect(report.results.count == ImageProcessorContract.Check.allCases.count)
    }

    /// Issue 24's processors, each with variants differing in every parameter that changes pixels.
    static let issue24: [(String, @Sendable () throws -> [any ImageProcessor])] = [
        (
            "gravity",
            {
                [Gravity.center, .north, .southWest, .focusPoint(x: 0.2, y: 0.8), .smart].map {
                    ResizeProcessor(width: 16, height: 16, mode: .fill, gravity: $0)
                }
            }
        ),
        (
            "crop",
            {
                [
                    CropProcessor(
                        region: CropRegion(
                            x: .fraction(0.1), y: .fraction(0.1), width: .fraction(0.8), height: .fraction(0.8))),
                    CropProcessor(
                        region: CropRegion(x: .pixels(-4), y: .pixels(2), width: .pixels(20), height: .pixels(9))),
                    CropProcessor(aspectWidth: 1, aspectHeight: 1, gravity: .smart),
                    CropProcessor(aspectWidth: 3, aspectHeight: 1, gravity: .south),
                ]
            }
        ),
        ("trim", { [try TrimProcessor(threshold: 0), try TrimProcessor(threshold: 40)] }),
        (
            "pad",
            {
                [
                    try PadProcessor(all: 3), try PadProcessor(top: 1, right: 2, bottom: 3, left: 4),
                    try PadProcessor(all: 3, background: RGBA(0, 0, 0, 0)),
                ]
            }
        ),
        (
            "extend",
            {
                [
                    try ExtendProcessor(width: 80, height: 60),
                    try ExtendProcessor(width: 80, height: 60, gravity: .east),
                    try ExtendProcessor(width: 20, height: 60, background: RGBA(1, 2, 3, 4)),
                ]
            }
        ),
        ("rotate", { RotateProcessor.Angle.allCases.map(RotateProcessor.init) }),
        ("flip", { FlipProcessor.Direction.allCases.map(FlipProcessor.init) }),
        ("blur", { [try BlurProcessor(sigma: 0.5), try BlurProcessor(sigma: 4), try BlurProcessor(sigma: 100)] }),
        ("sharpen", { [try SharpenProcessor(sigma: 0.5), try SharpenProcessor(sigma: 3)] }),
        (
            "watermark",
            {
                let mark = try Raster(width: 6, height: 4, fill: RGBA(255, 0, 0, 128))
                let other = try Raster(width: 6, height: 4, fill: RGBA(0, 0, 255, 128))
                return [
                    try WatermarkProcessor(watermark: mark), try WatermarkProcessor(watermark: other),
                    try WatermarkProcessor(watermark: mark, opacity: 0.5, gravity: .center, scale: 0.5),
                    try WatermarkProcessor(watermark: mark, opacity: 0.5, gravity: .center),
                ]
            }
        ),
    ]

    @Test(arguments: issue24.indices)
    func issue24ProcessorKeepsTheProcessorContract(index: Int) async {
        let (name, makeVariants) = Self.issue24[index]
        let report = await ImageProcessorContract(makeVariants: makeVariants).run()
        #expect(report.passed, "\(name): \(report)")
        #expect(report.results.count == ImageProcessorContract.Check.allCases.count)
    }
}
