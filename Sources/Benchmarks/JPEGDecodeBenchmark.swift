import CJPEG
import Foundation
import Imago

/// A 4000x3000 JPEG (quality 85, 4:2:0) decoded to RGBA: `JPEGCodec` against libjpeg-turbo called directly.
enum JPEGDecodeBenchmark {
    static func make() throws -> BenchmarkCase {
        let data = try input(width: 4000, height: 3000)
        let codec = JPEGCodec()
        let floor = JPEGBaseline(data: data, scaleDenominator: 1)
        return BenchmarkCase(
            name: "jpeg-decode 4000x3000 (\(data.count / 1024) KB)",
            imago: { _ = try codec.decode(data) },
            baseline: { floor.decode() })
    }

    /// Encoded with our encoder from a synthetic grainy picture.
    static func input(width: Int, height: Int) throws -> Data {
        let raster = try Raster(
            width: width, height: height, pixels: SyntheticImage.pixels(width: width, height: height, grain: 12))
        return try JPEGCodec().encode(DecodedImage(raster: raster, format: .jpeg), options: EncodeOptions(quality: 85))
    }
}

/// A thumbnail request on the same JPEG: DCT scaling to 1/8 (500x375) against libjpeg-turbo at 1/8.
enum JPEGScaledDecodeBenchmark {
    static func make() throws -> BenchmarkCase {
        let data = try JPEGDecodeBenchmark.input(width: 4000, height: 3000)
        let codec = JPEGCodec()
        let options = DecodeOptions(targetSize: PixelSize(width: 500, height: 375))
        let floor = JPEGBaseline(data: data, scaleDenominator: 8)
        return BenchmarkCase(
            name: "jpeg-decode 4000x3000 at 1/8",
            imago: { _ = try codec.decode(data, options: options) },
            baseline: { floor.decode() })
    }
}

/// libjpeg-turbo called straight from Swift: RGBA out, into one buffer reused across runs. Inputs are valid,
/// so the default error handler (which exits) never fires.
final class JPEGBaseline {
    let data: Data
    let scaleDenominator: UInt32
    /// Pillow's draft mode: fast integer IDCT, no fancy upsampling.
    let fast: Bool
    var buffer: [UInt8] = []

    init(data: Data, scaleDenominator: UInt32, fast: Bool = false) {
        self.data = data
        self.scaleDenominator = scaleDenominator
        self.fast = fast
    }

    func decode() { decode(data) }

    func decode(_ data: Data) {
        var cinfo = jpeg_decompress_struct()
        var error = jpeg_error_mgr()
        cinfo.err = jpeg_std_error(&error)
        jpeg_CreateDecompress(&cinfo, JPEG_LIB_VERSION, MemoryLayout<jpeg_decompress_struct>.size)
        data.withUnsafeBytes { bytes in
            jpeg_mem_src(&cinfo, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt(bytes.count))
            _ = jpeg_read_header(&cinfo, 1)
            cinfo.out_color_space = JCS_EXT_RGBA
            cinfo.scale_num = 1
            cinfo.scale_denom = scaleDenominator
            if fast {
                cinfo.dct_method = JDCT_IFAST
                cinfo.do_fancy_upsampling = 0
            }
            _ = jpeg_start_decompress(&cinfo)
            let stride = Int(cinfo.output_width) * 4
            let count = stride * Int(cinfo.output_height)
            if buffer.count < count { buffer = [UInt8](repeating: 0, count: count) }
            buffer.withUnsafeMutableBufferPointer { pixels in
                var row: JSAMPROW? = nil
                while cinfo.output_scanline < cinfo.output_height {
                    row = pixels.baseAddress! + Int(cinfo.output_scanline) * stride
                    _ = jpeg_read_scanlines(&cinfo, &row, 1)
                }
            }
            _ = jpeg_finish_decompress(&cinfo)
        }
        jpeg_destroy_decompress(&cinfo)
    }
}
