import Foundation
import ImagoCodecs

/// libFuzzer entry: any bytes through the JPEG decoder (full size, then DCT-scaled) must give an image or an
/// `ImagoError`, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let codec = JPEGCodec()
    let limits = DecodeLimits(maxPixels: 4_000_000)
    guard codec.canDecode(data.prefix(ImageFormat.sniffLength)) else { return 0 }
    if let image = try? codec.decode(data, options: DecodeOptions(limits: limits)) {
        precondition(image.raster.width > 0 && image.raster.height > 0)
    }
    let thumbnail = DecodeOptions(limits: limits, targetSize: PixelSize(width: 16, height: 16))
    _ = try? codec.decode(data, options: thumbnail)
    return 0
}
