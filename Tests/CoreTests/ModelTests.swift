import Foundation
import Testing

@testable import ImagoCore

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct RasterTests {
    @Test func packsAndReadsPixels() throws {
        let pixels: [UInt8] = [255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 0, 1, 2, 3, 4]
        let raster = try Raster(width: 2, height: 2, pixels: pixels)
        #expect(raster.cost == 16)
        #expect(raster[1, 0] == RGBA(0, 255, 0, 128))
        #expect(raster[1, 1] == RGBA(1, 2, 3, 4))
        #expect(raster.pixels == pixels)
        #expect(raster.hasTransparency)
    }

    @Test func paddedRowsAreIgnoredInPixelsAndEquality() throws {
        let padded = try Raster(width: 1, height: 2, bytesPerRow: 8) { buffer in
            buffer.copyBytes(from: [9, 9, 9, 255, 7, 7, 7, 7, 8, 8, 8, 255, 6, 6, 6, 6])
        }
        #expect(padded.pixels == [9, 9, 9, 255, 8, 8, 8, 255])
        #expect(padded == (try Raster(width: 1, height: 2, pixels: [9, 9, 9, 255, 8, 8, 8, 255])))
        #expect(!padded.hasTransparency)
    }

    @Test func refusesBadSizesWithTypedErrors() {
        #expect(throws: ImagoError.self) { try Raster(width: 0, height: 5, fill: RGBA(0, 0, 0)) }
        #expect(throws: ImagoError.self) { try Raster(width: 2, height: 2, pixels: [1, 2, 3]) }
        let error = #expect(throws: ImagoError.self) {
            try Raster(width: Int(Int32.max), height: Int(Int32.max), bytesPerRow: Int.max / 2) { _ in }
        }
        #expect(error?.kind == .limitExceeded)
    }

    @Test func poolReusesReleasedBuffersOfTheSameSize() throws {
        let pool = PixelBufferPool(minimumPooledSize: 1024, capacityLimit: 1 << 20)
        var address: UnsafeMutableRawPointer?
        do {
            let raster = try Raster(width: 64, height: 64, pool: pool) { address = $0.baseAddress }
            #expect(raster.cost == 64 * 64 * 4)
        }
        #expect(pool.idleBytes == 64 * 64 * 4)
        var reused: UnsafeMutableRawPointer?
        let again = try Raster(width: 64, height: 64, pool: pool) { reused = $0.baseAddress }
        #expect(reused == address)
        #expect(pool.idleBytes == 0)
        _ = again
    }

    @Test func poolStaysWithinItsCapacity() throws {
        let pool = PixelBufferPool(minimumPooledSize: 1024, capacityLimit: 40_000)
        for side in [50, 60, 70, 80] {
            _ = try Raster(width: side, height: side, pool: pool, initializingWith: { _ in })
        }
        #expect(pool.idleBytes <= 40_000)
        pool.drain()
        #expect(pool.idleBytes == 0)
    }

    @Test func trimFreesBuffersIdleTooLongAndLoweringTheCapacityFreesTheRest() throws {
        let pool = PixelBufferPool(minimumPooledSize: 1024, capacityLimit: 1 << 20)
        _ = try Raster(width: 64, height: 64, pool: pool, initializingWith: { _ in })
        #expect(pool.trim(idleLongerThan: 60) == 0, "a buffer idle for less than a minute stays")
        #expect(pool.idleBytes == 64 * 64 * 4)
        usleep(20_000)
        #expect(pool.trim(idleLongerThan: 0.01) == 64 * 64 * 4)
        #expect(pool.idleBytes == 0)
        for side in [40, 50, 60] { _ = try Raster(width: side, height: side, pool: pool, initializingWith: { _ in }) }
        pool.capacityLimit = 50 * 50 * 4 + 60 * 60 * 4
        #expect(pool.idleBytes == 50 * 50 * 4 + 60 * 60 * 4, "the newest buffers that fit are kept")
        pool.capacityLimit = 0
        #expect(pool.idleBytes == 0)
    }
}

@Suite struct DecodedImageTests {
    @Test func reportsSizesCostAndOrientation() throws {
        let frame = try Raster(width: 4, height: 2, fill: RGBA(1, 2, 3))
        var image = DecodedImage(
            frames: [ImageFrame(raster: frame, duration: 0.1), ImageFrame(raster: frame, duration: 0.2)], loopCount: 0,
            format: .gif, orientation: .right, hasAlpha: false, encodedSize: 10, scale: 2)
        #expect(image.isAnimated)
        #expect(image.cost == 64)
        #expect(image.durations == [0.1, 0.2])
        #expect(image.orientedPixelSize == (2, 4))
        #expect(image.pointSize == (1, 2))
        image.orientation = .up
        #expect(image.orientedPixelSize == (4, 2))
    }

    @Test func orientationOutsideOneToEightReadsAsUp() {
        #expect(ImageOrientation(exifValue: 0) == .up)
        #expect(ImageOrientation(exifValue: 9) == .up)
        #expect(ImageOrientation(exifValue: 8) == .left)
        #expect(ImageOrientation.allCases.filter(\.swapsDimensions).map(\.rawValue) == [5, 6, 7, 8])
    }
}

@Suite struct FormatAndLimitsTests {
    @Test func formatsAreCaseInsensitiveAndExtensible() {
        #expect(ImageFormat("PNG") == .png)
        #expect(ImageFormat(fileExtension: "JPG") == .jpeg)
        #expect(ImageFormat(fileExtension: "avif")?.rawValue == "avif")
        #expect(ImageFormat(fileExtension: "") == nil)
    }

    @Test func limitsAreCheckedWithOverflowSafety() throws {
        let limits = DecodeLimits(maxPixels: 100, maxTotalPixels: 250, maxFrames: 3)
        try limits.check(width: 10, height: 10, format: .png)
        #expect(throws: ImagoError.self) { try limits.check(width: 11, height: 10, format: .png) }
        #expect(throws: ImagoError.self) { try limits.check(width: Int.max, height: 3, format: .png) }
        #expect(throws: ImagoError.self) { try limits.check(width: 0, height: 3, format: .png) }
        try limits.check(frames: 2, width: 10, height: 10, format: .gif)
        let total = #expect(throws: ImagoError.self) {
            try limits.check(frames: 3, width: 10, height: 10, format: .gif)
        }
        #expect(total?.kind == .limitExceeded)
        let frames = #expect(throws: ImagoError.self) { try limits.check(frames: 4, width: 1, height: 1, format: .gif) }
        #expect(frames?.reason.contains("frames") == true)
        let message = #expect(throws: ImagoError.self) {
            try DecodeLimits.default.check(width: 60000, height: 60000, format: .png)
        }
        #expect(message?.reason == "too large: 60000x60000 exceeds the 100 MP limit")
    }

    @Test func reductionKeepsTheTargetCovered() {
        var options = DecodeOptions(targetSize: PixelSize(width: 500, height: 500))
        // 500x375 is the fitted size.
        #expect(options.reductionDenominator(width: 4000, height: 3000, orientation: .up) == 8)
        // 750x750 still covers 500x500.
        #expect(options.reductionDenominator(width: 3000, height: 3000, orientation: .up) == 4)
        #expect(options.reductionDenominator(width: 400, height: 300, orientation: .up) == 1)
        options.contentMode = .fill
        // The short side must stay ≥ 500.
        #expect(options.reductionDenominator(width: 4000, height: 1000, orientation: .up) == 2)
        #expect(DecodeOptions.default.reductionDenominator(width: 4000, height: 3000, orientation: .up) == 1)
    }

    @Test func uprightTargetsSwapForTurnedImages() {
        // An upright 3000x1000 fill target on an image stored 4000x6000 with orientation 6 (upright 6000x4000):
        // in the stored space the target is 1000x3000, which a half-size decode (2000x3000) still covers.
        var options = DecodeOptions(targetSize: PixelSize(width: 3000, height: 1000), contentMode: .fill)
        #expect(options.targetSize(forStoredOrientation: .right) == PixelSize(width: 1000, height: 3000))
        #expect(options.targetSize(forStoredOrientation: .down) == PixelSize(width: 3000, height: 1000))
        #expect(options.reductionDenominator(width: 4000, height: 6000, orientation: .right) == 2)
        // A stored-space target is used as it is: 4000 wide must cover 3000, so no reduction.
        options.targetIsUpright = false
        #expect(options.targetSize(forStoredOrientation: .right) == PixelSize(width: 3000, height: 1000))
        #expect(options.reductionDenominator(width: 4000, height: 6000, orientation: .right) == 1)
    }
}
