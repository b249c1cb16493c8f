import CWebP
import CWebPDemux
import Foundation
import ImagoCore

extension WebPCodec {
    /// Decodes an animation's frames (or its first) through a `WebPFrameSource`, colour included, checking the
    /// frame count the file announces against the limits first.
    static func decodeAnimation(_ data: Data, options: DecodeOptions) throws -> DecodedImage {
        let source = try WebPFrameSource(data, options: options)
        let wanted = options.frames == .first ? 1 : source.frameCount
        try options.limits.check(
            frames: wanted, width: source.canvasSize.width, height: source.canvasSize.height, format: .webp)
        var frames: [ImageFrame] = []
        frames.reserveCapacity(wanted)
        while frames.count < wanted {
            guard let frame = try source.nextFrame() else {
                throw WebPErrors.decoding("frame \(frames.count) is corrupt or truncated")
            }
            frames.append(frame)
        }
        let isStill = frames.count == 1
        if isStill { frames[0].duration = 0 }
        var image = DecodedImage(
            frames: frames, loopCount: isStill ? 0 : source.loopCount, format: .webp, hasAlpha: true,
            encodedSize: data.count)
        source.record(on: &image)
        return image
    }

    /// The EXIF orientation, when the file has an EXIF chunk that gives one.
    static func orientation(_ bytes: UnsafeRawBufferPointer) -> ImageOrientation {
        var webpData = WebPData(bytes: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        guard let demuxer = WebPDemux(&webpData) else { return .up }
        defer { WebPDemuxDelete(demuxer) }
        return orientation(in: demuxer)
    }

    /// The EXIF orientation of the file `demuxer` reads.
    static func orientation(in demuxer: OpaquePointer) -> ImageOrientation {
        guard WebPDemuxGetI(demuxer, WEBP_FF_FORMAT_FLAGS) & EXIF_FLAG.rawValue != 0 else { return .up }
        var iterator = WebPChunkIterator()
        guard WebPDemuxGetChunk(demuxer, "EXIF", 1, &iterator) != 0 else { return .up }
        defer { WebPDemuxReleaseChunkIterator(&iterator) }
        let chunk = UnsafeRawBufferPointer(start: iterator.chunk.bytes, count: iterator.chunk.size)
        return EXIFOrientation.read(chunk) ?? .up
    }
}
