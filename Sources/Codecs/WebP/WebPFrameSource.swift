import CWebP
import CWebPDemux
import Foundation
import ImagoColor
import ImagoCore

/// An animated WebP's frames one at a time, through libwebp's `WebPAnimDecoder` (which composites each frame on
/// its canvas, blending and disposal as the ANMF chunks say), with the file's ICC profile applied to each frame:
/// the one reader of WebP animations, used by `decode` for every frame and by `makeFrameSource` on demand.
/// libwebp reads the whole file's chunks first, so a truncated animated WebP is refused before its first frame.
final class WebPFrameSource: AnimationFrameSource {
    private let bytes: UnsafeMutableRawBufferPointer
    private var webpData: WebPData
    private let decoder: OpaquePointer
    private let color: ColorPlan
    private var previousTimestamp: Int32 = 0
    private var framesInLoop = 0
    private var ended = false
    let canvasSize: PixelSize
    let loopCount: Int
    let orientation: ImageOrientation
    /// The frame count the file announces.
    let frameCount: Int
    private(set) var warnings: [String] = []

    /// Opens `data` (an animated WebP); checks the canvas against `limits` before anything is decoded.
    init(_ data: Data, options: DecodeOptions) throws {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 1)
        data.withUnsafeBytes { copy.copyMemory(from: $0) }
        var webpData = WebPData(bytes: copy.baseAddress?.assumingMemoryBound(to: UInt8.self), size: data.count)
        do {
            guard let demuxer = WebPDemux(&webpData) else {
                throw WebPErrors.decoding("cannot read the animation's chunks (corrupt or truncated file)")
            }
            let size = PixelSize(
                width: Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_WIDTH)),
                height: Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_HEIGHT)))
            let frameCount = Int(WebPDemuxGetI(demuxer, WEBP_FF_FRAME_COUNT))
            let loopCount = Int(WebPDemuxGetI(demuxer, WEBP_FF_LOOP_COUNT))
            // The chunks other than frames, read with the same demuxer.
            let (profile, orientation) = (WebPCodec.iccProfile(in: demuxer), WebPCodec.orientation(in: demuxer))
            WebPDemuxDelete(demuxer)
            try options.limits.check(width: size.width, height: size.height, format: .webp)
            guard frameCount > 0 else { throw WebPErrors.decoding("the animation has no frame") }
            let color = try ColorPlan(profile: profile, layout: .rgba, options: options, format: .webp)
            var decoderOptions = WebPAnimDecoderOptions()
            guard WebPAnimDecoderOptionsInit(&decoderOptions) != 0 else {
                throw WebPErrors.decoding("libwebp version mismatch")
            }
            decoderOptions.color_mode = MODE_RGBA
            decoderOptions.use_threads = 0
            guard let decoder = WebPAnimDecoderNew(&webpData, &decoderOptions) else {
                throw WebPErrors.decoding("cannot decode the animation")
            }
            self.decoder = decoder
            self.color = color
            self.canvasSize = size
            self.frameCount = frameCount
            self.loopCount = loopCount
            self.orientation = orientation
        } catch {
            copy.deallocate()
            throw error
        }
        self.bytes = copy
        self.webpData = webpData
    }

    deinit {
        WebPAnimDecoderDelete(decoder)
        bytes.deallocate()
    }

    /// The profile's outcome (kept profile, description, warnings), for a decode to record on its image.
    func record(on image: inout DecodedImage) { color.record(on: &image) }

    func nextFrame() throws -> ImageFrame? {
        guard !ended else { return nil }
        guard WebPAnimDecoderHasMoreFrames(decoder) != 0 else {
            ended = true
            return nil
        }
        var canvas: UnsafeMutablePointer<UInt8>?
        var timestamp: Int32 = 0
        guard WebPAnimDecoderGetNext(decoder, &canvas, &timestamp) != 0, let canvas else {
            ended = true
            let error = WebPErrors.decoding("frame \(framesInLoop) is corrupt or truncated")
            guard framesInLoop > 0 else { throw error }
            if !warnings.contains(error.reason) { warnings.append(error.reason) }
            return nil
        }
        // The decoder owns its canvas and reuses it for the next frame: each frame is one copy.
        let (width, height) = (canvasSize.width, canvasSize.height)
        let raster = try Raster(width: width, height: height) { buffer in
            buffer.copyMemory(from: UnsafeRawBufferPointer(start: canvas, count: buffer.count))
            color.apply(to: buffer, width: width, height: height, bytesPerRow: width * 4)
        }
        let duration = WebPCodec.displayDuration(milliseconds: Int(timestamp) - Int(previousTimestamp))
        previousTimestamp = timestamp
        framesInLoop += 1
        return ImageFrame(raster: raster, duration: duration)
    }

    func rewind() throws {
        WebPAnimDecoderReset(decoder)
        previousTimestamp = 0
        framesInLoop = 0
        ended = false
    }
}
