import Foundation
import Imago
import Synchronization
import Testing

/// Every render is budgeted before its work starts (issue 33, item 2): an animation's frames × canvas and frame
/// count from the file's structure, the encoder's memory in the pixel budget; and it stops when its caller goes.
@Suite struct ImageLoaderRenderBudgetTests {
    @Test(arguments: [10, 300])
    func aCanvasBombIsRefusedFromItsHeaderWhateverTheOutput(frames: Int) async throws {
        // 7000 × 7000 × 10 frames of 1 × 1: 269 bytes that asked for 490 MP of canvases (35 s of CPU before).
        let bomb = AnimationFixtures.tinyFrameGIF(frames: frames, width: 7000, height: 7000)
        let rig = RenderRig()
        for (format, kind) in [(ImageFormat.webp, RenderOutput.Kind.encoded), (nil, .encoded), (.png, .decoded)] {
            let error = await #expect(throws: ImagoError.self, "\(format?.rawValue ?? "own"), \(kind)") {
                try await rig.render(bomb, to: format, kind: kind)
            }
            #expect(error?.kind == .limitExceeded)
            #expect(
                error?.reason.contains("frames of 7000x7000 exceed the 400 MP limit") == true, "\(error?.reason ?? "")")
        }
        #expect(rig.loader.statistics.decodes == 0, "no frame was decoded")
    }

    @Test func framesOverTheLimitsAreRefusedBeforeAnyIsDecoded() async throws {
        let gif = try GIFCodec().encode(try AnimationFixtures.animation(frames: 5))
        let small = RenderRig(limits: DecodeLimits(maxPixels: 100))
        await #expect(throws: ImagoError.self) { try await small.render(gif, to: .webp) }
        let few = RenderRig(limits: DecodeLimits(maxFrames: 3))
        let error = await #expect(throws: ImagoError.self) { try await few.render(gif, to: .webp) }
        #expect(error?.kind == .limitExceeded && few.loader.statistics.decodes == 0)
        // 200 000 frames are counted without keeping them, and refused by the default limit of 10 000.
        let many = AnimationFixtures.tinyFrameGIF(frames: 200_000)
        let counted = try GIFCodec().animationInfo(many, limits: .default)
        #expect(counted.frameCount == 200_000 && abs(counted.totalDuration - 4000) < 0.001)
        let rig = RenderRig()
        let refused = await #expect(throws: ImagoError.self) { try await rig.render(many, to: .gif) }
        #expect(refused?.kind == .limitExceeded && rig.loader.statistics.decodes == 0)
    }

    @Test func anEncoderThatCanNeverFitTheBudgetIsRefusedNamingIt() async throws {
        let rig = RenderRig(pixelBudget: 4 << 20)
        let png = try PNGCodec().encode(
            DecodedImage(raster: try Raster(width: 40, height: 30, fill: RGBA(9, 9, 9)), format: .png))
        // 40×30 pixels enlarged to 1000×1000: the encoder alone would need more than the whole budget.
        let enlarge = ResizeProcessor(width: 1000, height: 1000, mode: .fill, upscale: true)
        let error = await #expect(throws: ImagoError.self) {
            try await rig.render(png, to: .jxl, processors: [enlarge])
        }
        #expect(error?.kind == .limitExceeded)
        #expect(
            error?.reason.hasPrefix("the jxl encoder for 1000x1000") == true, "\(error?.reason ?? "")")
        #expect(error?.reason.contains("needs about") == true)
        #expect(rig.loader.statistics.decodes == 0, "refused before the work: nothing was decoded")
        #expect(error?.reason.contains("pixel memory budget of 4 MiB") == true)
        #expect(rig.loader.pixelBudget.usedBytes == 0, "nothing is left reserved")
        // A small output fits, and waits its turn while the budget is spent.
        let held = try await rig.loader.pixelBudget.reserve(bytes: 4 << 20)
        let render = Task { try await rig.render(png, to: .png) }
        try await eventually { rig.loader.pixelBudget.waitingCount == 1 }
        #expect(rig.loader.pixelBudget.waitingCount == 1, "the render waits while the budget is spent")
        held.release()
        #expect(try await render.value.format == .png)
        #expect(rig.loader.pixelBudget.usedBytes == 0)
    }

    @Test func theDialectsProcessorsPredictTheirSizeSoTheirRendersAreRefusedBeforeTheWork() async throws {
        // 40×30 scaled ×25 (1000×750), pixelated, flattened, recoloured, sharpened and blurred (same size), extended to
        // 1:1 (1000×1000), filled onto a 1200-wide canvas (1200×1000): every step tells its size from its input's,
        // so the whole peak is known before the decode, and the JPEG XL encoder alone is over the budget.
        let rig = RenderRig(pixelBudget: 4 << 20)
        let png = try PNGCodec().encode(
            DecodedImage(raster: try Raster(width: 40, height: 30, fill: RGBA(9, 9, 9)), format: .png))
        let processors: [any ImageProcessor] = [
            try ScaleProcessor(x: 25, y: 25), try PixelateProcessor(blockSize: 2),
            FlattenProcessor(background: RGBA(255, 255, 255)), try SaturationProcessor(factor: 0.5),
            try WaveletSharpenProcessor(amount: 1, radius: 1, luminanceOnly: true),
            try TruncatedGaussianBlurProcessor(radius: 2), EqualizeProcessor(),
            try ChannelShiftProcessor(red: 1, green: 0, blue: 0), try NoiseProcessor(amount: 5),
            try AspectExtendProcessor(aspectWidth: 1, aspectHeight: 1, background: RGBA(0, 0, 0)),
            try CanvasFillProcessor(width: 1200, height: nil, fill: .colour(RGBA(0, 0, 0))),
        ]
        #expect(
            processors.predictedOutputSize(for: PixelSize(width: 40, height: 30))
                == PixelSize(width: 1200, height: 1000))
        let error = await #expect(throws: ImagoError.self) {
            try await rig.render(png, to: .jxl, processors: processors)
        }
        #expect(error?.kind == .limitExceeded)
        #expect(error?.reason.hasPrefix("the jxl encoder for 1200x1000") == true, "\(error?.reason ?? "")")
        #expect(rig.loader.statistics.decodes == 0, "refused before the work: nothing was decoded")
        #expect(rig.loader.pixelBudget.usedBytes == 0)
    }

    @Test func rendersThatCannotRunTogetherTakeTurnsInsteadOfWaitingForEachOther() async throws {
        // Each needs about 24 MB at its peak (the decode, 2000×2000 processed pixels, the PNG encoder): one fits in
        // the 40 MiB budget, two do not. Reserved all at once before the work, the second waits for the first; had
        // each waited for its encoder's share while holding its processed pixels, both would wait for ever.
        let rig = RenderRig(pixelBudget: 40 << 20)
        let small = try PNGCodec().encode(
            DecodedImage(raster: try Raster(width: 100, height: 100, fill: RGBA(3, 4, 5)), format: .png))
        let enlarge = ResizeProcessor(width: 2000, height: 2000, mode: .fill, upscale: true)
        let renders = (0..<2).map { index in
            Task { try await rig.render(small, to: .png, processors: [enlarge, CountingProcessor()]) }
        }
        let finished = Task {
            for render in renders { _ = try await render.value }
            return true
        }
        let watchdog = Task {
            try await Task.sleep(for: .seconds(240))
            for render in renders { render.cancel() }
        }
        let done = (try? await finished.value) == true
        watchdog.cancel()
        #expect(done, "both renders finished")
        #expect(rig.loader.pixelBudget.usedBytes == 0)
    }

    @Test func aStreamedConversionWaitsItsTurnInThePixelBudget() async throws {
        let gif = try GIFCodec().encode(try AnimationFixtures.animation(frames: 5))
        let rig = RenderRig(pixelBudget: 4 << 20)
        let held = try await rig.loader.pixelBudget.reserve(bytes: 4 << 20)
        let conversion = Task { try await rig.render(gif, to: .webp) }
        try await eventually { rig.loader.pixelBudget.waitingCount == 1 }
        #expect(rig.loader.pixelBudget.waitingCount == 1, "the conversion waits while the budget is spent")
        held.release()
        let output = try await conversion.value
        #expect(output.streamed && output.frameCount == 5)
        #expect(rig.loader.pixelBudget.usedBytes == 0, "its reservations are given back")
    }

    @Test func aStreamedRenderStopsWhenItsCallerGoes() async throws {
        let gif = try GIFCodec().encode(try AnimationFixtures.animation(frames: 40))
        let counting = CountingProcessor(blocking: true)
        let rig = RenderRig()
        let render = Task { try await rig.render(gif, to: .webp, processors: [counting]) }
        counting.release(3)
        try await eventually { counting.processed >= 4 }
        render.cancel()
        counting.release(100)
        let error = await #expect(throws: ImagoError.self) { try await render.value }
        #expect(error?.kind == .cancelled)
        #expect(counting.processed < 40, "it stopped within a frame, not after \(counting.processed)")
        try await eventually { rig.loader.pixelBudget.usedBytes == 0 }
        #expect(rig.loader.pixelBudget.usedBytes == 0, "its reservations are given back")
    }

    @Test func aWholeRenderStopsBetweenProcessorsWhenItsCallerGoes() async throws {
        let png = try PNGCodec().encode(try AnimationFixtures.animation(frames: 1))
        let first = CountingProcessor(blocking: true)
        let second = CountingProcessor()
        let rig = RenderRig()
        let render = Task { try await rig.render(png, to: .png, processors: [first, second]) }
        try await eventually { first.processed == 1 }
        render.cancel()
        first.release()
        let error = await #expect(throws: ImagoError.self) { try await render.value }
        #expect(error?.kind == .cancelled && second.processed == 0)
    }
}

/// The encoders' measured memory (`imago-bench encoder-memory`), as the render reserves it.
@Suite struct EncoderMemoryEstimateTests {
    @Test func everyBuiltInEncoderEstimatesAndTheEstimatesGrowWithThePixels() throws {
        let registry = PluginRegistry.standard()
        let size = PixelSize(width: 4000, height: 3000)
        var estimates: [String: Int] = [:]
        for name in ["jpeg", "png", "webp", "gif", "avif", "heic", "jxl"] {
            let encoder = try #require(registry.encoder(for: ImageFormat(name)))
            #expect(encoder is any EncoderMemoryEstimating, "\(name) gives no estimate")
            let estimate = encoder.memoryEstimate(for: size, frames: 1, options: .default)
            #expect(
                estimate > encoder.memoryEstimate(for: PixelSize(width: 400, height: 300), frames: 1, options: .default)
            )
            estimates[name] = estimate >> 20
        }
        // The measured order at 12 MP: libjpeg-turbo's rows, libpng's rows and zlib, then the whole-image encoders.
        #expect(estimates["jpeg"]! < estimates["png"]! && estimates["png"]! < estimates["webp"]!)
        #expect(estimates["avif"]! < estimates["heic"]! && estimates["heic"]! < estimates["jxl"]!)
        // An animation's encoder keeps the frames it compressed.
        let webp = try #require(registry.encoder(for: .webp))
        #expect(
            webp.memoryEstimate(for: PixelSize(width: 500, height: 500), frames: 40, options: .default)
                > webp.memoryEstimate(for: PixelSize(width: 500, height: 500), frames: 20, options: .default))
    }
}
