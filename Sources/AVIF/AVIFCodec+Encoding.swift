import CAVIF
import Foundation
import ImagoCore

extension AVIFCodec: AnimatedImageEncoding {
    /// An image sequence written frame by frame through libavif (see `AVIFAnimationEncoder`).
    public func makeAnimationEncoder(_ settings: AnimationEncodingSettings, options: EncodeOptions) throws
        -> any AnimationFrameEncoder
    {
        try AVIFLibrary.load(or: .encodingFailed(format: .avif))
        return try AVIFAnimationEncoder(settings, options: options, speed: speed, threads: threads)
    }
}

/// Writes AVIF through aom one frame at a time (`avifEncoderAddImage` per frame, durations in milliseconds): one
/// frame as a still image, several as an image sequence. Lossy at `options.quality` (mapped to AV1's 63..0
/// quantizer as avifenc 1.x maps its --quality) in 4:2:0, or lossless (quantizer 0, 4:4:4, identity matrix, full
/// range). A kept ICC profile is written as the `colr` box of type `prof`. The first frame is held back until the
/// second arrives, since a still image is flagged as one when it is added.
final class AVIFAnimationEncoder: AnimationFrameEncoder {
    private let settings: AnimationEncodingSettings
    private let lossless: Bool
    private let encoder: UnsafeMutablePointer<avifEncoder>
    private var pending: ImageFrame?
    private var added = 0

    init(_ settings: AnimationEncodingSettings, options: EncodeOptions, speed: Int, threads: Int) throws {
        guard settings.canvasSize.width > 0, settings.canvasSize.height > 0 else {
            throw AVIFErrors.encoding("an empty size \(settings.canvasSize)")
        }
        guard let encoder = avifEncoderCreate() else { throw AVIFErrors.encoding("out of memory") }
        self.settings = settings
        self.lossless = options.lossless
        self.encoder = encoder
        let quantizer = options.lossless ? 0 : ((100 - options.quality) * 63 + 50) / 100
        encoder.pointee.maxThreads = Int32(threads)
        encoder.pointee.speed = Int32(speed)
        encoder.pointee.minQuantizer = Int32(quantizer)
        encoder.pointee.maxQuantizer = Int32(quantizer)
        encoder.pointee.minQuantizerAlpha = Int32(quantizer)
        encoder.pointee.maxQuantizerAlpha = Int32(quantizer)
        encoder.pointee.timescale = 1000
    }

    deinit { avifEncoderDestroy(encoder) }

    func add(_ frame: ImageFrame) throws {
        try settings.check(frame, format: .avif)
        if let pending { try encode(pending, flags: AVIF_ADD_IMAGE_FLAG_NONE) }
        pending = frame
    }

    func finish() throws -> Data {
        guard let pending else { throw AVIFErrors.encoding("an image needs at least one frame") }
        try encode(pending, flags: added == 0 ? AVIF_ADD_IMAGE_FLAG_SINGLE : AVIF_ADD_IMAGE_FLAG_NONE)
        self.pending = nil
        var output = avifRWData()
        let result = avifEncoderFinish(encoder, &output)
        defer { avifRWDataFree(&output) }
        guard result == AVIF_RESULT_OK, let bytes = output.data else {
            throw AVIFErrors.encoding("cannot finish the file", result: result)
        }
        return Data(bytes: bytes, count: output.size)
    }

    private func encode(_ frame: ImageFrame, flags: avifAddImageFlag) throws {
        let image = try Self.makeImage(frame.raster, lossless: lossless, hasAlpha: settings.hasAlpha)
        defer { avifImageDestroy(image) }
        if let profile = settings.iccProfile, !profile.isEmpty {
            profile.withUnsafeBytes {
                avifImageSetProfileICC(image, $0.baseAddress?.assumingMemoryBound(to: UInt8.self), $0.count)
            }
        }
        let duration = UInt64(Swift.max(1, (frame.duration * 1000).rounded()))
        let result = avifEncoderAddImage(encoder, image, duration, avifAddImageFlags(flags.rawValue))
        guard result == AVIF_RESULT_OK else { throw AVIFErrors.encoding("cannot encode a frame", result: result) }
        added += 1
    }

    /// An 8-bit YUV image converted from the raster by libavif (the alpha plane only when frames may need it).
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
