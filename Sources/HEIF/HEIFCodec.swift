import CHEIF
import Foundation
import ImagoColor
import ImagoCore

extension ImageFormat {
    /// HEIF with HEVC-coded images (`heic`), decoded and encoded by `ImagoHEIF`.
    public static let heic = ImageFormat("heic")
}

/// HEIC over libheif (1.15, HEVC through libde265, encoding through x265): the primary image, alpha, 10- and 12-bit
/// images reduced to 8 bits, the `irot`/`imir`/`clap` transformations applied as libheif's defaults do, embedded
/// thumbnails for small targets, an embedded ICC profile converted to sRGB, kept or ignored
/// (`DecodeOptions.colorProfiles`); lossy or lossless encoding, embedding a kept profile.
///
/// Conventions: the transformations are applied to the pixels and `orientation` is `.up`, so nothing turns twice
/// (the HEIF standard makes `irot`/`imir` authoritative; an EXIF orientation in a HEIC only repeats them).
/// AVIF files, which libheif could also read, are left to the AVIF decoder.
public struct HEIFCodec: ImageDecoder, ImageEncoder {
    /// `.heic`.
    public var format: ImageFormat { .heic }
    /// libheif 1.15 reads and writes still images only.
    public var supportsAnimation: Bool { false }

    /// Threads libheif may use for one decode (1 by default: the loader already decodes several images at once).
    public var threads: Int
    /// Encoder speed, 0 (x265's `placebo`) to 9 (`ultrafast`); 4 is x265's default, `medium`.
    public var speed: Int
    /// Whether a target size may pick an embedded thumbnail that still covers it (on by default).
    public var usesThumbnails: Bool

    /// Creates the codec.
    public init(threads: Int = 1, speed: Int = 4, usesThumbnails: Bool = true) {
        self.threads = Swift.max(1, threads)
        self.speed = Swift.min(Swift.max(speed, 0), 9)
        self.usesThumbnails = usesThumbnails
    }

    /// Whether `header` starts an ISO-BMFF file whose `ftyp` brands make it a HEIF image (`heic`, `heix`, `hevc`,
    /// `mif1`, `msf1`, …) and not an AVIF (no `avif`/`avis` brand, unless the major brand is an HEVC one).
    public func canDecode(_ header: Data) -> Bool {
        FileTypeBox(header)?.isHEIF ?? false
    }

    /// Decodes the primary image (or a thumbnail covering `options.targetSize`), checking the limits from the
    /// header first.
    public func decode(_ data: Data, options: DecodeOptions) throws -> DecodedImage {
        try options.limits.check(byteCount: data.count)
        guard FileTypeBox(data.prefix(ImageFormat.sniffLength))?.isHEIF == true else {
            throw HEIFErrors.decoding("not a HEIF file (no HEIF brand in ftyp)")
        }
        try HEIFLibrary.load(or: .decodingFailed(format: .heic))
        return try data.withUnsafeBytes { bytes in
            try HEIFCodec.decode(bytes, options: options, threads: threads, usesThumbnails: usesThumbnails)
        }
    }

    /// Encodes the first frame, embedding a kept ICC profile (`DecodedImage.iccProfile`; a grey one is converted to
    /// sRGB first: the encoder writes RGB).
    public func encode(_ image: DecodedImage, options: EncodeOptions) throws -> Data {
        try HEIFLibrary.load(or: .encodingFailed(format: .heic))
        let image = try ColorManagement.withoutGrayProfile(image)
        return try HEIFCodec.encode(image.raster, profile: image.iccProfile, options: options, speed: speed)
    }
}

/// Errors with libheif's reason.
enum HEIFErrors {
    static func decoding(_ what: String, _ error: heif_error? = nil) -> ImagoError {
        if let error, error.subcode == heif_suberror_Security_limit_exceeded {
            return ImagoError(.limitExceeded, "too large: HEIF: " + what + ": " + message(error))
        }
        return ImagoError(.decodingFailed(format: .heic), "HEIF: " + what + (error.map { ": " + message($0) } ?? ""))
    }

    static func encoding(_ what: String, _ error: heif_error? = nil) -> ImagoError {
        ImagoError(.encodingFailed(format: .heic), "HEIF: " + what + (error.map { ": " + message($0) } ?? ""))
    }

    static func message(_ error: heif_error) -> String {
        guard let text = error.message, text.pointee != 0 else { return "error \(error.code.rawValue)" }
        return String(cString: text)
    }
}
