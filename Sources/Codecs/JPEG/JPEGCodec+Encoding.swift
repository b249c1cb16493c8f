import CImagoShim
import Foundation
import ImagoCore

extension JPEGCodec {
    /// Encodes the first frame as a baseline 4:2:0 JPEG of `options.quality`. JPEG has no alpha: transparent
    /// pixels are composited onto `options.background` (white by default), since dropping alpha would show the
    /// colours they hide. A kept ICC profile (`DecodedImage.iccProfile`) is embedded in APP2 `ICC_PROFILE`
    /// chunks.
    public func encode(_ image: DecodedImage, options: EncodeOptions) throws -> Data {
        let raster = try image.raster.flattened(onto: options.background)
        return try raster.withUnsafeBytes { buffer in
            let pixels = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var output: UnsafeMutablePointer<UInt8>?
            var size = 0
            var message = [CChar](repeating: 0, count: 256)
            let profile = image.iccProfile ?? Data()
            let status = profile.withUnsafeBytes { icc in
                imago_jpeg_encode_icc(
                    pixels, UInt32(raster.width), UInt32(raster.height), raster.bytesPerRow, Int32(options.quality),
                    icc.baseAddress?.assumingMemoryBound(to: UInt8.self), icc.count, &output, &size, &message,
                    message.count)
            }
            guard status == 0, let output else {
                throw CodecFailure.encoding(.jpeg, CodecFailure.reason(message))
            }
            return encodedData(output, count: size)
        }
    }
}
