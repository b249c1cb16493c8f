import CPNG
import Foundation
import Imago

/// A 2000x2000 grainy RGB PNG decoded to RGBA: `PNGCodec` against libpng's simplified API called directly.
enum PNGDecodeBenchmark {
    static func make() throws -> BenchmarkCase {
        let width = 2000
        let height = 2000
        // Opaque, so our encoder writes RGB (as the reference input is); the grain makes it hard to compress.
        let raster = try Raster(
            width: width, height: height, pixels: SyntheticImage.pixels(width: width, height: height, grain: 40))
        let data = try PNGCodec().encode(DecodedImage(raster: raster, format: .png))
        let codec = PNGCodec()
        let floor = PNGBaseline(data: data)
        return BenchmarkCase(
            name: "png-decode 2000x2000 RGB (\(data.count / 1024) KB)",
            imago: { _ = try codec.decode(data) },
            baseline: { try floor.decode() })
    }
}

/// libpng's `png_image_*` API (no setjmp needed) into one RGBA buffer reused across runs.
final class PNGBaseline {
    let data: Data
    var buffer: [UInt8] = []

    init(data: Data) { self.data = data }

    func decode() throws {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        let ok = data.withUnsafeBytes { bytes -> Bool in
            guard png_image_begin_read_from_memory(&image, bytes.baseAddress, bytes.count) != 0 else { return false }
            image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
            let count = Int(image.width) * Int(image.height) * 4
            if buffer.count < count { buffer = [UInt8](repeating: 0, count: count) }
            return buffer.withUnsafeMutableBytes {
                png_image_finish_read(&image, nil, $0.baseAddress, 0, nil) != 0
            }
        }
        png_image_free(&image)
        if !ok { throw ImagoError(.decodingFailed(format: .png), "baseline: libpng refused the input") }
    }
}
