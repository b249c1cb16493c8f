import CImagoShim
import Foundation
import ImagoCore

/// JPEG over libjpeg-turbo: baseline, progressive, arithmetic, grey, CMYK and YCCK (Adobe-inverted CMYK
/// as Photoshop writes it), decoded to RGBA8 by libjpeg-turbo itself straight into a pooled `Raster`.
///
/// - The EXIF orientation is read from the APP1 segment and reported, not applied.
/// - With `DecodeOptions.targetSize`, the image is decoded at the smallest of libjpeg's DCT scales (1/8 … 8/8) that
///   still covers the target, and, when the result is shrunk further, with the fast IDCT and plain chroma upsampling
///   (as Pillow's draft mode); the resize processor does the rest.
/// - Policy on bad data, as Pillow, ImageMagick and browsers: corrupt entropy data that libjpeg only warns about
///   (bad Huffman codes, "premature end of data segment", lost restart markers, stray bytes before a marker)
///   decodes as libjpeg reconstructs it, and the warnings are kept in `DecodedImage.warnings`. Data that runs out
///   before the last row ("Premature end of JPEG file") is an error, as in Pillow: libjpeg would pad the rest
///   with grey. `DecodeOptions.strict` makes every warning an error.
/// - An embedded ICC profile (APP2 `ICC_PROFILE` chunks, reassembled by libjpeg-turbo) is converted to sRGB, or
///   kept or ignored (see `DecodeOptions.colorProfiles`); CMYK with a profile goes through lcms2, CMYK without one
///   through Pillow's formula.
/// - Sniffing wants `FF D8 FF` (SOI and a marker), as Pillow does.
/// - 12-bit and lossless JPEGs are refused: Debian 12's libjpeg-turbo 2.1.5 has no support for them.
public struct JPEGCodec: ImageDecoder, ImageEncoder {
    /// Whether a target size may reduce the decoded scale (DCT scaling).
    public var scaledDecoding: Bool

    /// Creates a codec.
    public init(scaledDecoding: Bool = true) {
        self.scaledDecoding = scaledDecoding
    }

    public var format: ImageFormat { .jpeg }
    public var supportsAnimation: Bool { false }

    /// SOI followed by the start of a marker.
    public func canDecode(_ header: Data) -> Bool { header.starts(with: [0xFF, 0xD8, 0xFF]) }

    public func decode(_ data: Data, options: DecodeOptions) throws -> DecodedImage {
        try options.limits.check(byteCount: data.count)
        return try data.withEncodedBytes(format: .jpeg) { bytes, count in
            guard let decoder = imago_jpeg_decoder_create(bytes, count) else {
                throw CodecFailure.decoding(.jpeg, "out of memory")
            }
            defer { imago_jpeg_decoder_destroy(decoder) }
            imago_jpeg_decoder_set_strict(decoder, options.strict ? 1 : 0)
            func failure() -> ImagoError {
                CodecFailure.decoding(.jpeg, CodecFailure.reason(imago_jpeg_decoder_message(decoder)))
            }

            var header = imago_jpeg_header()
            guard imago_jpeg_decoder_read_header(decoder, &header) == 0 else { throw failure() }
            let width = Int(header.width)
            let height = Int(header.height)
            // Checked at full size from SOF: progressive decoding holds full-size coefficients whatever the scale.
            try options.limits.check(width: width, height: height, format: .jpeg)
            let orientation = header.exif.flatMap {
                EXIFOrientation.read(UnsafeRawBufferPointer(start: $0, count: header.exif_size))
            }

            let color = try JPEGCodec.colorPlan(decoder, header: header, options: options)

            let scaled = scaledDecode(width: width, height: height, orientation: orientation ?? .up, options: options)
            imago_jpeg_decoder_set_thumbnail_mode(decoder, UInt32(scaled.eighths), scaled.fast ? 1 : 0)
            var outputWidth: UInt32 = 0
            var outputHeight: UInt32 = 0
            guard imago_jpeg_decoder_prepare(decoder, 1, &outputWidth, &outputHeight) == 0 else {
                throw failure()
            }
            let rowBytes = Int(outputWidth) * 4
            var raster = try Raster(width: Int(outputWidth), height: Int(outputHeight)) { buffer in
                let pixels = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
                guard imago_jpeg_decoder_read_rgba(decoder, pixels, rowBytes) == 0 else { throw failure() }
                color.apply(to: buffer, width: Int(outputWidth), height: Int(outputHeight), bytesPerRow: rowBytes)
            }
            raster.extent = Self.extent(width: width, height: height, eighths: scaled.eighths)
            var image = DecodedImage(
                frames: [ImageFrame(raster: raster)], format: .jpeg, orientation: orientation ?? .up,
                hasAlpha: false, encodedSize: data.count)
            image.warnings = JPEGCodec.warnings(decoder)
            color.record(on: &image)
            return image
        }
    }
}
