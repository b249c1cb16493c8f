import Foundation
import Imago
import Testing

/// A watermark's image is held through the render: it is reserved in the pixel budget with the decode, the
/// processed pixels and the encoder's memory, before the work (`HeldMemoryEstimating`).
@Suite struct WatermarkBudgetTests {
    @Test func aMarkThatCanNeverFitTheBudgetIsRefusedBeforeTheWork() async throws {
        let rig = RenderRig(pixelBudget: 4 << 20)
        let png = try PNGCodec().encode(
            DecodedImage(raster: try Raster(width: 40, height: 30, fill: RGBA(9, 9, 9)), format: .png))
        // 1200 × 1000: 4.6 MiB of mark on a 40 × 30 image.
        let big = try WatermarkProcessor(watermark: try Raster(width: 1200, height: 1000, fill: RGBA(255, 0, 0)))
        #expect([big as any ImageProcessor].heldBytes(for: PixelSize(width: 40, height: 30)) == 4_800_000)
        let error = await #expect(throws: ImagoError.self) { try await rig.render(png, to: .png, processors: [big]) }
        #expect(error?.kind == .limitExceeded, "\(error?.reason ?? "")")
        #expect(rig.loader.statistics.decodes == 0, "refused before the work: nothing was decoded")
        #expect(rig.loader.pixelBudget.usedBytes == 0)
        // A small mark fits; scaled to fit half the width, its copy is counted too.
        var small = try WatermarkProcessor(watermark: try Raster(width: 10, height: 10, fill: RGBA(255, 0, 0)))
        small.fit = (0.5, nil)
        #expect([small as any ImageProcessor].heldBytes(for: PixelSize(width: 40, height: 30)) == 400 + 4 * 20 * 20)
        let result = try await rig.render(png, to: .png, processors: [small])
        #expect(result.format == .png && rig.loader.pixelBudget.usedBytes == 0)
    }

    @Test func aStreamedAnimationReservesItsMarkToo() async throws {
        let gif = try GIFCodec().encode(try AnimationFixtures.animation(frames: 5))
        let rig = RenderRig(pixelBudget: 4 << 20)
        let big = try WatermarkProcessor(watermark: try Raster(width: 1200, height: 1000, fill: RGBA(255, 0, 0)))
        let error = await #expect(throws: ImagoError.self) { try await rig.render(gif, to: .webp, processors: [big]) }
        #expect(error?.kind == .limitExceeded && error?.reason.contains("streaming") == true, "\(error?.reason ?? "")")
        #expect(rig.loader.statistics.decodes == 0 && rig.loader.pixelBudget.usedBytes == 0)
        let small = try WatermarkProcessor(watermark: try Raster(width: 8, height: 8, fill: RGBA(255, 0, 0)))
        let output = try await rig.render(gif, to: .webp, processors: [small])
        #expect(output.streamed && output.frameCount == 5 && rig.loader.pixelBudget.usedBytes == 0)
    }
}
