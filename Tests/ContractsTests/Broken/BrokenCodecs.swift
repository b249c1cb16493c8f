import Foundation
import ImagoCore

/// Deliberately broken codecs, each breaking one promise, to show the contracts catch them.
enum BrokenCodecs {
    /// Claims every header it is shown.
    struct ClaimsEverything: ImageDecoder {
        var format: ImageFormat { PAMCodec.pam }
        func canDecode(_ header: Data) -> Bool { true }
        func decode(_ data: Data, options: DecodeOptions) throws -> DecodedImage {
            try PAMCodec().decode(data, options: options)
        }
    }

    /// Returns an image one column wider than the file says.
    struct WrongSize: ImageDecoder {
        var format: ImageFormat { PAMCodec.pam }
        func canDecode(_ header: Data) -> Bool { PAMCodec().canDecode(header) }
        func decode(_ data: Data, options: DecodeOptions) throws -> DecodedImage {
            let image = try PAMCodec().decode(data, options: options)
            let wider = try Raster(width: image.width + 1, height: image.height, fill: RGBA(0, 0, 0))
            return DecodedImage(raster: wider, format: format, hasAlpha: image.hasAlpha)
        }
    }

    /// Decodes whatever size the header declares, whatever the limits say.
    struct IgnoresLimits: ImageDecoder {
        var format: ImageFormat { PAMCodec.pam }
        func canDecode(_ header: Data) -> Bool { PAMCodec().canDecode(header) }
        func decode(_ data: Data, options: DecodeOptions) throws -> DecodedImage {
            var unlimited = options
            unlimited.limits = DecodeLimits(maxPixels: .max, maxTotalPixels: .max, maxFrames: .max, maxBytes: .max)
            return try PAMCodec().decode(data, options: unlimited)
        }
    }

    /// Throws its own error type instead of `ImagoError`.
    struct ForeignErrors: ImageDecoder {
        struct ParseError: Error {}
        var format: ImageFormat { PAMCodec.pam }
        func canDecode(_ header: Data) -> Bool { PAMCodec().canDecode(header) }
        func decode(_ data: Data, options: DecodeOptions) throws -> DecodedImage {
            do { return try PAMCodec().decode(data, options: options) } catch { throw ParseError() }
        }
    }

    /// Writes rows bottom-up: a lossless format that does not round-trip.
    struct FlipsRows: ImageEncoder {
        var format: ImageFormat { PAMCodec.pam }
        var supportsAnimation: Bool { false }
        func encode(_ image: DecodedImage, options: EncodeOptions) throws -> Data {
            let raster = image.raster
            let rowBytes = raster.width * 4
            let pixels = raster.pixels
            var flipped: [UInt8] = []
            for row in (0..<raster.height).reversed() { flipped += pixels[(row * rowBytes)..<((row + 1) * rowBytes)] }
            let copy = DecodedImage(
                raster: try Raster(width: raster.width, height: raster.height, pixels: flipped), format: image.format,
                hasAlpha: image.hasAlpha)
            return try PAMCodec().encode(copy, options: options)
        }
    }
}
