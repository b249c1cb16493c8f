import CImagoShim
import Foundation
import ImagoCore

extension JPEGCodec: DecodedSizeEstimating {
    /// The output size libjpeg computes from SOF for the DCT scale `decode` would choose.
    public func decodedByteCount(_ data: Data, options: DecodeOptions) -> Int? {
        decodedGeometry(data, options: options)?.byteCount
    }

    /// The size libjpeg decodes to (SOF, at the DCT scale `decode` would choose) and the EXIF orientation.
    public func decodedGeometry(_ data: Data, options: DecodeOptions) -> DecodedGeometry? {
        try? data.withEncodedBytes(format: .jpeg) { bytes, count -> DecodedGeometry? in
            guard let decoder = imago_jpeg_decoder_create(bytes, count) else { return nil }
            defer { imago_jpeg_decoder_destroy(decoder) }
            var header = imago_jpeg_header()
            guard imago_jpeg_decoder_read_header(decoder, &header) == 0 else { return nil }
            // The orientation decides how an upright target compares with the stored size, as in `decode`.
            let orientation =
                header.exif.flatMap { EXIFOrientation.read(UnsafeRawBufferPointer(start: $0, count: header.exif_size)) }
                ?? .up
            let scaled = scaledDecode(
                width: Int(header.width), height: Int(header.height), orientation: orientation, options: options)
            // libjpeg rounds scaled dimensions up.
            let width = (Int(header.width) * scaled.eighths + 7) / 8
            let height = (Int(header.height) * scaled.eighths + 7) / 8
            return DecodedGeometry(size: PixelSize(width: width, height: height), orientation: orientation)
        }
    }
}
