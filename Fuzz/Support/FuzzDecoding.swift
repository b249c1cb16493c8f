import Foundation
import ImagoCodecs

/// The one body of every decoder fuzzer: any bytes must sniff, decode (full size, then as a scaled first-frame
/// thumbnail, then in strict mode keeping any colour profile) and re-encode to an image or an `ImagoError`, never
/// a crash, hang or sanitizer report. A strict decode may only succeed where the lenient one does, with no warning.
public enum FuzzDecoding {
    /// Limits a server would set: small enough that no input can make the fuzzer run out of memory, so only real
    /// bugs are reported. The limit checks themselves are part of what is fuzzed.
    public static let limits = DecodeLimits(
        maxPixels: 4_000_000, maxTotalPixels: 16_000_000, maxFrames: 500, maxBytes: 1 << 20)
    static let allFrames = DecodeOptions(limits: limits)
    static let thumbnail = DecodeOptions(limits: limits, targetSize: PixelSize(width: 17, height: 9), frames: .first)
    static let strict = DecodeOptions(limits: limits, strict: true, colorProfiles: .keep)

    /// Runs one input through `codec`; returns libFuzzer's "keep going" value.
    public static func run(
        _ codec: some ImageDecoder & ImageEncoder, _ start: UnsafeRawPointer?, _ count: Int
    ) -> CInt {
        let data = start.map { Data(bytes: $0, count: count) } ?? Data()
        _ = codec.canDecode(data.prefix(ImageFormat.sniffLength))
        let lenient = try? codec.decode(data, options: allFrames)
        if let image = lenient {
            precondition(!image.frames.isEmpty && image.frames.allSatisfy { $0.raster.width == image.width })
            _ = try? codec.encode(image)
        }
        if let image = try? codec.decode(data, options: strict) {
            precondition(lenient != nil && image.warnings.isEmpty, "strict mode accepted what lenient mode did not")
            _ = try? codec.encode(image)  // embeds a kept profile
        }
        if let thumbnail = try? codec.decode(data, options: thumbnail) {
            precondition(thumbnail.frames.count == 1 && thumbnail.width > 0 && thumbnail.height > 0)
        }
        return 0
    }
}
