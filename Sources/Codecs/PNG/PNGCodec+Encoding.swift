import CImagoShim
import Foundation
import ImagoColor
import ImagoCore

extension PNGCodec {
    /// Encodes the first frame losslessly as 8-bit PNG, in the smallest layout that keeps every pixel:
    /// grey or RGB when the image is opaque, grey+alpha or RGBA otherwise. A kept ICC profile
    /// (`DecodedImage.iccProfile`) is embedded as `iCCP`: an RGB one in an RGB or RGBA layout, a grey one in a
    /// grey layout (a grey-profiled image whose pixels are not grey is converted to sRGB first).
    public func encode(_ image: DecodedImage, options: EncodeOptions) throws -> Data {
        let (image, grayProfile) = try ColorManagement.keepingGrayProfile(image) { Self.analyze($0).gray }
        let (opaque, gray) = Self.analyze(image.raster)
        let raster = image.raster
        let profile = image.iccProfile ?? Data()
        return try raster.withUnsafeBytes { buffer in
            let pixels = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let layout: imago_png_layout =
                switch (opaque, gray && (profile.isEmpty || grayProfile)) {
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
                    pixels, UInt32(raster.width), UInt32(raster.height), raster.bytesPerRow, layout,
                    Int32(compressionLevel), strategy == .runLength ? 1 : 0,
                    icc.baseAddress?.assumingMemoryBound(to: UInt8.self), icc.count, &output, &size, &message,
                    message.count)
            }
            guard status == 0, let output else {
                throw CodecFailure.encoding(.png, CodecFailure.reason(message))
            }
            return encodedData(output, count: size)
        }
    }

    /// Whether every pixel is opaque, and whether every pixel is grey (r == g == b).
    static func analyze(_ raster: Raster) -> (opaque: Bool, gray: Bool) {
        raster.withUnsafeBytes { buffer in
            var opaque: Int32 = 0
            var gray: Int32 = 0
            imago_shim_rgba_analyze(
                buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt32(raster.width), UInt32(raster.height),
                raster.bytesPerRow, &opaque, &gray)
            return (opaque != 0, gray != 0)
        }
    }
}
