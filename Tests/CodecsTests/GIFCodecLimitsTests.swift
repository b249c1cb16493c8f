import Foundation
import ImagoCodecs
import ImagoCore
import Testing

/// Limits, bombs, truncation and round trips of `GIFCodec`.
@Suite struct GIFCodecLimitsTests {
    static func kind(of body: () throws -> Void) -> ImagoError.Kind? {
        do {
            try body()
            return nil
        } catch let error as ImagoError {
            return error.kind
        } catch {
            return .cancelled  // anything but an ImagoError fails the expectations below
        }
    }

    @Test func hugeLogicalScreenIsRefusedBeforeAnyAllocation() {
        // 65535 x 65535 = 4.3 gigapixels, with a 1x1 frame: only the header may be read.
        var file = GIFTestFile(width: 65535, height: 65535, palette: GIFCodecTests.palette)
        file.frames = [.init(width: 1, height: 1, indices: [0])]
        #expect(Self.kind { _ = try GIFCodec().decode(file.data) } == .limitExceeded)
    }

    @Test func frameCountAndTotalPixelsAreChecked() {
        var file = GIFTestFile(width: 10, height: 10, palette: GIFCodecTests.palette)
        file.frames = Array(repeating: .init(width: 10, height: 10, indices: GIFCodecTests.solid(0, 10, 10)), count: 3)
        let fewFrames = DecodeOptions(limits: DecodeLimits(maxFrames: 2))
        #expect(Self.kind { _ = try GIFCodec().decode(file.data, options: fewFrames) } == .limitExceeded)
        let fewPixels = DecodeOptions(limits: DecodeLimits(maxTotalPixels: 250))
        #expect(Self.kind { _ = try GIFCodec().decode(file.data, options: fewPixels) } == .limitExceeded)
        // The first frame alone fits.
        let first = DecodeOptions(limits: DecodeLimits(maxTotalPixels: 250), frames: .first)
        #expect(Self.kind { _ = try GIFCodec().decode(file.data, options: first) } == nil)
        let tooManyBytes = DecodeOptions(limits: DecodeLimits(maxBytes: 100))
        #expect(Self.kind { _ = try GIFCodec().decode(file.data, options: tooManyBytes) } == .tooLarge)
    }

    @Test func truncationKeepsCompleteFramesOnlyAndFailsWithoutOne() throws {
        var file = GIFTestFile(width: 20, height: 20, palette: GIFCodecTests.palette)
        file.frames = (0..<3).map { .init(width: 20, height: 20, indices: GIFCodecTests.solid(UInt8($0), 20, 20)) }
        let data = file.data
        let frameBytes = (data.count - 13 - 12) / 3
        // Cut in the middle of the third frame's pixels: two complete frames remain.
        let image = try GIFCodec().decode(data.prefix(data.count - frameBytes / 2))
        #expect(image.frames.count == 2)
        #expect(image.frames[1].raster[19, 19] == GIFCodecTests.green)
        // Cut inside the first frame: nothing complete, so an error naming the format.
        #expect(Self.kind { _ = try GIFCodec().decode(data.prefix(60)) } == .decodingFailed(format: .gif))
        #expect(Self.kind { _ = try GIFCodec().decode(data.prefix(10)) } == .decodingFailed(format: .gif))
        #expect(Self.kind { _ = try GIFCodec().decode(Data("not a gif".utf8)) } == .decodingFailed(format: .gif))
    }

    @Test func encodeDecodeIsExactForFewColoursWithTransparency() throws {
        var pixels: [UInt8] = []
        for y in 0..<16 {
            for x in 0..<16 {
                // 200 colours plus a transparent corner.
                let value = (y * 16 + x) % 200
                pixels += x < 3 && y < 3 ? [0, 0, 0, 0] : [UInt8(value), UInt8(255 - value), UInt8(value / 2), 255]
            }
        }
        let raster = try Raster(width: 16, height: 16, pixels: pixels)
        let encoded = try GIFCodec().encode(DecodedImage(raster: raster, format: .gif))
        let decoded = try GIFCodec().decode(encoded)
        #expect(decoded.raster == raster)
        #expect(decoded.hasAlpha)

        // Exactly 256 opaque colours fill the palette without loss.
        let full = try Raster(
            width: 16, height: 16, pixels: (0..<256).flatMap { [UInt8($0), UInt8(255 - $0), 7, 255] })
        let back = try GIFCodec().decode(try GIFCodec().encode(DecodedImage(raster: full, format: .gif)))
        #expect(back.raster == full && !back.hasAlpha)
    }

    @Test func animationRoundTripKeepsFramesDurationsAndLoopCount() throws {
        let frames = try [GIFCodecTests.red, GIFCodecTests.green, GIFCodecTests.clear].enumerated().map {
            index, color in
            ImageFrame(raster: try Raster(width: 5, height: 4, fill: color), duration: [0.05, 0.2, 1.5][index])
        }
        for loopCount in [0, 1, 3] {
            let image = DecodedImage(frames: frames, loopCount: loopCount, format: .gif, hasAlpha: true)
            let decoded = try GIFCodec().decode(try GIFCodec().encode(image))
            #expect(decoded.frames.map(\.raster) == frames.map(\.raster))
            #expect(decoded.durations == [0.05, 0.2, 1.5])
            #expect(decoded.loopCount == loopCount)
        }
        let image = DecodedImage(frames: frames, loopCount: 0, format: .gif, hasAlpha: true)
        let still = try GIFCodec().decode(try GIFCodec().encode(image, options: EncodeOptions(allFrames: false)))
        #expect(still.frames.count == 1 && still.raster == frames[0].raster)
    }

    @Test func manyColoursAreQuantisedClosely() throws {
        var pixels: [UInt8] = []
        for y in 0..<64 {
            for x in 0..<64 { pixels += [UInt8(x * 4), UInt8(y * 4), UInt8((x + y) * 2), 255] }
        }
        let raster = try Raster(width: 64, height: 64, pixels: pixels)
        let decoded = try GIFCodec().decode(try GIFCodec().encode(DecodedImage(raster: raster, format: .gif)))
        let error = zip(decoded.raster.pixels, pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        let meanError = Double(error) / Double(pixels.count)
        #expect(meanError < 8, "mean absolute error \(meanError)")
        #expect(meanError > 0, "4096 colours cannot fit a GIF palette exactly")

        // With transparency: alpha below 128 becomes the transparent index, the rest opaque.
        var translucent = pixels
        for pixel in 0..<64 { translucent[pixel * 4 + 3] = pixel < 32 ? 40 : 200 }
        let withAlpha = try Raster(width: 64, height: 64, pixels: translucent)
        let back = try GIFCodec().decode(try GIFCodec().encode(DecodedImage(raster: withAlpha, format: .gif))).raster
        #expect((0..<32).allSatisfy { back[$0, 0].a == 0 } && (32..<64).allSatisfy { back[$0, 0].a == 255 })
        let opaqueError = zip(back.pixels, translucent).enumerated().filter { $0.offset >= 256 && $0.offset % 4 != 3 }
            .reduce(0) { $0 + abs(Int($1.element.0) - Int($1.element.1)) }
        #expect(Double(opaqueError) / Double(64 * 63 * 3) < 8)
    }
}

extension GIFCodecLimitsTests {
    @Test func hugeFrameRectanglesAreRefusedEvenOutsideASmallScreen() {
        // A 4x4 screen whose second frame declares 65535 x 65535 pixels (clipped away, but still to be decoded).
        var file = GIFTestFile(width: 4, height: 4, palette: GIFCodecTests.palette)
        file.frames = [
            .init(width: 4, height: 4, indices: GIFCodecTests.solid(0, 4, 4)),
            .init(left: 10, top: 10, width: 65535, height: 65535, indices: [1, 1]),
        ]
        #expect(Self.kind { _ = try GIFCodec().decode(file.data) } == .limitExceeded)
        // Many frame rectangles together are bounded by the total: 3 frames of 20x20 outside a 1x1 screen.
        var many = GIFTestFile(width: 1, height: 1, palette: GIFCodecTests.palette)
        many.frames = Array(repeating: .init(width: 20, height: 20, indices: GIFCodecTests.solid(0, 20, 20)), count: 3)
        let options = DecodeOptions(limits: DecodeLimits(maxPixels: 1000, maxTotalPixels: 1000))
        #expect(Self.kind { _ = try GIFCodec().decode(many.data, options: options) } == .limitExceeded)
    }
}
