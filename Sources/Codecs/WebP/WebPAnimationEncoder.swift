import CWebP
import CWebPMux
import Foundation
import ImagoCore

extension WebPCodec: AnimatedImageEncoding {
    /// An animated WebP written frame by frame through `WebPAnimEncoder` (see `WebPAnimationEncoder`).
    public func makeAnimationEncoder(_ settings: AnimationEncodingSettings, options: EncodeOptions) throws
        -> any AnimationFrameEncoder
    {
        try WebPAnimationEncoder(settings, options: options, method: method)
    }
}

/// Writes an animated WebP one frame at a time through libwebp's `WebPAnimEncoder`: each frame is imported and
/// compressed as it is added (the encoder keeps its previous canvas and the compressed frames, not the frames
/// added), and `finish` assembles the RIFF file with the durations and loop count, embedding a kept ICC profile.
final class WebPAnimationEncoder: AnimationFrameEncoder {
    private let settings: AnimationEncodingSettings
    private let options: EncodeOptions
    private var config: WebPConfig
    private let encoder: OpaquePointer
    private var timestamp = 0
    private var frames = 0

    init(_ settings: AnimationEncodingSettings, options: EncodeOptions, method: Int) throws {
        let (width, height) = (settings.canvasSize.width, settings.canvasSize.height)
        guard width > 0, height > 0, width <= 16383, height <= 16383 else {
            throw WebPErrors.encoding("\(width)x\(height) is not a size WebP holds (1 to 16383 a side)")
        }
        self.settings = settings
        self.options = options
        config = try WebPCodec.makeConfig(options, method: method)
        var encoderOptions = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&encoderOptions) != 0 else {
            throw WebPErrors.encoding("libwebp version mismatch")
        }
        encoderOptions.anim_params.loop_count = Int32(Swift.min(Swift.max(settings.loopCount, 0), 65535))
        guard let encoder = WebPAnimEncoderNew(Int32(width), Int32(height), &encoderOptions) else {
            throw WebPErrors.encoding("cannot create the animation encoder for \(width)x\(height)")
        }
        self.encoder = encoder
    }

    deinit { WebPAnimEncoderDelete(encoder) }

    func add(_ frame: ImageFrame) throws {
        try settings.check(frame, format: .webp)
        var picture = try WebPCodec.makePicture(frame.raster, lossless: options.lossless)
        defer { WebPPictureFree(&picture) }
        guard WebPAnimEncoderAdd(encoder, &picture, Int32(clamping: timestamp), &config) != 0 else {
            throw WebPErrors.encoding("cannot add a frame: " + error)
        }
        // A frame lasts at least 1 ms so the timestamps keep increasing.
        timestamp += Swift.max(1, Int((frame.duration * 1000).rounded()))
        frames += 1
    }

    func finish() throws -> Data {
        guard frames > 0 else { throw WebPErrors.encoding("an animation needs at least one frame") }
        var assembled = WebPData()
        guard WebPAnimEncoderAdd(encoder, nil, Int32(clamping: timestamp), nil) != 0,
            WebPAnimEncoderAssemble(encoder, &assembled) != 0
        else { throw WebPErrors.encoding("cannot assemble the animation: " + error) }
        defer { WebPDataClear(&assembled) }
        let encoded = Data(bytes: assembled.bytes, count: assembled.size)
        guard let profile = settings.iccProfile, !profile.isEmpty else { return encoded }
        return try WebPCodec.embedding(profile, in: encoded)
    }

    private var error: String {
        let message: UnsafePointer<CChar>? = WebPAnimEncoderGetError(encoder)
        return message.map { String(cString: $0) } ?? "unknown error"
    }
}
