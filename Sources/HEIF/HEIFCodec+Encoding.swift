import CHEIF
import Foundation
import ImagoCore

extension HEIFCodec {
    /// x265's presets, slowest first, indexed by `speed`.
    static let presets = [
        "placebo", "veryslow", "slower", "slow", "medium", "fast", "faster", "veryfast", "superfast", "ultrafast",
    ]

    /// Encodes one raster through x265: lossy at `options.quality` (4:2:0), or lossless (4:4:4 with the identity
    /// matrix, so RGB survives exactly). The alpha plane is written only when some pixel needs it.
    static func encode(_ raster: Raster, options: EncodeOptions, speed: Int) throws -> Data {
        guard let context = heif_context_alloc() else { throw HEIFErrors.encoding("out of memory") }
        defer { heif_context_free(context) }
        var encoder: OpaquePointer?
        var error = heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder)
        guard error.code == heif_error_Ok, let encoder else { throw HEIFErrors.encoding("no HEVC encoder", error) }
        defer { heif_encoder_release(encoder) }
        _ = heif_encoder_set_parameter_string(encoder, "preset", presets[speed])
        if options.lossless {
            error = heif_encoder_set_lossless(encoder, 1)
            if error.code == heif_error_Ok { error = heif_encoder_set_parameter_string(encoder, "chroma", "444") }
        } else {
            error = heif_encoder_set_lossy_quality(encoder, Int32(options.quality))
        }
        guard error.code == heif_error_Ok else { throw HEIFErrors.encoding("invalid encoder settings", error) }

        let hasAlpha = raster.hasTransparency
        let image = try makeImage(raster, hasAlpha: hasAlpha)
        defer { heif_image_release(image) }
        guard let encoding = heif_encoding_options_alloc() else { throw HEIFErrors.encoding("out of memory") }
        defer { heif_encoding_options_free(encoding) }
        encoding.pointee.save_alpha_channel = hasAlpha ? 1 : 0
        let nclx = heif_nclx_color_profile_alloc()
        defer { heif_nclx_color_profile_free(nclx) }
        if options.lossless, let nclx {
            nclx.pointee.matrix_coefficients = heif_matrix_coefficients_RGB_GBR
            nclx.pointee.full_range_flag = 1
            encoding.pointee.output_nclx_profile = nclx
        }
        error = heif_context_encode_image(context, image, encoder, encoding, nil)
        guard error.code == heif_error_Ok else { throw HEIFErrors.encoding("cannot encode the image", error) }
        return try write(context)
    }

    private static func makeImage(_ raster: Raster, hasAlpha: Bool) throws -> OpaquePointer {
        var image: OpaquePointer?
        let chroma = hasAlpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB
        var error = heif_image_create(Int32(raster.width), Int32(raster.height), heif_colorspace_RGB, chroma, &image)
        guard error.code == heif_error_Ok, let image else { throw HEIFErrors.encoding("cannot make the image", error) }
        error = heif_image_add_plane(image, heif_channel_interleaved, Int32(raster.width), Int32(raster.height), 8)
        var stride: Int32 = 0
        guard error.code == heif_error_Ok, let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride)
        else {
            heif_image_release(image)
            throw HEIFErrors.encoding("cannot allocate \(raster.width)x\(raster.height)", error)
        }
        let channels = hasAlpha ? 4 : 3
        raster.withUnsafeBytes { source in
            for y in 0..<raster.height {
                let from = source.baseAddress! + y * raster.bytesPerRow
                let to = plane + y * Int(stride)
                let pixels = from.assumingMemoryBound(to: UInt8.self)
                if hasAlpha {
                    to.update(from: pixels, count: raster.width * 4)
                } else {
                    for x in 0..<raster.width {
                        for channel in 0..<3 { to[x * channels + channel] = pixels[x * 4 + channel] }
                    }
                }
            }
        }
        return image
    }

    /// The file libheif writes, collected through its writer callback.
    private static func write(_ context: OpaquePointer) throws -> Data {
        final class Sink { var data = Data() }
        let sink = Sink()
        var writer = heif_writer()
        writer.writer_api_version = 1
        writer.write = { _, bytes, size, userData in
            let sink = Unmanaged<Sink>.fromOpaque(userData!).takeUnretainedValue()
            if let bytes, size > 0 { sink.data.append(bytes.assumingMemoryBound(to: UInt8.self), count: size) }
            // A static string, so the message outlives the call.
            let message = UnsafeRawPointer(("Success" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
            return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: message)
        }
        let error = withExtendedLifetime(sink) {
            heif_context_write(context, &writer, Unmanaged.passUnretained(sink).toOpaque())
        }
        guard error.code == heif_error_Ok else { throw HEIFErrors.encoding("cannot write the file", error) }
        return sink.data
    }
}
