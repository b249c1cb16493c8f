import CJPEG
import Foundation
import Imago

/// The thumbnail batch in one process: 20 photo-like 1600x1200 JPEGs each made a 256 px JPEG. Imago's path
/// (`JPEGCodec` thumbnail decode, `ResizeProcessor`, `JPEGCodec` encode) against libjpeg-turbo called directly the
/// way Pillow's draft mode calls it (1/4 scale, fast IDCT, no fancy upsampling) plus a libjpeg encode of a 256x192
/// image: the floor is the C library's share alone, so the ratio is what the resize and the glue cost on top.
enum ThumbnailBatchBenchmark {
    static let count = 20

    static func make() throws -> BenchmarkCase {
        let inputs = try (0..<count).map { _ in try JPEGDecodeBenchmark.input(width: 1600, height: 1200) }
        let box = PixelSize(width: 256, height: 256)
        let codec = JPEGCodec()
        let resize = ResizeProcessor(size: box)
        let options = DecodeOptions(targetSize: box)
        let floor = JPEGBaseline(data: Data(), scaleDenominator: 4, fast: true)
        let thumbnail = [UInt8](repeating: 128, count: 256 * 192 * 4)
        return BenchmarkCase(
            name: "thumbnails \(count)x1600x1200 to 256px",
            imago: {
                for data in inputs {
                    let image = try resize.process(try codec.decode(data, options: options))
                    _ = try codec.encode(image, options: EncodeOptions(quality: 85))
                }
            },
            baseline: {
                for data in inputs {
                    floor.decode(data)
                    _ = JPEGBaseline.encode(thumbnail, width: 256, height: 192, quality: 85)
                }
            })
    }
}

extension JPEGBaseline {
    /// libjpeg's encoder called directly: RGBA rows in, the JPEG's size out.
    static func encode(_ pixels: [UInt8], width: Int, height: Int, quality: Int32) -> Int {
        var cinfo = jpeg_compress_struct()
        var error = jpeg_error_mgr()
        cinfo.err = jpeg_std_error(&error)
        jpeg_CreateCompress(&cinfo, JPEG_LIB_VERSION, MemoryLayout<jpeg_compress_struct>.size)
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        jpeg_mem_dest(&cinfo, &output, &size)
        cinfo.image_width = JDIMENSION(width)
        cinfo.image_height = JDIMENSION(height)
        cinfo.input_components = 4
        cinfo.in_color_space = JCS_EXT_RGBA
        jpeg_set_defaults(&cinfo)
        jpeg_set_quality(&cinfo, quality, 1)
        jpeg_start_compress(&cinfo, 1)
        pixels.withUnsafeBufferPointer { buffer in
            var row: JSAMPROW? = UnsafeMutablePointer(mutating: buffer.baseAddress!)
            while cinfo.next_scanline < cinfo.image_height {
                row = UnsafeMutablePointer(mutating: buffer.baseAddress! + Int(cinfo.next_scanline) * width * 4)
                _ = jpeg_write_scanlines(&cinfo, &row, 1)
            }
        }
        jpeg_finish_compress(&cinfo)
        jpeg_destroy_compress(&cinfo)
        free(output)
        return Int(size)
    }
}
