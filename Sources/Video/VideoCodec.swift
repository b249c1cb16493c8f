import Foundation
import ImagoCore

extension ImageFormat {
    /// A video (MP4, MOV, WebM, Matroska), decoded to its poster or to frames by `ImagoVideo`.
    public static let video = ImageFormat("video")
}

/// Videos as image sources, over FFmpeg (libavformat, libavcodec, libswscale) loaded on first use: MP4/MOV and
/// WebM/Matroska containers only (FFmpeg's other demuxers are never asked), the decoders of the common video codecs
/// only, from bytes the transports fetched (FFmpeg opens no file, URL or protocol).
///
/// - A still decode (`frames: .first`, or `.all` without a frame cap in `options.timeline`) gives the poster: the
///   frame at `timeline.posterTime` (seeking to the keyframe before it, then decoding forward), or by default the
///   first frame that is neither nearly black nor flat within `posterSearch` seconds (the brightest-varied one seen
///   when none is).
/// - Frames (`makeFrameSource`, or `.all` with a cap) are sampled from `timeline.start` at `timeline.maxFrameRate`
///   at most, up to `timeline.maxFrames` and `timeline.duration`.
/// - Frames come as stored; a rotation in the container is reported as the EXIF orientation (`orientation`) the
///   loader applies. A non-square sample aspect ratio is applied when scaling. `options.targetSize` scales each frame
///   in FFmpeg's scaler, so a 4K clip's 480 px preview never holds a 4K RGBA frame.
///
/// The stream's size is checked against `options.limits.maxPixels` and the duration against `maxDuration` from the
/// header, before any frame is decoded.
public struct VideoCodec: ImageDecoder {
    /// `.video`.
    public var format: ImageFormat { .video }
    /// The longest video accepted, in seconds.
    public var maxDuration: Double
    /// How far into the video the default poster is looked for, in seconds.
    public var posterSearch: Double
    /// Threads FFmpeg's decoder may use for one video (1 by default: the loader already decodes several at once).
    public var threads: Int

    /// FFmpeg's demuxers a video may be read by.
    public static let containers = "mov,mp4,m4a,3gp,3g2,mj2,matroska,webm"

    /// Creates the codec.
    public init(maxDuration: Double = 3 * 3600, posterSearch: Double = 5, threads: Int = 1) {
        self.maxDuration = maxDuration
        self.posterSearch = posterSearch
        self.threads = max(1, threads)
    }

    /// Whether FFmpeg's libraries can be used here (this build had their headers, and they load); the reason when
    /// not.
    public static var availability: Result<Void, ImagoError> {
        VideoReader.loadFailure.map { .failure($0) } ?? .success(())
    }

    /// Whether `header` starts an MP4/QuickTime file whose brand is a video one (not AVIF, HEIF or JPEG XL), or an
    /// EBML (Matroska, WebM) file.
    public func canDecode(_ header: Data) -> Bool { Self.isVideo(header) }

    static func isVideo(_ header: Data) -> Bool {
        let bytes = [UInt8](header.prefix(12))
        if bytes.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return true }
        guard bytes.count >= 12, Array(bytes[4..<8]) == Array("ftyp".utf8) else { return false }
        let brand = String(decoding: bytes[8..<12], as: UTF8.self)
        return videoBrands.contains(brand) || brand.hasPrefix("3g")
    }

    /// Major brands of MP4 and QuickTime video files (image brands such as `avif`, `heic`, `mif1` are not here).
    static let videoBrands: Set<String> = [
        "isom", "iso2", "iso4", "iso5", "iso6", "mp41", "mp42", "avc1", "qt  ", "M4V ", "M4VP", "dash", "mmp4", "MSNV",
        "f4v ", "XAVC",
    ]

    public func decode(_ data: Data, options: DecodeOptions) throws -> DecodedImage {
        try options.limits.check(byteCount: data.count)
        let wantsFrames = options.frames == .all && options.timeline.wantsFrames
        let reader = try VideoReader(data, codec: self, limits: options.limits)
        guard wantsFrames else {
            let raster = try reader.poster(options: options, search: posterSearch)
            return reader.image(frames: [ImageFrame(raster: raster)], encodedSize: data.count)
        }
        let sampler = FrameSampler(reader: reader, options: options)
        var frames: [ImageFrame] = []
        while let frame = try sampler.next() {
            frames.append(frame)
            try options.limits.check(
                frames: frames.count, width: frame.raster.width, height: frame.raster.height, format: .video)
        }
        guard !frames.isEmpty else { throw VideoErrors.invalid("no frame in the asked span") }
        return reader.image(frames: frames, encodedSize: data.count)
    }
}

extension VideoCodec: AnimatedImageDecoding {
    /// The frames sampled as `options.timeline` asks, one at a time (the source keeps `data`, and reads it as FFmpeg
    /// asks, a piece at a time).
    public func makeFrameSource(_ data: Data, options: DecodeOptions) throws -> any AnimationFrameSource {
        try options.limits.check(byteCount: data.count)
        return try VideoFrameSource(data, codec: self, options: options)
    }
}

/// Errors with FFmpeg's reason.
enum VideoErrors {
    static func invalid(_ reason: String) -> ImagoError {
        ImagoError(.decodingFailed(format: .video), "video: " + reason)
    }
}
