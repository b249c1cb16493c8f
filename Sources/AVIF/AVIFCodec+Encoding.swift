import CAVIF
import Foundation
import ImagoCore

extension AVIFCodec {
    /// Encodes `frames` through aom: one frame as a still image, several as an image sequence with their
    /// durations (in milliseconds). Lossy at `options.quality` (mapped to AV1's 63..0 quantizer as avifenc 1.x
    /// maps its --quality) in 4:2:0, or lossless (quantizer 0, 4:4:4, identity matrix, full range).
    static func encode(_ frames: [ImageFrame], options: EncodeOptions, speed: Int, threads: Int) throws -> Data {
        let width = frames[0].raster.width
        let height = frames[0].raster.height
        guard frames.allSatisfy({ $0.raster.width == width && $0.raster.height == height }) else {
            throw AVIFErrors.encoding("the frames of a sequence must all be \(width)x\(height)")
        }
        guard let encoder = avifEncoderCreate() else { throw AVIFErrors.encoding("out of memory") }
        defer { avifEncoderDestroy(encoder) }
        let quantizer = options.lossless ? 0 : ((100 - options.quality) * 63 + 50) / 100
        encoder.pointee.maxThreads = Int32(threads)
        encoder.pointee.speed = Int32(speed)
        encoder.pointee.minQuantizer = Int32(quantizer)
        encoder.pointee.maxQuantizer = Int32(quantizer)
        encoder.pointee.minQuantizerAlpha = Int32(quantizer)
        encoder.pointee.maxQuantizerAlpha = Int32(quantizer)
        encoder.pointee.timescale = 1000
        let hasAlpha = frames.contains { $0.raster.hasTransparency }
        for frame in frames {
            let image = try makeImage(frame.raster, lossless: options.lossless, hasAlpha: hasAlpha)
            defer { avifImageDestroy(image) }
            let duration = UInt64(Swift.max(1, (frame.duration * 1000).rounded()))
            let flags = frames.count == 1 ? AVIF_ADD_IMAGE_FLAG_SINGLE.rawValue : AVIF_ADD_IMAGE_FLAG_NONE.rawValue
            let result = avifEncoderAddImage(encoder, image, duration, avifAddImageFlags(flags))
            guard result == AVIF_RESULT_OK else { throw AVIFErrors.encoding("cannot encode a frame", result: result) }
        }
        var output = avifRWData()
        let result = avifEncoderFinish(encoder, &output)
        defer { avifRWDataFree(&output) }
        guard result == AVIF_RESULT_OK, let bytes = output.data else {
            throw AVIFErrors.encoding("cannot finish the file", result: result)
        }
        return Data(bytes: bytes, count: output.size)
    }

    /// An 8-bit YUV image converted from the raster by libavif (the alpha plane only when some pixel needs it).
    private static func makeImage(_ raster: Raster, lossless: Bool, hasAlpha: Bool) throws -> UnsafeMutablePointer<
        avifImage
    > {
        let layout = lossless ? AVIF_PIXEL_FORMAT_YUV444 : AVIF_PIXEL_FORMAT_YUV420
        guard let image = avifImageCreate(UInt32(raster.width), UInt32(raster.height), 8, layout) else {
            throw AVIFErrors.encoding("cannot make a \(raster.width)x\(raster.height) image")
        }
        image.pointee.yuvRange = AVIF_RANGE_FULL
        if lossless {
            image.pointee.matrixCoefficients = avifMatrixCoefficients(AVIF_MATRIX_COEFFICIENTS_IDENTITY)
        }
        let result = raster.withUnsafeBytes { bytes in
            var rgb = avifRGBImage()
            avifRGBImageSetDefaults(&rgb, image)
            rgb.format = AVIF_RGB_FORMAT_RGBA
            rgb.depth = 8
            rgb.ignoreAlpha = hasAlpha ? 0 : 1
            rgb.pixels = UnsafeMutablePointer(mutating: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self))
            rgb.rowBytes = UInt32(raster.bytesPerRow)
            return avifImageRGBToYUV(image, &rgb)
        }
        guard result == AVIF_RESULT_OK else {
            avifImageDestroy(image)
            throw AVIFErrors.encoding("cannot convert the pixels", result: result)
        }
        return image
    }
}
