import Foundation
import ImagoCodecs

/// Options for the fuzzer. Static, not top-level, because libFuzzer owns `main` and top-level code never runs.
enum FuzzOptions {
    /// Limits a server would set: small enough that no input can make the fuzzer run out of memory, so only real
    /// bugs (crashes, hangs, leaks, sanitizer reports) are reported.
    static let limits = DecodeLimits(
        maxPixels: 4_000_000, maxTotalPixels: 16_000_000, maxFrames: 500, maxBytes: 1 << 20)
    static let allFrames = DecodeOptions(limits: limits)
    /// The thumbnail path: first frame only, scaled where the codec can.
    static let thumbnail = DecodeOptions(limits: limits, targetSize: PixelSize(width: 17, height: 9), frames: .first)
}

/// libFuzzer entry: sniffing and decoding must throw or succeed, never crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebP(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    let codec = WebPCodec()
    _ = codec.canDecode(data.prefix(ImageFormat.sniffLength))
    if let image = try? codec.decode(data, options: FuzzOptions.allFrames) {
        precondition(!image.frames.isEmpty && image.frames.allSatisfy { $0.raster.width == image.width })
    }
    _ = try? codec.decode(data, options: FuzzOptions.thumbnail)
    return 0
}
