import CWebP
import CWebPDemux
import CWebPMux
import Foundation
import ImagoCore

extension WebPCodec {
    /// Encodes one raster, lossy at `options.quality` or lossless (keeping the RGB under transparent pixels).
    static func encodeStill(_ raster: Raster, options: EncodeOptions) throws -> Data {
        var config = try makeConfig(options)
        var picture = try makePicture(raster, lossless: options.lossless)
        defer { WebPPictureFree(&picture) }
        let writer = UnsafeMutablePointer<WebPMemoryWriter>.allocate(capacity: 1)
        WebPMemoryWriterInit(writer)
        defer {
            WebPMemoryWriterClear(writer)
            writer.deallocate()
        }
        picture.writer = WebPMemoryWrite
        picture.custom_ptr = UnsafeMutableRawPointer(writer)
        guard WebPEncode(&config, &picture) != 0 else {
            throw WebPErrors.encoding("libwebp refused the image (error \(picture.error_code.rawValue))")
        }
        return Data(bytes: writer.pointee.mem, count: writer.pointee.size)
    }

    /// Encodes every frame through `WebPAnimEncoder`, with the durations and loop count.
    static func encodeAnimation(_ image: DecodedImage, options: EncodeOptions) throws -> Data {
        let width = image.width
        let height = image.height
        guard image.frames.allSatisfy({ $0.raster.width == width && $0.raster.height == height }) else {
            throw WebPErrors.encoding("the frames of an animation must all be \(width)x\(height)")
        }
        var config = try makeConfig(options)
        var encoderOptions = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&encoderOptions) != 0 else {
            throw WebPErrors.encoding("libwebp version mismatch")
        }
        encoderOptions.anim_params.loop_count = Int32(Swift.min(Swift.max(image.loopCount, 0), 65535))
        guard let encoder = WebPAnimEncoderNew(Int32(width), Int32(height), &encoderOptions) else {
            throw WebPErrors.encoding("cannot create the animation encoder for \(width)x\(height)")
        }
        defer { WebPAnimEncoderDelete(encoder) }

        var timestamp = 0
        for frame in image.frames {
            var picture = try makePicture(frame.raster, lossless: options.lossless)
            defer { WebPPictureFree(&picture) }
            guard WebPAnimEncoderAdd(encoder, &picture, Int32(clamping: timestamp), &config) != 0 else {
                throw WebPErrors.encoding("cannot add a frame: " + animationError(encoder))
            }
            // A frame lasts at least 1 ms so the timestamps keep increasing.
            timestamp += Swift.max(1, Int((frame.duration * 1000).rounded()))
        }
        var assembled = WebPData()
        guard WebPAnimEncoderAdd(encoder, nil, Int32(clamping: timestamp), nil) != 0,
            WebPAnimEncoderAssemble(encoder, &assembled) != 0
        else { throw WebPErrors.encoding("cannot assemble the animation: " + animationError(encoder)) }
        defer { WebPDataClear(&assembled) }
        return Data(bytes: assembled.bytes, count: assembled.size)
    }

    private static func makeConfig(_ options: EncodeOptions) throws -> WebPConfig {
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else { throw WebPErrors.encoding("libwebp version mismatch") }
        config.lossless = options.lossless ? 1 : 0
        // For lossless, quality is the effort spent; a fixed middle value keeps the output exact and small.
        config.quality = options.lossless ? 75 : Float(options.quality)
        config.exact = options.lossless ? 1 : 0
        guard WebPValidateConfig(&config) != 0 else { throw WebPErrors.encoding("invalid encoder settings") }
        return config
    }

    /// A picture holding a copy of the raster (ARGB for lossless, YUVA for lossy).
    private static func makePicture(_ raster: Raster, lossless: Bool) throws -> WebPPicture {
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else { throw WebPErrors.encoding("libwebp version mismatch") }
        guard raster.width <= 16383, raster.height <= 16383 else {
            throw WebPErrors.encoding("\(raster.width)x\(raster.height) is larger than WebP's 16383x16383")
        }
        picture.width = Int32(raster.width)
        picture.height = Int32(raster.height)
        picture.use_argb = lossless ? 1 : 0
        let imported = raster.withUnsafeBytes { bytes in
            WebPPictureImportRGBA(
                &picture, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(raster.bytesPerRow))
        }
        guard imported != 0 else {
            WebPPictureFree(&picture)
            throw WebPErrors.encoding("out of memory importing \(raster.width)x\(raster.height)")
        }
        return picture
    }

    private static func animationError(_ encoder: OpaquePointer) -> String {
        let message: UnsafePointer<CChar>? = WebPAnimEncoderGetError(encoder)
        return message.map { String(cString: $0) } ?? "unknown error"
    }
}
