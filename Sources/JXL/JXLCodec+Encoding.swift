import CJXL
import Foundation
import ImagoCore

extension JXLCodec {
    /// Encodes `frames` in sRGB, 8 bits, with an alpha channel when some pixel needs it; several frames become an
    /// animation in milliseconds with the image's loop count.
    static func encode(_ image: DecodedImage, frames: [ImageFrame], options: EncodeOptions, effort: Int) throws
        -> Data
    {
        let width = frames[0].raster.width
        let height = frames[0].raster.height
        guard frames.allSatisfy({ $0.raster.width == width && $0.raster.height == height }) else {
            throw JXLErrors.encoding("the frames of an animation must all be \(width)x\(height)")
        }
        guard let encoder = JxlEncoderCreate(nil) else { throw JXLErrors.encoding("out of memory") }
        defer { JxlEncoderDestroy(encoder) }
        let hasAlpha = frames.contains { $0.raster.hasTransparency }
        let animated = frames.count > 1

        var info = JxlBasicInfo()
        JxlEncoderInitBasicInfo(&info)
        info.xsize = UInt32(width)
        info.ysize = UInt32(height)
        info.bits_per_sample = 8
        info.num_color_channels = 3
        info.alpha_bits = hasAlpha ? 8 : 0
        info.num_extra_channels = hasAlpha ? 1 : 0
        info.uses_original_profile = options.lossless ? 1 : 0
        if animated {
            info.have_animation = 1
            info.animation.tps_numerator = 1000
            info.animation.tps_denominator = 1
            info.animation.num_loops = UInt32(clamping: image.loopCount)
        }
        try check(JxlEncoderSetBasicInfo(encoder, &info), encoder, "cannot set the header")
        var color = JxlColorEncoding()
        JxlColorEncodingSetToSRGB(&color, 0)
        try check(JxlEncoderSetColorEncoding(encoder, &color), encoder, "cannot set the colour encoding")

        guard let settings = JxlEncoderFrameSettingsCreate(encoder, nil) else {
            throw JXLErrors.encoding("out of memory")
        }
        try check(
            JxlEncoderFrameSettingsSetOption(settings, JXL_ENC_FRAME_SETTING_EFFORT, Int64(effort)), encoder,
            "invalid effort")
        if options.lossless {
            try check(JxlEncoderSetFrameLossless(settings, 1), encoder, "cannot encode losslessly")
        } else {
            try check(JxlEncoderSetFrameDistance(settings, distance(quality: options.quality)), encoder, "bad quality")
        }
        var format = JxlPixelFormat(
            num_channels: hasAlpha ? 4 : 3, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
        for frame in frames {
            if animated {
                var header = JxlFrameHeader()
                JxlEncoderInitFrameHeader(&header)
                header.duration = UInt32(Swift.max(1, (frame.duration * 1000).rounded()))
                try check(JxlEncoderSetFrameHeader(settings, &header), encoder, "cannot set a frame header")
            }
            var pixels = packed(frame.raster, alpha: hasAlpha)
            let status = pixels.withUnsafeMutableBytes {
                JxlEncoderAddImageFrame(settings, &format, $0.baseAddress, $0.count)
            }
            try check(status, encoder, "cannot add a frame")
        }
        JxlEncoderCloseInput(encoder)
        return try collectOutput(encoder)
    }

    /// cjxl's mapping of a JPEG-like quality to a Butteraugli distance (libjxl 0.7 has no function for it).
    static func distance(quality: Int) -> Float {
        let q = Double(quality)
        let distance = q >= 30 ? 0.1 + (100 - q) * 0.09 : 6.4 + pow(2.5, (30 - q) / 5) / 6.25
        return Float(Swift.min(distance, 25))
    }

    /// Tightly packed RGB or RGBA bytes of the raster.
    private static func packed(_ raster: Raster, alpha: Bool) -> [UInt8] {
        let rgba = raster.pixels
        guard !alpha else { return rgba }
        var rgb = [UInt8](repeating: 0, count: raster.width * raster.height * 3)
        for index in 0..<(raster.width * raster.height) {
            rgb[index * 3] = rgba[index * 4]
            rgb[index * 3 + 1] = rgba[index * 4 + 1]
            rgb[index * 3 + 2] = rgba[index * 4 + 2]
        }
        return rgb
    }

    private static func collectOutput(_ encoder: OpaquePointer) throws -> Data {
        var output = [UInt8](repeating: 0, count: 64 * 1024)
        var written = 0
        while true {
            let status = output.withUnsafeMutableBufferPointer { buffer -> JxlEncoderStatus in
                var next: UnsafeMutablePointer<UInt8>? = buffer.baseAddress! + written
                var available = buffer.count - written
                let status = JxlEncoderProcessOutput(encoder, &next, &available)
                written = buffer.count - available
                return status
            }
            switch status {
            case JXL_ENC_SUCCESS: return Data(output[0..<written])
            case JXL_ENC_NEED_MORE_OUTPUT: output += [UInt8](repeating: 0, count: output.count)
            default: throw JXLErrors.encoding("libjxl failed (error \(JxlEncoderGetError(encoder).rawValue))")
            }
        }
    }

    private static func check(_ status: JxlEncoderStatus, _ encoder: OpaquePointer, _ what: String) throws {
        guard status == JXL_ENC_SUCCESS else {
            throw JXLErrors.encoding("\(what) (error \(JxlEncoderGetError(encoder).rawValue))")
        }
    }
}
