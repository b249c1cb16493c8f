import CWebPDemux
import Foundation
import ImagoCore

extension WebPCodec: AnimationInfoReading {
    /// The frames, durations and loop count from the WebP's chunks through libwebpdemux (no frame is decoded).
    /// Durations follow the decoder's rule (10 ms or less plays for 0.1 s).
    public func animationInfo(_ data: Data, limits: DecodeLimits) throws -> AnimationInfo {
        try WebPCodec.checkInput(data, limits: limits)
        return try data.withUnsafeBytes { bytes in
            var webpData = WebPData(bytes: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: bytes.count)
            guard let demuxer = WebPDemux(&webpData) else {
                throw WebPErrors.decoding("cannot read the file's chunks (corrupt or truncated file)")
            }
            defer { WebPDemuxDelete(demuxer) }
            let size = PixelSize(
                width: Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_WIDTH)),
                height: Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_HEIGHT)))
            try limits.check(width: size.width, height: size.height, format: .webp)
            let frameCount = Int(WebPDemuxGetI(demuxer, WEBP_FF_FRAME_COUNT))
            guard frameCount > 0 else { throw WebPErrors.decoding("the file has no frame") }
            let animated = WebPDemuxGetI(demuxer, WEBP_FF_FORMAT_FLAGS) & ANIMATION_FLAG.rawValue != 0
            guard animated, frameCount > 1 else {
                return AnimationInfo(canvasSize: size, frameCount: 1, totalDuration: 0, loopCount: 0)
            }
            var duration = 0.0
            var iterator = WebPIterator()
            // One iterator walks the frames; nothing is kept per frame.
            if WebPDemuxGetFrame(demuxer, 1, &iterator) != 0 {
                repeat {
                    duration += WebPCodec.displayDuration(milliseconds: Int(iterator.duration))
                } while WebPDemuxNextFrame(&iterator) != 0
                WebPDemuxReleaseIterator(&iterator)
            }
            return AnimationInfo(
                canvasSize: size, frameCount: frameCount, totalDuration: duration,
                loopCount: Int(WebPDemuxGetI(demuxer, WEBP_FF_LOOP_COUNT)))
        }
    }
}
