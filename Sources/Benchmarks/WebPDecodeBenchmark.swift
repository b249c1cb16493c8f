import CWebP
import Foundation
import Imago

/// A 1000x1000 lossy WebP at quality 75 (the REPORT's input c) decoded by `WebPCodec` against
/// `WebPDecodeRGBAInto` into a reused buffer: the floor the codec should stay within 10% of.
enum WebPDecodeBenchmark {
    static let side = 1000

    /// The input: smooth gradients with some noise, encoded by `WebPCodec`.
    static func makeInput() throws -> Data {
        var generator = GIFWebPTiming.Generator(state: 7)
        var pixels = [UInt8](repeating: 255, count: side * side * 4)
        for y in 0..<side {
            for x in 0..<side {
                let offset = (y * side + x) * 4
                let noise = UInt8(generator.next() % 24)
                pixels[offset] = UInt8((x * 255) / side) &+ noise
                pixels[offset + 1] = UInt8((y * 255) / side)
                pixels[offset + 2] = UInt8(((x + y) * 127) / side) &+ noise / 2
            }
        }
        let raster = try Raster(width: side, height: side, pixels: pixels)
        return try WebPCodec().encode(DecodedImage(raster: raster, format: .webp), options: EncodeOptions(quality: 75))
    }

    static func run(runs: Int = 20) throws -> [GIFWebPTiming.Comparison] {
        let input = try makeInput()
        let codec = WebPCodec()
        var checksum = 0
        var buffer = [UInt8](repeating: 0, count: side * side * 4)
        let full = try GIFWebPTiming.compare(
            "webp decode \(side)x\(side)", runs: runs,
            imago: { checksum &+= Int(try codec.decode(input).raster[5, 5].g) },
            baseline: {
                let done = input.withUnsafeBytes { bytes in
                    buffer.withUnsafeMutableBufferPointer { output in
                        WebPDecodeRGBAInto(
                            bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count, output.baseAddress!,
                            output.count, Int32(side * 4))
                    }
                }
                guard done != nil else { throw ImagoError(.decodingFailed(format: .webp), "baseline decode failed") }
                checksum &+= Int(buffer[5 * 4 + 1])
            })
        // Thumbnail path: a scaled decode covering 250x250, against the library's own scaled decode.
        let target = DecodeOptions(targetSize: PixelSize(width: 250, height: 250))
        var small = [UInt8](repeating: 0, count: 250 * 250 * 4)
        let scaled = try GIFWebPTiming.compare(
            "webp decode \(side)x\(side) scaled to 250x250", runs: runs,
            imago: { checksum &+= Int(try codec.decode(input, options: target).raster[5, 5].g) },
            baseline: {
                try scaledDecode(input, into: &small, side: 250)
                checksum &+= Int(small[5 * 4 + 1])
            })
        if checksum == 42 { print("") }  // keeps the work observable
        return [full, scaled]
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
