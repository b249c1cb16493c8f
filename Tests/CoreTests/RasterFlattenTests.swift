import Foundation
import Testing

@testable import ImagoCore

@Suite struct RasterFlattenTests {
    @Test func compositesStraightAlphaOntoTheBackgroundCorrectlyRounded() throws {
        // Every alpha, against a few source and background levels: out = a*src + (1-a)*bg, rounded to nearest.
        let levels: [UInt8] = [0, 1, 37, 127, 128, 200, 254, 255]
        for source in levels {
            for background in levels {
                var pixels: [UInt8] = []
                for alpha in 0...255 { pixels += [source, 255 - source, source / 2, UInt8(alpha)] }
                let raster = try Raster(width: 256, height: 1, pixels: pixels)
                let flat = try raster.flattened(onto: RGBColor(background, background, 255 - background))
                for alpha in 0...255 {
                    func expected(_ s: UInt8, _ b: UInt8) -> UInt8 {
                        let a = Double(alpha) / 255
                        return UInt8((a * Double(s) + (1 - a) * Double(b)).rounded())
                    }
                    let pixel = flat[alpha, 0]
                    let want = RGBA(
                        expected(source, background), expected(255 - source, background),
                        expected(source / 2, 255 - background), 255)
                    #expect(pixel == want, "source \(source), background \(background), alpha \(alpha)")
                }
            }
        }
    }

    @Test func halfTransparentBlueOnWhiteIsLightBlueAndHiddenColoursDisappear() throws {
        let raster = try Raster(width: 3, height: 1, pixels: [0, 0, 255, 128, 0, 255, 0, 0, 10, 20, 30, 255])
        let flat = try raster.flattened(onto: .white)
        #expect(flat[0, 0] == RGBA(127, 127, 255))
        #expect(flat[1, 0] == RGBA(255, 255, 255))
        #expect(flat[2, 0] == RGBA(10, 20, 30))
        #expect(!flat.hasTransparency)
    }

    @Test func paddedRowsAreReadByTheirStride() throws {
        let padded = try Raster(width: 1, height: 2, bytesPerRow: 8) { buffer in
            buffer.copyBytes(from: [0, 0, 0, 0, 9, 9, 9, 9, 200, 100, 0, 255, 7, 7, 7, 7])
        }
        let flat = try padded.flattened(onto: RGBColor(1, 2, 3))
        #expect(flat.pixels == [1, 2, 3, 255, 200, 100, 0, 255])
    }

    @Test func anOpaqueImageIsReturnedAsItIs() throws {
        let image = DecodedImage(raster: try Raster(width: 2, height: 2, fill: RGBA(1, 2, 3)), format: .png)
        let flat = try image.flattened(onto: .black)
        #expect(flat == image)
        #expect(flat.raster.storage === image.raster.storage)
    }

    @Test func everyFrameOfAnAnimationIsFlattened() throws {
        let frames = try [RGBA(255, 0, 0, 0), RGBA(0, 0, 0, 255)].map {
            ImageFrame(raster: try Raster(width: 1, height: 1, fill: $0), duration: 0.5)
        }
        let image = DecodedImage(frames: frames, format: .gif, hasAlpha: true)
        let flat = try image.flattened(onto: RGBColor(0, 128, 0))
        #expect(flat.frames.map { $0.raster[0, 0] } == [RGBA(0, 128, 0), RGBA(0, 0, 0)])
        #expect(flat.durations == [0.5, 0.5])
        #expect(!flat.hasAlpha)
    }
}
