import CJXL
import Foundation
import ImagoCore

extension ImageFormat {
    /// JPEG XL (`jxl`), decoded and encoded by `ImagoJXL`.
    public static let jxl = ImageFormat("jxl")
}

/// JPEG XL over libjxl (0.7): bare codestreams and containers, alpha, 16-bit images reduced to 8 bits,
/// animations (coalesced frames, durations, loop count), the codestream's orientation applied, the ICC profile
/// kept on the image; lossy (at a quality mapped to a Butteraugli distance as cjxl maps it), lossless and animated
/// encoding.
///
/// Conventions: libjxl applies the orientation, so `orientation` is `.up`; decoding is single-threaded (no
/// parallel runner); libjxl 0.7 has no reduced-size decode, so a target size gives the full size.
public struct JXLCodec: ImageDecoder, ImageEncoder {
    /// `.jxl`.
    public var format: ImageFormat { .jxl }
    /// JPEG XL holds animations.
    public var supportsAnimation: Bool { true }

    /// Encoder effort, 1 (fastest) to 9 (slowest, smallest); 7 is cjxl's default.
    public var effort: Int

    /// Creates the codec.
    public init(effort: Int = 7) {
        self.effort = Swift.min(Swift.max(effort, 1), 9)
    }

    /// Whether `header` starts a JPEG XL codestream (`FF 0A`) or container (`00 00 00 0C 'JXL ' 0D 0A 87 0A`),
    /// as libjxl's signature check says.
    public func canDecode(_ header: Data) -> Bool {
        JXLCodec.hasSignature(header)
    }

    static func hasSignature(_ data: Data) -> Bool {
        let signature = data.prefix(12).withUnsafeBytes { bytes in
            JxlSignatureCheck(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
        }
        return signature == JXL_SIG_CODESTREAM || signature == JXL_SIG_CONTAINER
    }

    /// Decodes the image or every frame of an animation (the first only when `options.frames` is `.first`),
    /// checking the limits from the header, and each new frame against the animation limits before its pixels.
    public func decode(_ data: Data, options: DecodeOptions) throws -> DecodedImage {
        try options.limits.check(byteCount: data.count)
        guard JXLCodec.hasSignature(data) else { throw JXLErrors.decoding("not a JPEG XL file (no signature)") }
        return try data.withUnsafeBytes { bytes in try JXLCodec.decode(bytes, options: options) }
    }

    /// Encodes the first frame, or every frame as an animation when there are several and `options.allFrames`.
    public func encode(_ image: DecodedImage, options: EncodeOptions) throws -> Data {
        try JXLCodec.encode(
            image, frames: options.allFrames ? image.frames : [image.frames[0]], options: options, effort: effort)
    }
}

/// Errors with libjxl's reason.
enum JXLErrors {
    static func decoding(_ what: String) -> ImagoError {
        ImagoError(.decodingFailed(format: .jxl), "JPEG XL: " + what)
    }

    static func encoding(_ what: String) -> ImagoError {
        ImagoError(.encodingFailed(format: .jxl), "JPEG XL: " + what)
    }
}
