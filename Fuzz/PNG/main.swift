import Foundation
import ImagoCodecs

/// libFuzzer entry: any bytes through the PNG decoder must give an image or an `ImagoError`, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    // A smaller pixel limit keeps each run fast; the limit check itself is part of what is fuzzed.
    let options = DecodeOptions(limits: DecodeLimits(maxPixels: 4_000_000))
    let codec = PNGCodec()
    if codec.canDecode(data.prefix(ImageFormat.sniffLength)), let image = try? codec.decode(data, options: options) {
        precondition(image.raster.width > 0 && image.raster.height > 0)
        _ = try? codec.encode(image)
    }
    return 0
}
