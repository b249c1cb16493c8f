import CAVIF
import Foundation
import Imago

/// A 1000x1000 lossy AVIF (4:2:0, quality 75) decoded by `AVIFCodec` against libavif called directly (parse,
/// decode, YUV to RGBA into a reused buffer), both with one thread.
enum AVIFDecodeBenchmark {
    static let side = 1000

    static func make() throws -> BenchmarkCase {
        let raster = try Raster(
            width: side, height: side, pixels: SyntheticImage.pixels(width: side, height: side, grain: 12))
        let input = try AVIFCodec(speed: 9).encode(
            DecodedImage(raster: raster, format: .avif), options: EncodeOptions(quality: 75))
        let codec = AVIFCodec()
        var buffer = [UInt8](repeating: 0, count: side * side * 4)
        return BenchmarkCase(
            name: "avif-decode \(side)x\(side) lossy",
            imago: { _ = try codec.decode(input) },
            baseline: { try decodeDirectly(input, into: &buffer) })
    }

    static func decodeDirectly(_ input: Data, into output: inout [UInt8]) throws {
        let failed = ImagoError(.decodingFailed(format: .avif), "baseline decode failed")
        guard let decoder = avifDecoderCreate() else { throw failed }
        defer { avifDecoderDestroy(decoder) }
        decoder.pointee.maxThreads = 1
        let result = input.withUnsafeBytes { bytes -> avifResult in
            var result = avifDecoderSetIOMemory(
                decoder, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count)
            if result == AVIF_RESULT_OK { result = avifDecoderParse(decoder) }
            if result == AVIF_RESULT_OK { result = avifDecoderNextImage(decoder) }
            guard result == AVIF_RESULT_OK else { return result }
            return output.withUnsafeMutableBufferPointer { pixels in
                var rgb = avifRGBImage()
                avifRGBImageSetDefaults(&rgb, decoder.pointee.image)
                rgb.format = AVIF_RGB_FORMAT_RGBA
                rgb.depth = 8
                rgb.pixels = pixels.baseAddress
                rgb.rowBytes = UInt32(side * 4)
                return avifImageYUVToRGB(decoder.pointee.image, &rgb)
            }
        }
        guard result == AVIF_RESULT_OK else { throw failed }
    }
}
