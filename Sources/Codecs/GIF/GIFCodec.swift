import CGIF
import Foundation
import ImagoCore

/// GIF over giflib: static and animated images, composited frame by frame onto the logical screen as browsers
/// show them, and encoding with a palette per frame.
///
/// Decoding conventions:
/// - The canvas starts transparent (the background colour index is ignored, as browsers do); frames are clipped
///   to the logical screen (as ImageMagick and browsers do; Pillow enlarges the canvas instead).
/// - Durations are what browsers show: a delay of 0 or 1 centisecond plays for 0.1 s. Still images report 0.
/// - `loopCount` is the number of plays: 0 for forever (NETSCAPE2.0 repeat count 0), n + 1 for a repeat count n,
///   and 1 when the extension is absent (the animation plays once). Still images report 0.
/// - A file that breaks off after at least one complete frame keeps its complete frames; an incomplete frame is
///   dropped, and a file whose first frame is incomplete fails.
public struct GIFCodec: ImageDecoder, ImageEncoder {
    /// `.gif`.
    public var format: ImageFormat { .gif }
    /// GIF holds animations.
    public var supportsAnimation: Bool { true }

    /// Creates the codec.
    public init() {}

    /// Whether `header` starts with `GIF87a` or `GIF89a`.
    public func canDecode(_ header: Data) -> Bool {
        GIFCodec.hasSignature(header)
    }

    static func hasSignature(_ data: Data) -> Bool {
        guard data.count >= 6 else { return false }
        let start = data.startIndex
        return data[start..<start + 3].elementsEqual("GIF".utf8)
            && (data[start + 3..<start + 6].elementsEqual("87a".utf8)
                || data[start + 3..<start + 6].elementsEqual("89a".utf8))
    }

    /// Decodes every frame (or the first, when `options.frames` is `.first`), checking the limits first.
    public func decode(_ data: Data, options: DecodeOptions) throws -> DecodedImage {
        // The frame source checks the byte limit and the signature first.
        try GIFCodec.decodeGIF(data, options: options)
    }

    /// Encodes the first frame, or every frame when `options.allFrames` is set, through one `GIFAnimationEncoder`.
    public func encode(_ image: DecodedImage, options: EncodeOptions) throws -> Data {
        var image = image
        if !options.allFrames { image.frames = [image.frames[0]] }
        return try encodeFrames(image, options: options)
    }
}
