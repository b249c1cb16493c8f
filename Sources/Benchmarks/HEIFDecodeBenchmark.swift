import CHEIF
import Foundation
import Imago

/// A 1000x1000 HEIC (x265 at quality 75) decoded by `HEIFCodec` against libheif called directly (read, decode to
/// interleaved RGBA in libheif's own image), both with one decoding thread.
enum HEIFDecodeBenchmark {
    static let side = 1000

    static func make() throws -> BenchmarkCase {
        let raster = try Raster(
            width: side, height: side, pixels: SyntheticImage.pixels(width: side, height: side, grain: 12))
        let input = try HEIFCodec(speed: 8).encode(
            DecodedImage(raster: raster, format: .heic), options: EncodeOptions(quality: 75))
        let codec = HEIFCodec()
        return BenchmarkCase(
            name: "heic-decode \(side)x\(side) lossy",
            imago: { _ = try codec.decode(input) },
            baseline: { try decodeDirectly(input) })
    }

    static func decodeDirectly(_ input: Data) throws {
        let failed = ImagoError(.decodingFailed(format: .heic), "baseline decode failed")
        guard let context = heif_context_alloc() else { throw failed }
        defer { heif_context_free(context) }
        heif_context_set_max_decoding_threads(context, 1)
        try input.withUnsafeBytes { bytes in
            guard
                heif_context_read_from_memory_without_copy(context, bytes.baseAddress, bytes.count, nil).code
                    == heif_error_Ok
            else { throw failed }
            var handle: OpaquePointer?
            guard heif_context_get_primary_image_handle(context, &handle).code == heif_error_Ok, let handle else {
                throw failed
            }
            defer { heif_image_handle_release(handle) }
            var image: OpaquePointer?
            guard
                heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, nil).code
                    == heif_error_Ok, let image
            else { throw failed }
            heif_image_release(image)
        }
    }
}
