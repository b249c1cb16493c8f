import CImagoVideo
import Foundation
import ImagoCore

/// One open video: the stream's facts, seeking, and frames converted to rasters.
final class VideoReader {
    private let video: OpaquePointer
    /// What FFmpeg reads, kept as long as the video is open.
    private let bytes: VideoBytes
    let info: imago_video_info

    /// Why FFmpeg cannot be used here, or nil.
    static var loadFailure: ImagoError? {
        imago_video_load().map { ImagoError(.decodingFailed(format: .video), "video: " + String(cString: $0)) }
    }

    init(_ data: Data, codec: VideoCodec, limits: DecodeLimits) throws {
        var error = [CChar](repeating: 0, count: 512)
        var video: OpaquePointer?
        let bytes = VideoBytes(data)
        let input = imago_video_input(
            context: Unmanaged.passUnretained(bytes).toOpaque(), read: VideoBytes.read, size: Int64(data.count))
        let status = imago_video_open(
            input, VideoCodec.containers, Int64(limits.maxPixels), codec.maxDuration, Int32(codec.threads), &video,
            &error, error.count)
        guard status == Int32(IMAGO_VIDEO_OK), let video else {
            throw Self.error(status, error)
        }
        self.video = video
        self.bytes = bytes
        var info = imago_video_info()
        imago_video_get_info(video, &info)
        self.info = info
    }

    deinit { imago_video_close(video) }

    static func error(_ status: Int32, _ buffer: [CChar]) -> ImagoError {
        let reason = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if status == Int32(IMAGO_VIDEO_LIMIT) { return ImagoError(.limitExceeded, reason) }
        return VideoErrors.invalid(reason)
    }

    /// The size frames are shown at (the sample aspect ratio applied), before rotation.
    var displaySize: PixelSize { PixelSize(width: Int(info.display_width), height: Int(info.display_height)) }

    /// The EXIF orientation equal to the container's rotation.
    var orientation: ImageOrientation {
        switch info.rotation {
        case 90: .right
        case 180: .down
        case 270: .left
        default: .up
        }
    }

    /// The size frames are converted to: the display size, reduced as far as `options.targetSize` allows.
    func outputSize(options: DecodeOptions) -> PixelSize {
        let size = displaySize
        guard let target = options.targetSize(forStoredOrientation: orientation), target.width > 0, target.height > 0
        else { return size }
        let sx = Double(target.width) / Double(size.width)
        let sy = Double(target.height) / Double(size.height)
        let scale = min(1, options.contentMode == .fit ? min(sx, sy) : max(sx, sy))
        return PixelSize(
            width: max(1, Int((Double(size.width) * scale).rounded(.up))),
            height: max(1, Int((Double(size.height) * scale).rounded(.up))))
    }

    func seek(to seconds: Double) throws {
        var error = [CChar](repeating: 0, count: 512)
        let status = imago_video_seek(video, seconds, &error, error.count)
        guard status == Int32(IMAGO_VIDEO_OK) else { throw Self.error(status, error) }
    }

    func skipNonReferenceFrames(_ skip: Bool) { imago_video_skip_nonreference(video, skip ? 1 : 0) }

    /// Decodes the next frame; its time in seconds, or nil after the last.
    func nextFrame() throws -> Double? {
        var error = [CChar](repeating: 0, count: 512)
        var seconds = 0.0
        let status = imago_video_next_frame(video, &seconds, &error, error.count)
        if status == Int32(IMAGO_VIDEO_END) { return nil }
        guard status == Int32(IMAGO_VIDEO_OK) else { throw Self.error(status, error) }
        return seconds
    }

    /// The current frame's luma mean and standard deviation (0…255), on a small grey copy.
    var luma: (mean: Double, deviation: Double) {
        var mean = 0.0
        var deviation = 0.0
        imago_video_frame_luma(video, &mean, &deviation)
        return (mean, deviation)
    }

    /// The current frame as an opaque raster of `size`.
    func raster(size: PixelSize) throws -> Raster {
        var error = [CChar](repeating: 0, count: 512)
        var status: Int32 = 0
        let raster = try Raster(width: size.width, height: size.height) { buffer in
            status = imago_video_frame_rgba(
                video, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(size.width),
                Int32(size.height), size.width * 4, &error, error.count)
        }
        guard status == Int32(IMAGO_VIDEO_OK) else { throw Self.error(status, error) }
        return raster
    }

    /// Whether a frame of this brightness is worth showing: not nearly black, not flat.
    static func isInteresting(_ luma: (mean: Double, deviation: Double)) -> Bool {
        luma.mean > 24 && luma.deviation > 10
    }

    /// The poster `options` asks for (see `VideoCodec`).
    func poster(options: DecodeOptions, search: Double) throws -> Raster {
        let size = outputSize(options: options)
        if let time = options.timeline.posterTime {
            try seek(to: max(0, time))
            if options.timeline.posterAtKeyframe {
                guard try nextFrame() != nil else { throw VideoErrors.invalid("no frame could be decoded") }
                return try raster(size: size)
            }
            // Frames before the asked time serve only as references: the others are not decoded.
            skipNonReferenceFrames(true)
            var last: Double?
            while let seconds = try nextFrame() {
                last = seconds
                if seconds + 0.5 / max(info.frame_rate, 1) >= time { break }
                if seconds + 1.5 / max(info.frame_rate, 1) >= time { skipNonReferenceFrames(false) }
            }
            guard last != nil else { throw VideoErrors.invalid("no frame could be decoded") }
            return try raster(size: size)
        }
        skipNonReferenceFrames(true)
        var best: (deviation: Double, raster: Raster)?
        var decoded = 0
        while let seconds = try nextFrame() {
            decoded += 1
            let luma = self.luma
            if Self.isInteresting(luma) { return try raster(size: size) }
            if best == nil || luma.deviation > best!.deviation { best = (luma.deviation, try raster(size: size)) }
            if seconds > search || decoded >= 600 { break }
        }
        guard let best else { throw VideoErrors.invalid("no frame could be decoded") }
        return best.raster
    }

    /// A decoded image of `frames` with the video's orientation.
    func image(frames: [ImageFrame], encodedSize: Int) -> DecodedImage {
        var image = DecodedImage(
            frames: frames, loopCount: 0, format: .video, orientation: orientation, hasAlpha: false,
            encodedSize: encodedSize)
        if frames.count == 1 { image.frames[0].duration = 0 }
        return image
    }
}

/// The bytes FFmpeg reads, copied out of the `Data` a piece at a time when it asks, so no pointer into the `Data`
/// outlives a call and the bytes are never copied whole.
final class VideoBytes {
    let data: Data

    init(_ data: Data) { self.data = data }

    /// FFmpeg's read callback: up to `count` bytes at `offset` into `buffer`; how many were copied.
    static let read: @convention(c) (UnsafeMutableRawPointer?, Int64, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = {
        context, offset, buffer, count in
        guard let context, let buffer, offset >= 0, count > 0 else { return 0 }
        let data = Unmanaged<VideoBytes>.fromOpaque(context).takeUnretainedValue().data
        let start = data.startIndex + Int(offset)
        let end = min(data.endIndex, start + Int(count))
        guard start < end else { return 0 }
        data.copyBytes(to: buffer, from: start..<end)
        return Int32(end - start)
    }
}

/// Frames sampled from a reader as `options.timeline` asks: from `start`, at most `maxFrameRate` a second, up to
/// `maxFrames` and `duration`.
final class FrameSampler {
    let reader: VideoReader
    let size: PixelSize
    let interval: Double
    let sourceInterval: Double
    let start: Double
    let end: Double
    let maxFrames: Int
    private var nextTime: Double
    private var count = 0
    private var started = false
    private var lastDecoded: Double?

    init(reader: VideoReader, options: DecodeOptions) {
        self.reader = reader
        let timeline = options.timeline
        size = reader.outputSize(options: options)
        let sourceRate = reader.info.frame_rate > 0 ? reader.info.frame_rate : 25
        let rate = min(sourceRate, timeline.maxFrameRate.map { max($0, 0.01) } ?? sourceRate)
        interval = 1 / rate
        sourceInterval = 1 / sourceRate
        let start = max(0, timeline.start)
        self.start = start
        end = timeline.duration.map { start + max(0, $0) } ?? .infinity
        maxFrames = min(timeline.maxFrames ?? .max, options.limits.maxFrames)
        nextTime = start
    }

    func next() throws -> ImageFrame? {
        if !started {
            started = true
            if start > 0 { try reader.seek(to: start) }
        }
        guard count < maxFrames else { return nil }
        while true {
            // Frames nothing refers to are not decoded while the next sample is more than a frame and a half away.
            reader.skipNonReferenceFrames(lastDecoded.map { nextTime - $0 > 1.5 * sourceInterval } ?? false)
            guard let seconds = try reader.nextFrame() else { break }
            lastDecoded = seconds
            guard seconds < end else { return nil }
            // Within half a frame of the next sample time; earlier frames are skipped.
            guard seconds + interval / 2 >= nextTime else { continue }
            nextTime += interval
            while nextTime <= seconds { nextTime += interval }
            count += 1
            return ImageFrame(raster: try reader.raster(size: size), duration: interval)
        }
        return nil
    }

    func rewind() throws {
        try reader.seek(to: start)
        started = true
        nextTime = start
        count = 0
        lastDecoded = nil
    }
}
