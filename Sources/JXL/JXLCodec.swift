import CJXL
import Foundation
import ImagoColor
import ImagoCore

extension ImageFormat {
    /// JPEG XL (`jxl`), decoded and encoded by `ImagoJXL`.
    public static let jxl = ImageFormat("jxl")
}

/// JPEG XL over libjxl (0.7): bare codestreams and containers, alpha, 16-bit images reduced to 8 bits,
/// animations (coalesced frames, durations, loop count), the codestream's orientation applied, an embedded ICC
/// profile converted to sRGB, kept or ignored (`DecodeOptions.colorProfiles`; a lossy, XYB-coded image is rendered
/// in sRGB by libjxl itself, so it has no stored pixels to keep); lossy (at a quality mapped to a Butteraugli
/// distance as cjxl maps it), lossless and animated encoding, embedding a kept profile.
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

    /// Whether `header` starts a JPEG XL codestream (`FF 0A`) or container (`00 00 00 0C 'JXL ' 0D 0A 87 0A`).
    /// Checked here, not by libjxl: sniffing every other format must not load the library.
    public func canDecode(_ header: Data) -> Bool {
        JXLCodec.hasSignature(header)
    }

    static func hasSignature(_ data: Data) -> Bool {
        data.starts(with: codestreamSignature) || data.starts(with: containerSignature)
    }

    static let codestreamSignature: [UInt8] = [0xFF, 0x0A]
    static let containerSignature: [UInt8] = [0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]

    /// Decodes the image or every frame of an animation (the first only when `options.frames` is `.first`),
    /// checking the limits from the header, and each new frame against the animation limits before its pixels.
    public func decode(_ data: Data, options: DecodeOptions) throws -> DecodedImage {
        try options.limits.check(byteCount: data.count)
        guard JXLCodec.hasSignature(data) else { throw JXLErrors.decoding("not a JPEG XL file (no signature)") }
        try JXLLibrary.load(or: .decodingFailed(format: .jxl))
        return try data.withUnsafeBytes { bytes in try JXLCodec.decode(bytes, options: options) }
    }

    /// Encodes the first frame, or every frame as an animation when there are several and `options.allFrames`
    /// (a kept grey ICC profile is converted to sRGB first: the encoder writes RGB).
    public func encode(_ image: DecodedImage, options: EncodeOptions) throws -> Data {
        try JXLLibrary.load(or: .encodingFailed(format: .jxl))
        let image = try ColorManagement.withoutGrayProfile(image)
        return try JXLCodec.encode(
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
