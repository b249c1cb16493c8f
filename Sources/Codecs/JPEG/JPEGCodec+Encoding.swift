import CImagoShim
import Foundation
import ImagoColor
import ImagoCore

extension JPEGCodec {
    /// Encodes the first frame as a baseline 4:2:0 JPEG of `options.quality`. JPEG has no alpha: transparent
    /// pixels are composited onto `options.background` (white by default), since dropping alpha would show the
    /// colours they hide. A kept ICC profile (`DecodedImage.iccProfile`) is embedded in APP2 `ICC_PROFILE`
    /// chunks; with a grey one the JPEG is written grey (one component), as a grey profile requires (a
    /// grey-profiled image whose pixels are not grey is converted to sRGB first).
    public func encode(_ image: DecodedImage, options: EncodeOptions) throws -> Data {
        var firstFrame = image
        firstFrame.frames = [image.frames[0]]  // JPEG holds one frame: only it is flattened and converted
        let (image, grayscale) = try ColorManagement.keepingGrayProfile(
            try firstFrame.flattened(onto: options.background)
        ) { PNGCodec.analyze($0).gray }
        let raster = image.raster
        let profile = image.iccProfile ?? Data()
        return try raster.withUnsafeBytes { buffer in
            let pixels = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var output: UnsafeMutablePointer<UInt8>?
            var size = 0
            var message = [CChar](repeating: 0, count: 256)
            let status = profile.withUnsafeBytes { icc in
                imago_jpeg_encode_icc(
                    pixels, UInt32(raster.width), UInt32(raster.height), raster.bytesPerRow, Int32(options.quality),
                    grayscale ? 1 : 0, icc.baseAddress?.assumingMemoryBound(to: UInt8.self), icc.count, &output,
                    &size, &message, message.count)
            }
            guard status == 0, let output else {
                throw CodecFailure.encoding(.jpeg, CodecFailure.reason(message))
            }
            return encodedData(output, count: size)
        }
    }
}
