import CAVIF
import Foundation
import ImagoColor
import ImagoCore

extension ImageFormat {
    /// AV1 Image File Format (`avif`), decoded and encoded by `ImagoAVIF`.
    public static let avif = ImageFormat("avif")
}

/// AVIF over libavif (0.11, AV1 through dav1d or libgav1, encoding through aom): stills, alpha, 10- and 12-bit
/// images reduced to 8 bits, image sequences (frames and durations), `clap`/`irot`/`imir` applied to the pixels,
/// an embedded ICC profile converted to sRGB, kept or ignored (`DecodeOptions.colorProfiles`); lossy, lossless and
/// animated encoding, embedding a kept profile.
///
/// Conventions: the transformations are applied, so `orientation` is always `.up` (nothing turns twice);
/// `loopCount` is 0 (forever) because libavif 0.11 does not read a sequence's repetition count; a still image
/// reports 0 for both duration and loop count.
public struct AVIFCodec: ImageDecoder, ImageEncoder {
    /// `.avif`.
    public var format: ImageFormat { .avif }
    /// AVIF holds image sequences.
    public var supportsAnimation: Bool { true }

    /// Threads libavif may use for one decode or encode (1 by default: the loader already decodes several images
    /// at once, one per core).
    public var threads: Int
    /// Encoder speed, 0 (slowest, smallest) to 10 (fastest).
    public var speed: Int

    /// Creates the codec.
    public init(threads: Int = 1, speed: Int = 8) {
        self.threads = Swift.max(1, threads)
        self.speed = Swift.min(Swift.max(speed, 0), 10)
    }

    /// Whether `header` starts an ISO-BMFF file whose `ftyp` names an AVIF brand (`avif`, `avis`) and whose major
    /// brand is not an HEVC one (a HEIC that also lists `avif` belongs to the HEIF decoder).
    public func canDecode(_ header: Data) -> Bool {
        AVIFCodec.isAVIF(header)
    }

    static func isAVIF(_ data: Data) -> Bool { FileTypeBox(data)?.isAVIF ?? false }

    /// Decodes the image, or every frame of a sequence (the first only when `options.frames` is `.first`),
    /// checking the limits from the header first. libavif cannot decode at a reduced scale: a target size gives
    /// the full size, for the resize processor.
    public func decode(_ data: Data, options: DecodeOptions) throws -> DecodedImage {
        // The frame source checks the byte limit and the brand, and loads libavif, first.
        try AVIFCodec.decode(data, options: options, threads: threads)
    }

    /// Encodes the first frame, or every frame as an image sequence when there are several and `options.allFrames`;
    /// a kept ICC profile (`DecodedImage.iccProfile`) is embedded (a grey one is converted to sRGB first: the
    /// encoder writes RGB).
    public func encode(_ image: DecodedImage, options: EncodeOptions) throws -> Data {
        try AVIFLibrary.load(or: .encodingFailed(format: .avif))
        var image = try ColorManagement.withoutGrayProfile(image)
        if !options.allFrames { image.frames = [image.frames[0]] }
        return try encodeFrames(image, options: options)
    }
}

/// Errors with libavif's reason.
enum AVIFErrors {
    static func decoding(_ what: String, result: avifResult? = nil) -> ImagoError {
        ImagoError(.decodingFailed(format: .avif), "AVIF: " + what + (result.map { ": " + message($0) } ?? ""))
    }

    /// A parse failure; libavif's refusal of a size over its ceiling is a limit, the rest malformed input.
    static func parsing(_ result: avifResult, diagnostic: String) -> ImagoError {
        let detail = diagnostic.isEmpty ? message(result) : diagnostic
        if detail.lowercased().contains("limit") || detail.lowercased().contains("too large") {
            return ImagoError(.limitExceeded, "too large: AVIF: " + detail)
        }
        return ImagoError(.decodingFailed(format: .avif), "AVIF: cannot parse the file: " + detail)
    }

    static func encoding(_ what: String, result: avifResult? = nil) -> ImagoError {
        ImagoError(.encodingFailed(format: .avif), "AVIF: " + what + (result.map { ": " + message($0) } ?? ""))
    }

    static func message(_ result: avifResult) -> String {
        avifResultToString(result).map { String(cString: $0) } ?? "error \(result.rawValue)"
    }
}

extension AVIFCodec: AnimatedImageDecoding {
    /// An image sequence's frames one at a time (see `AnimationFrameSource`): each frame is checked against the
    /// per-frame limits. The frame count stays bounded by `maxFrames`: libavif builds a table entry for every sample
    /// a file declares when it parses it.
    public func makeFrameSource(_ data: Data, options: DecodeOptions) throws -> any AnimationFrameSource {
        try AVIFFrameSource(data, options: options, threads: threads)
    }
}
