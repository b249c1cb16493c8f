import CWebP
import CWebPDemux
import Foundation
import ImagoCore

extension WebPCodec {
    /// Decodes an animation through `WebPAnimDecoder`, which composites every frame onto the canvas (blending
    /// and disposal as the ANMF chunks say). The frame count is read from the demuxer and checked first.
    static func decodeAnimation(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws -> DecodedImage {
        var webpData = WebPData(bytes: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        guard let demuxer = WebPDemux(&webpData) else {
            throw WebPErrors.decoding("cannot read the animation's chunks (corrupt or truncated file)")
        }
        let canvasWidth = Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_WIDTH))
        let canvasHeight = Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_HEIGHT))
        let frameCount = Int(WebPDemuxGetI(demuxer, WEBP_FF_FRAME_COUNT))
        let loopCount = Int(WebPDemuxGetI(demuxer, WEBP_FF_LOOP_COUNT))
        WebPDemuxDelete(demuxer)
        let wanted = options.frames == .first ? Swift.min(frameCount, 1) : frameCount
        try options.limits.check(frames: wanted, width: canvasWidth, height: canvasHeight, format: .webp)
        guard wanted > 0 else { throw WebPErrors.decoding("the animation has no frame") }

        var decoderOptions = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&decoderOptions) != 0 else {
            throw WebPErrors.decoding("libwebp version mismatch")
        }
        decoderOptions.color_mode = MODE_RGBA
        decoderOptions.use_threads = 0
        guard let decoder = WebPAnimDecoderNew(&webpData, &decoderOptions) else {
            throw WebPErrors.decoding("cannot decode the animation")
        }
        defer { WebPAnimDecoderDelete(decoder) }

        var frames: [ImageFrame] = []
        frames.reserveCapacity(wanted)
        var previousTimestamp: Int32 = 0
        while frames.count < wanted {
            var canvas: UnsafeMutablePointer<UInt8>?
            var timestamp: Int32 = 0
            guard WebPAnimDecoderGetNext(decoder, &canvas, &timestamp) != 0, let canvas else {
                throw WebPErrors.decoding("frame \(frames.count) is corrupt or truncated")
            }
            // The decoder owns its canvas and reuses it for the next frame: each frame is one copy.
            let raster = try Raster(width: canvasWidth, height: canvasHeight) { buffer in
                buffer.copyMemory(from: UnsafeRawBufferPointer(start: canvas, count: buffer.count))
            }
            let duration = displayDuration(milliseconds: Int(timestamp) - Int(previousTimestamp))
            previousTimestamp = timestamp
            frames.append(ImageFrame(raster: raster, duration: duration))
        }
        let isStill = frames.count == 1
        if isStill { frames[0].duration = 0 }
        return DecodedImage(
            frames: frames, loopCount: isStill ? 0 : loopCount, format: .webp, hasAlpha: true,
            encodedSize: bytes.count)
    }

    /// The EXIF orientation, when the file has an EXIF chunk that gives one.
    static func orientation(_ bytes: UnsafeRawBufferPointer) -> ImageOrientation {
        var webpData = WebPData(bytes: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        guard let demuxer = WebPDemux(&webpData) else { return .up }
        defer { WebPDemuxDelete(demuxer) }
        guard WebPDemuxGetI(demuxer, WEBP_FF_FORMAT_FLAGS) & EXIF_FLAG.rawValue != 0 else { return .up }
        var iterator = WebPChunkIterator()
        guard WebPDemuxGetChunk(demuxer, "EXIF", 1, &iterator) != 0 else { return .up }
        defer { WebPDemuxReleaseChunkIterator(&iterator) }
        let chunk = UnsafeRawBufferPointer(start: iterator.chunk.bytes, count: iterator.chunk.size)
        return EXIFOrientation.read(chunk) ?? .up
    }
}
