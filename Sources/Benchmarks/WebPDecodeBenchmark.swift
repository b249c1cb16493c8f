import CWebP
import Foundation
import Imago

/// A 1000x1000 lossy WebP at quality 75 (the REPORT's input c) decoded by `WebPCodec` against
/// `WebPDecodeRGBAInto` into a reused buffer: the floor the codec should stay within 10% of.
enum WebPDecodeBenchmark {
    static let side = 1000

    /// The input: the shared synthetic gradient with grain, encoded by `WebPCodec` at quality 75.
    static func makeInput() throws -> Data {
        let raster = try Raster(
            width: side, height: side, pixels: SyntheticImage.pixels(width: side, height: side, grain: 12))
        return try WebPCodec().encode(DecodedImage(raster: raster, format: .webp), options: EncodeOptions(quality: 75))
    }

    static func make() throws -> BenchmarkCase {
        let input = try makeInput()
        let codec = WebPCodec()
        var buffer = [UInt8](repeating: 0, count: side * side * 4)
        return BenchmarkCase(
            name: "webp-decode \(side)x\(side) lossy",
            imago: { _ = try codec.decode(input) },
            baseline: {
                let done = input.withUnsafeBytes { bytes in
                    buffer.withUnsafeMutableBufferPointer { output in
                        WebPDecodeRGBAInto(
                            bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count, output.baseAddress!,
                            output.count, Int32(side * 4))
                    }
                }
                guard done != nil else { throw ImagoError(.decodingFailed(format: .webp), "baseline decode failed") }
            })
    }

    /// The thumbnail path: a scaled decode covering 250x250, against the library's own scaled decode.
    static func makeScaled() throws -> BenchmarkCase {
        let input = try makeInput()
        let codec = WebPCodec()
        let target = DecodeOptions(targetSize: PixelSize(width: 250, height: 250))
        var small = [UInt8](repeating: 0, count: 250 * 250 * 4)
        return BenchmarkCase(
            name: "webp-decode \(side)x\(side) to 250x250",
            imago: { _ = try codec.decode(input, options: target) },
            baseline: { try scaledDecode(input, into: &small, side: 250) })
    }

    static func scaledDecode(_ input: Data, into output: inout [UInt8], side: Int) throws {
        var config = WebPDecoderConfig()
        _ = WebPInitDecoderConfig(&config)
        config.options.use_scaling = 1
        config.options.scaled_width = Int32(side)
        config.options.scaled_height = Int32(side)
        let status = input.withUnsafeBytes { bytes in
            output.withUnsafeMutableBufferPointer { pixels in
                config.output.colorspace = MODE_RGBA
                config.output.is_external_memory = 1
                config.output.u.RGBA.rgba = pixels.baseAddress
                config.output.u.RGBA.stride = Int32(side * 4)
                config.output.u.RGBA.size = pixels.count
                return WebPDecode(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count, &config)
            }
        }
        guard status == VP8_STATUS_OK else { throw ImagoError(.decodingFailed(format: .webp), "scaled baseline") }
    }
}
