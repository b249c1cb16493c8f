import CHEIF
import Foundation
import ImagoColor
import ImagoCore

extension HEIFCodec {
    /// Reads the container without copying it, checks the primary image's declared size, then decodes it (or the
    /// smallest thumbnail that covers the target) to interleaved RGBA8 with libheif's transformations applied,
    /// converted from the ICC profile (`prof`/`rICC`) as `options.colorProfiles` says. An `nclx` colour box without
    /// a profile is what libheif's YUV to RGB conversion makes of it.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, options: DecodeOptions, threads: Int, usesThumbnails: Bool
    ) throws -> DecodedImage {
        guard let context = heif_context_alloc() else { throw HEIFErrors.decoding("out of memory") }
        defer { heif_context_free(context) }
        heif_context_set_max_decoding_threads(context, Int32(threads))
        var error = heif_context_read_from_memory_without_copy(context, bytes.baseAddress, bytes.count, nil)
        guard error.code == heif_error_Ok else { throw HEIFErrors.decoding("cannot read the file", error) }
        var primary: OpaquePointer?
        error = heif_context_get_primary_image_handle(context, &primary)
        guard error.code == heif_error_Ok, let primary else {
            throw HEIFErrors.decoding("the file has no primary image", error)
        }
        defer { heif_image_handle_release(primary) }
        let width = Int(heif_image_handle_get_width(primary))
        let height = Int(heif_image_handle_get_height(primary))
        try options.limits.check(width: width, height: height, format: .heic)
        let hasAlpha = heif_image_handle_has_alpha_channel(primary) != 0
        let thumbnail = usesThumbnails ? coveringThumbnail(of: primary, width: width, height: height, options) : nil
        defer { thumbnail.map { heif_image_handle_release($0) } }
        // A thumbnail's own profile, else the primary image's (writers give thumbnails the same `colr`).
        let profile = thumbnail.flatMap(iccProfile(of:)) ?? iccProfile(of: primary)
        // libheif expands a monochrome image to r == g == b, whose profile is a grey one.
        let gray = profile.map(ColorManagement.isGrayProfile) ?? false
        let color = try ColorPlan(
            profile: profile, layout: gray ? .grayInRGBA : .rgba, options: options, format: .heic)
        let raster = try decodePixels(thumbnail ?? primary, color: color, limits: options.limits)
        var image = DecodedImage(
            frames: [ImageFrame(raster: raster)], format: .heic, hasAlpha: hasAlpha, encodedSize: bytes.count)
        color.record(on: &image)
        return image
    }

    /// The image as straight-alpha RGBA8 (alpha 255 without an alpha plane), rows copied from libheif's plane,
    /// then converted by `color` in place.
    ///
    /// The limits were checked against the declared size (`ispe`), but libheif 1.15 returns whatever size the
    /// HEVC stream decodes to: a file declaring 64x48 can hold a 1200x1000 picture. So the decoded image must have
    /// the declared size (libheif 1.17 and later refuse such files too) and is checked against the limits again.
    static func decodePixels(_ handle: OpaquePointer, color: ColorPlan, limits: DecodeLimits) throws -> Raster {
        guard let decoding = heif_decoding_options_alloc() else { throw HEIFErrors.decoding("out of memory") }
        defer { heif_decoding_options_free(decoding) }
        decoding.pointee.convert_hdr_to_8bit = 1
        // Read before decoding: libheif 1.15 updates the handle's size to what the stream decoded to.
        let declared = (Int(heif_image_handle_get_width(handle)), Int(heif_image_handle_get_height(handle)))
        var decoded: OpaquePointer?
        let error = heif_decode_image(handle, &decoded, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, decoding)
        guard error.code == heif_error_Ok, let decoded else {
            throw HEIFErrors.decoding("cannot decode the image", error)
        }
        defer { heif_image_release(decoded) }
        let width = Int(heif_image_get_width(decoded, heif_channel_interleaved))
        let height = Int(heif_image_get_height(decoded, heif_channel_interleaved))
        var stride: Int32 = 0
        guard width > 0, height > 0,
            let plane = heif_image_get_plane_readonly(decoded, heif_channel_interleaved, &stride),
            Int(stride) >= width * 4
        else { throw HEIFErrors.decoding("libheif gave no RGBA plane") }
        try limits.check(width: width, height: height, format: .heic)
        guard declared == (width, height) else {
            throw HEIFErrors.decoding(
                "the image decodes to \(width)x\(height) but the file declares \(declared.0)x\(declared.1)")
        }
        return try Raster(width: width, height: height) { buffer in
            let rowBytes = width * 4
            for y in 0..<height {
                UnsafeMutableRawBufferPointer(rebasing: buffer[(y * rowBytes)..<((y + 1) * rowBytes)])
                    .copyMemory(from: UnsafeRawBufferPointer(start: plane + y * Int(stride), count: rowBytes))
            }
            color.apply(to: buffer, width: width, height: height, bytesPerRow: rowBytes)
        }
    }

    /// The smallest thumbnail that still covers `options.targetSize` (and keeps the image's aspect ratio within a
    /// pixel), when there is a target smaller than the image.
    static func coveringThumbnail(
        of primary: OpaquePointer, width: Int, height: Int, _ options: DecodeOptions
    ) -> OpaquePointer? {
        guard let target = options.targetSize, target.width > 0, target.height > 0 else { return nil }
        let count = Int(heif_image_handle_get_number_of_thumbnails(primary))
        guard count > 0 else { return nil }
        var ids = [heif_item_id](repeating: 0, count: count)
        let listed = Int(heif_image_handle_get_list_of_thumbnail_IDs(primary, &ids, Int32(count)))
        var best: (handle: OpaquePointer, pixels: Int)?
        for id in ids.prefix(listed) {
            var handle: OpaquePointer?
            guard heif_image_handle_get_thumbnail(primary, id, &handle).code == heif_error_Ok, let handle else {
                continue
            }
            let thumbWidth = Int(heif_image_handle_get_width(handle))
            let thumbHeight = Int(heif_image_handle_get_height(handle))
            let sx = Double(thumbWidth) / Double(target.width)
            let sy = Double(thumbHeight) / Double(target.height)
            let covers = options.contentMode == .fit ? Swift.max(sx, sy) >= 1 : Swift.min(sx, sy) >= 1
            let sameShape = abs(Double(thumbWidth) * Double(height) / Double(width) - Double(thumbHeight)) <= 1
            let pixels = thumbWidth * thumbHeight
            if covers, sameShape, thumbWidth < width, pixels < (best?.pixels ?? Int.max) {
                best.map { heif_image_handle_release($0.handle) }
                best = (handle, pixels)
            } else {
                heif_image_handle_release(handle)
            }
        }
        return best?.handle
    }

    /// The ICC profile (`colr` of type `prof` or `rICC`), when there is one.
    static func iccProfile(of handle: OpaquePointer) -> Data? {
        let type = heif_image_handle_get_color_profile_type(handle)
        guard type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC else { return nil }
        let size = heif_image_handle_get_raw_color_profile_size(handle)
        guard size > 0 else { return nil }
        var profile = Data(count: size)
        let error = profile.withUnsafeMutableBytes { heif_image_handle_get_raw_color_profile(handle, $0.baseAddress) }
        return error.code == heif_error_Ok ? profile : nil
    }
}
