import CImagoShim
import Foundation
import ImagoCore

extension PNGCodec {
    /// Encodes the first frame losslessly as 8-bit PNG, in the smallest layout that keeps every pixel:
    /// grey or RGB when the image is opaque, grey+alpha or RGBA otherwise. A kept ICC profile
    /// (`DecodedImage.iccProfile`, always RGB) is embedded as `iCCP`, in an RGB or RGBA layout.
    public func encode(_ image: DecodedImage, options: EncodeOptions) throws -> Data {
        let raster = image.raster
        return try raster.withUnsafeBytes { buffer in
            let pixels = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let width = UInt32(raster.width)
            let height = UInt32(raster.height)
            var opaque: Int32 = 0
            var gray: Int32 = 0
            imago_shim_rgba_analyze(pixels, width, height, raster.bytesPerRow, &opaque, &gray)
            let profile = image.iccProfile ?? Data()
            let layout: imago_png_layout =
                switch (opaque != 0, gray != 0 && profile.isEmpty) {
                case (true, true): IMAGO_PNG_GRAY
                case (true, false): IMAGO_PNG_RGB
                case (false, true): IMAGO_PNG_GRAY_ALPHA
                case (false, false): IMAGO_PNG_RGBA
                }
            var output: UnsafeMutablePointer<UInt8>?
            var size = 0
            var message = [CChar](repeating: 0, count: 256)
            let status = profile.withUnsafeBytes { icc in
                imago_png_encode_icc(
                    pixels, width, height, raster.bytesPerRow, layout, Int32(compressionLevel),
                    icc.baseAddress?.assumingMemoryBound(to: UInt8.self), icc.count, &output, &size, &message,
                    message.count)
            }
            guard status == 0, let output else {
                throw CodecFailure.encoding(.png, CodecFailure.reason(message))
            }
            return encodedData(output, count: size)
        }
    }
}
