import Foundation
import ImagoCore

/// What a video's container and stream header say, read without decoding a frame (`imago info`, `/info`).
public struct VideoInfo: Sendable, Hashable, Codable {
    /// FFmpeg's demuxer (`mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`) and codec (`h264`, `vp9`) names.
    public var container: String
    public var codec: String
    /// The size shown (sample aspect ratio applied, before rotation), in pixels.
    public var width: Int
    public var height: Int
    /// Degrees clockwise the frames are turned to show them upright.
    public var rotation: Int
    /// Seconds (0 when unknown).
    public var duration: Double
    /// Frames per second (0 when unknown).
    public var frameRate: Double
    /// Frames declared or estimated (0 when unknown).
    public var frameCount: Int

    /// The JSON object (`imago info --json`'s and `/info`'s `video`), duration and frame rate to 3 decimals.
    public var json: JSONValue {
        func rounded(_ value: Double) -> JSONValue { .number((value * 1000).rounded() / 1000) }
        return .object([
            "container": .string(container), "codec": .string(codec), "width": .number(Double(width)),
            "height": .number(Double(height)), "rotation": .number(Double(rotation)), "duration": rounded(duration),
            "frameRate": rounded(frameRate), "frameCount": .number(Double(frameCount)),
        ])
    }
}

extension VideoCodec {
    /// The video's facts, checking the limits as a decode does; throws what `decode` would for a bad header.
    public func videoInfo(_ data: Data, limits: DecodeLimits = .default) throws -> VideoInfo {
        try limits.check(byteCount: data.count)
        let reader = try VideoReader(data, codec: self, limits: limits)
        let info = reader.info
        return VideoInfo(
            container: Self.string(info.container), codec: Self.string(info.codec), width: reader.displaySize.width,
            height: reader.displaySize.height, rotation: Int(info.rotation), duration: info.duration,
            frameRate: info.frame_rate, frameCount: Int(info.frame_count))
    }

    private static func string<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}

extension VideoCodec: AnimationInfoReading {
    /// The video as an animation: its display size, frame count, duration; it plays once (loop count 0 is what
    /// animated formats write for a preview that repeats).
    public func animationInfo(_ data: Data, limits: DecodeLimits) throws -> AnimationInfo {
        let info = try videoInfo(data, limits: limits)
        return AnimationInfo(
            canvasSize: PixelSize(width: info.width, height: info.height), frameCount: max(1, info.frameCount),
            totalDuration: info.duration, loopCount: 0)
    }
}

extension VideoCodec: ContainerFactsReading, TimelineDecoding {
    /// `video`.
    public var factsKey: String { "video" }

    /// `videoInfo(_:limits:)` as JSON.
    public func containerFacts(_ data: Data, limits: DecodeLimits) throws -> JSONValue {
        try videoInfo(data, limits: limits).json
    }

    /// Why FFmpeg cannot be used on this machine (a build without its headers, or its libraries missing), or nil.
    public static var unavailableReason: String? { VideoReader.loadFailure?.reason }
}
