import CJXL
import Foundation
import Imago

/// A 1000x1000 lossy JPEG XL (quality 75, effort 7) decoded by `JXLCodec` against libjxl called directly (RGBA8
/// into a reused buffer), both single-threaded (no parallel runner).
enum JXLDecodeBenchmark {
    static let side = 1000

    static func make() throws -> BenchmarkCase {
        let raster = try Raster(
            width: side, height: side, pixels: SyntheticImage.pixels(width: side, height: side, grain: 12))
        let input = try JXLCodec().encode(
            DecodedImage(raster: raster, format: .jxl), options: EncodeOptions(quality: 75))
        let codec = JXLCodec()
        var buffer = [UInt8](repeating: 0, count: side * side * 4)
        return BenchmarkCase(
            name: "jxl-decode \(side)x\(side) lossy",
            imago: { _ = try codec.decode(input) },
            baseline: { try decodeDirectly(input, into: &buffer) })
    }

    static func decodeDirectly(_ input: Data, into output: inout [UInt8]) throws {
        let failed = ImagoError(.decodingFailed(format: .jxl), "baseline decode failed")
        guard let decoder = JxlDecoderCreate(nil) else { throw failed }
        defer { JxlDecoderDestroy(decoder) }
        _ = JxlDecoderSubscribeEvents(decoder, Int32(JXL_DEC_FULL_IMAGE.rawValue))
        var format = JxlPixelFormat(num_channels: 4, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
        try input.withUnsafeBytes { bytes in
            _ = JxlDecoderSetInput(decoder, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count)
            JxlDecoderCloseInput(decoder)
            try output.withUnsafeMutableBytes { pixels in
                while true {
                    switch JxlDecoderProcessInput(decoder) {
                    case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                        guard
                            JxlDecoderSetImageOutBuffer(decoder, &format, pixels.baseAddress, pixels.count)
                                == JXL_DEC_SUCCESS
                        else { throw failed }
                    case JXL_DEC_FULL_IMAGE: return
                    default: throw failed
                    }
                }
            }
        }
    }
}
