import CWebP
import Foundation
import ImagoColor
import ImagoCore

/// WebP over libwebp: lossy, lossless and alpha stills, animations composited through `WebPAnimDecoder`, scaled
/// decoding for thumbnails, and lossy, lossless or animated encoding.
///
/// Conventions: `loopCount` is the ANIM chunk's loop count (0 forever, n plays); durations are what browsers
/// show (frames of 10 ms or less play for 0.1 s, as for GIF); still images report 0 for both.
public struct WebPCodec: ImageDecoder, ImageEncoder {
    /// `.webp`.
    public var format: ImageFormat { .webp }
    /// WebP holds animations.
    public var supportsAnimation: Bool { true }

    /// Whether a target size may make libwebp decode a still image at reduced scale (on by default).
    public var scaledDecoding: Bool

    /// libwebp's effort for lossy encoding, 0 (fastest) to 6 (smallest); 4, libwebp's own default, unless set.
    /// On 512 px photos at quality 75, method 2 takes half the CPU of 4 for 3 % more bytes and a little less
    /// fidelity (DSSIM +0.003); 3 costs as much as 4.
    public var method: Int = 4

    /// Creates the codec.
    public init(scaledDecoding: Bool = true) {
        self.scaledDecoding = scaledDecoding
    }

    /// Creates the codec encoding lossy images with libwebp's `method` (0-6).
    public init(scaledDecoding: Bool = true, method: Int) {
        self.init(scaledDecoding: scaledDecoding)
        self.method = Swift.min(Swift.max(method, 0), 6)
    }

    /// Whether `header` starts with `RIFF`, four size bytes and `WEBP`.
    public func canDecode(_ header: Data) -> Bool {
        WebPCodec.hasSignature(header)
    }

    static func hasSignature(_ data: Data) -> Bool {
        guard data.count >= 12 else { return false }
        let start = data.startIndex
        return data[start..<start + 4].elementsEqual("RIFF".utf8)
            && data[start + 8..<start + 12].elementsEqual("WEBP".utf8)
    }

    /// Decodes a still image (scaled down when `options.targetSize` allows) or every frame of an animation (the
    /// first only when `options.frames` is `.first`), checking the limits from the header first.
    public func decode(_ data: Data, options: DecodeOptions) throws -> DecodedImage {
        try WebPCodec.checkInput(data, limits: options.limits)
        return try data.withUnsafeBytes { bytes in
            var features = WebPBitstreamFeatures()
            let status = WebPGetFeatures(bytes.baseAddress, bytes.count, &features)
            guard status == VP8_STATUS_OK else { throw WebPErrors.decoding("cannot read the header", status: status) }
            let width = Int(features.width)
            let height = Int(features.height)
            try options.limits.check(width: width, height: height, format: .webp)
            // Read before decoding: the scale for an upright target depends on it.
            let orientation = WebPCodec.orientation(bytes)
            guard features.has_animation == 0 else {
                // The frame source applies the profile to each frame as it copies it out of libwebp's canvas.
                var image = try WebPCodec.decodeAnimation(data, options: options)
                image.hasAlpha = features.has_alpha != 0
                image.orientation = orientation
                return image
            }
            var image = try WebPCodec.decodeStill(
                bytes, features: features, orientation: orientation, options: options, scaled: scaledDecoding)
            image.hasAlpha = features.has_alpha != 0
            image.orientation = orientation
            // libwebp has no colour management: an ICCP profile is applied to the decoded pixels.
            let color = try ColorPlan(
                profile: WebPCodec.iccProfile(bytes), layout: .rgba, options: options, format: .webp)
            image = try color.applied(to: image)
            color.record(on: &image)
            return image
        }
    }

    /// Encodes the first frame, or every frame as an animation when there are several and `options.allFrames`;
    /// a kept ICC profile (`DecodedImage.iccProfile`) is embedded as the ICCP chunk (a grey one is converted to
    /// sRGB first: WebP holds RGB only).
    public func encode(_ image: DecodedImage, options: EncodeOptions) throws -> Data {
        let image = try ColorManagement.withoutGrayProfile(image)
        // An animation goes through the frame-by-frame encoder, which embeds the profile itself.
        if options.allFrames && image.frames.count > 1 { return try encodeFrames(image, options: options) }
        let encoded = try WebPCodec.encodeStill(image.raster, options: options, method: method)
        guard let profile = image.iccProfile, !profile.isEmpty else { return encoded }
        return try WebPCodec.embedding(profile, in: encoded)
    }

    /// What browsers show for a frame of `milliseconds`: 10 ms or less plays for 0.1 s.
    static func displayDuration(milliseconds: Int) -> Double {
        milliseconds <= 10 ? 0.1 : Double(milliseconds) / 1000
    }
}

/// Errors with libwebp's reason.
enum WebPErrors {
    static func decoding(_ what: String, status: VP8StatusCode? = nil) -> ImagoError {
        ImagoError(.decodingFailed(format: .webp), "WebP: " + what + (status.map { ": " + message($0) } ?? ""))
    }

    static func encoding(_ what: String) -> ImagoError {
        ImagoError(.encodingFailed(format: .webp), "WebP: " + what)
    }

    static func message(_ status: VP8StatusCode) -> String {
        switch status {
        case VP8_STATUS_OUT_OF_MEMORY: "out of memory"
        case VP8_STATUS_INVALID_PARAM: "invalid parameter"
        case VP8_STATUS_BITSTREAM_ERROR: "bitstream error"
        case VP8_STATUS_UNSUPPORTED_FEATURE: "unsupported feature"
        case VP8_STATUS_SUSPENDED: "suspended"
        case VP8_STATUS_USER_ABORT: "aborted"
        case VP8_STATUS_NOT_ENOUGH_DATA: "not enough data (truncated file)"
        default: "status \(status.rawValue)"
        }
    }
}

extension WebPCodec: AnimatedImageDecoding {
    /// An animated WebP's frames one at a time (see `AnimationFrameSource`); each frame's canvas is checked against
    /// the limits, not their number (a still WebP is a one-frame source).
    public func makeFrameSource(_ data: Data, options: DecodeOptions) throws -> any AnimationFrameSource {
        try WebPCodec.checkInput(data, limits: options.limits)
        return try WebPFrameSource(data, options: options)
    }

    /// The byte limit, then the RIFF/WEBP signature: what both ways of decoding check before anything else.
    static func checkInput(_ data: Data, limits: DecodeLimits) throws {
        try limits.check(byteCount: data.count)
        guard hasSignature(data) else { throw WebPErrors.decoding("not a WebP file (no RIFF/WEBP signature)") }
    }
}
