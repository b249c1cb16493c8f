import CJXL
import Foundation
import ImagoColor
import ImagoCore

extension JXLCodec {
    /// Runs libjxl's event loop over the whole input: basic info (size checked), colour encoding (the plan for the
    /// profile the pixels come out in), then for each frame its header (duration) and its pixels, written straight
    /// into a pooled raster and converted there as `options.colorProfiles` says.
    static func decode(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws -> DecodedImage {
        guard let decoder = JxlDecoderCreate(nil) else { throw JXLErrors.decoding("out of memory") }
        defer { JxlDecoderDestroy(decoder) }
        let events =
            JXL_DEC_BASIC_INFO.rawValue | JXL_DEC_COLOR_ENCODING.rawValue | JXL_DEC_FRAME.rawValue
            | JXL_DEC_FULL_IMAGE.rawValue
        guard JxlDecoderSubscribeEvents(decoder, Int32(events)) == JXL_DEC_SUCCESS,
            JxlDecoderSetUnpremultiplyAlpha(decoder, 1) == JXL_DEC_SUCCESS,
            JxlDecoderSetInput(decoder, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
                == JXL_DEC_SUCCESS
        else { throw JXLErrors.decoding("cannot start the decoder") }
        // The input is not closed (optional without box events): a closed, truncated input makes libjxl print its
        // own line on stderr beside ours; an open one makes it ask quietly for more, which is reported as truncated.

        var format = JxlPixelFormat(num_channels: 4, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
        var info = JxlBasicInfo()
        var size = (width: 0, height: 0)
        var frames: [ImageFrame] = []
        var duration = 0.0
        var color = ColorPlan.none
        var originalDescription: String?
        while true {
            let status = JxlDecoderProcessInput(decoder)
            switch status {
            case JXL_DEC_BASIC_INFO:
                guard JxlDecoderGetBasicInfo(decoder, &info) == JXL_DEC_SUCCESS else {
                    throw JXLErrors.decoding("cannot read the header")
                }
                // xsize/ysize are before orientation; libjxl hands out the image turned upright.
                let swaps = info.orientation.rawValue >= 5
                size = swaps ? (Int(info.ysize), Int(info.xsize)) : (Int(info.xsize), Int(info.ysize))
                try options.limits.check(width: size.width, height: size.height, format: .jxl)
                if info.have_animation != 0, options.frames == .all {
                    try checkAnimation(bytes, size: size, limits: options.limits)
                }
            case JXL_DEC_COLOR_ENCODING:
                let named = try preferSRGBForXYB(decoder, info: info)
                originalDescription = options.colorProfiles == .ignore ? nil : named
                let profile = iccProfile(decoder)
                color = try ColorPlan(
                    profile: profile, layout: info.num_color_channels == 1 ? .grayInRGBA : .rgba, options: options,
                    format: .jxl)
            case JXL_DEC_FRAME:
                var header = JxlFrameHeader()
                guard JxlDecoderGetFrameHeader(decoder, &header) == JXL_DEC_SUCCESS else {
                    throw JXLErrors.decoding("cannot read frame \(frames.count)'s header")
                }
                duration = seconds(ticks: header.duration, info.animation)
                // Each new frame is checked before its pixels are taken: libjxl cannot count them beforehand.
                try options.limits.check(frames: frames.count + 1, width: size.width, height: size.height, format: .jxl)
            case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                let raster = try decodeFrame(decoder, format: &format, size: size, color: color)
                frames.append(ImageFrame(raster: raster, duration: info.have_animation != 0 ? duration : 0))
                if options.frames == .first {
                    return finish(frames, info: info, color: color, description: originalDescription, bytes: bytes)
                }
            case JXL_DEC_FULL_IMAGE:
                continue
            case JXL_DEC_SUCCESS:
                guard !frames.isEmpty else { throw JXLErrors.decoding("the file has no frame") }
                return finish(frames, info: info, color: color, description: originalDescription, bytes: bytes)
            case JXL_DEC_NEED_MORE_INPUT:
                throw JXLErrors.decoding("the file is truncated")
            default:
                throw JXLErrors.decoding(frames.isEmpty ? "corrupt file" : "frame \(frames.count) is corrupt")
            }
        }
    }

    /// Counts an animation's frames from their headers alone (no event asks for pixels, so libjxl skips their
    /// data) and checks them all against the limits before the first frame is allocated. Checking frame by frame
    /// instead let a 32 KB file decode hundreds of 1000x1000 frames (1.6 GB, half a minute) before the refusal.
    /// A file that ends early stops the count; the decoding pass then reports it.
    private static func checkAnimation(
        _ bytes: UnsafeRawBufferPointer, size: (width: Int, height: Int), limits: DecodeLimits
    ) throws {
        guard let counter = JxlDecoderCreate(nil) else { throw JXLErrors.decoding("out of memory") }
        defer { JxlDecoderDestroy(counter) }
        guard JxlDecoderSubscribeEvents(counter, Int32(JXL_DEC_FRAME.rawValue)) == JXL_DEC_SUCCESS,
            JxlDecoderSetInput(counter, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
                == JXL_DEC_SUCCESS
        else { throw JXLErrors.decoding("cannot start the decoder") }
        // Not closed either (see `decode`): a truncated file ends the count quietly.
        var frames = 0
        while JxlDecoderProcessInput(counter) == JXL_DEC_FRAME {
            frames += 1
            // Frame headers are a few bytes each: stop counting as soon as there are too many.
            if frames > limits.maxFrames { break }
        }
        try limits.check(frames: frames, width: size.width, height: size.height, format: .jxl)
    }

    /// Gives libjxl the raster's memory as the output buffer, runs the decoder until the frame is complete, then
    /// converts the pixels by `color` in place.
    private static func decodeFrame(
        _ decoder: OpaquePointer, format: inout JxlPixelFormat, size: (width: Int, height: Int), color: ColorPlan
    ) throws -> Raster {
        var needed = 0
        guard JxlDecoderImageOutBufferSize(decoder, &format, &needed) == JXL_DEC_SUCCESS,
            needed == size.width * size.height * 4
        else { throw JXLErrors.decoding("unexpected output size") }
        let pixelFormat = format
        return try Raster(width: size.width, height: size.height) { buffer in
            var format = pixelFormat
            guard JxlDecoderSetImageOutBuffer(decoder, &format, buffer.baseAddress, buffer.count) == JXL_DEC_SUCCESS
            else { throw JXLErrors.decoding("cannot set the output buffer") }
            while true {
                switch JxlDecoderProcessInput(decoder) {
                case JXL_DEC_FULL_IMAGE:
                    color.apply(to: buffer, width: size.width, height: size.height, bytesPerRow: size.width * 4)
                    return
                case JXL_DEC_NEED_MORE_INPUT: throw JXLErrors.decoding("the file is truncated")
                default: throw JXLErrors.decoding("corrupt image data")
                }
            }
        }
    }

    /// The decoded image; `description` names the original profile when libjxl rendered the pixels in sRGB.
    private static func finish(
        _ frames: [ImageFrame], info: JxlBasicInfo, color: ColorPlan, description: String?,
        bytes: UnsafeRawBufferPointer
    ) -> DecodedImage {
        var frames = frames
        let animated = info.have_animation != 0 && frames.count > 1
        if !animated { frames[0].duration = 0 }
        var image = DecodedImage(
            frames: frames, loopCount: animated ? Int(info.animation.num_loops) : 0, format: .jxl,
            hasAlpha: info.alpha_bits > 0, encodedSize: bytes.count)
        color.record(on: &image)
        if image.colorProfileDescription == nil { image.colorProfileDescription = description }
        return image
    }

    /// For a lossy (XYB) image with an ICC profile, asks libjxl for sRGB pixels (it would otherwise give linear
    /// sRGB, which 8 bits cannot hold without banding): libjxl renders XYB into sRGB itself, and the original
    /// profile is only named. Returns that profile's description; nil for every other image.
    private static func preferSRGBForXYB(_ decoder: OpaquePointer, info: JxlBasicInfo) throws -> String? {
        var encoding = JxlColorEncoding()
        guard info.uses_original_profile == 0,
            JxlDecoderGetColorAsEncodedProfile(decoder, nil, JXL_COLOR_PROFILE_TARGET_ORIGINAL, &encoding)
                != JXL_DEC_SUCCESS
        else { return nil }
        var sRGB = JxlColorEncoding()
        JxlColorEncodingSetToSRGB(&sRGB, info.num_color_channels == 1 ? 1 : 0)
        guard JxlDecoderSetPreferredColorProfile(decoder, &sRGB) == JXL_DEC_SUCCESS else {
            throw JXLErrors.decoding("cannot ask for sRGB output")
        }
        var size = 0
        guard JxlDecoderGetICCProfileSize(decoder, nil, JXL_COLOR_PROFILE_TARGET_ORIGINAL, &size) == JXL_DEC_SUCCESS,
            size > 0, size < 64 << 20
        else { return nil }
        var original = Data(count: size)
        let status = original.withUnsafeMutableBytes {
            JxlDecoderGetColorAsICCProfile(
                decoder, nil, JXL_COLOR_PROFILE_TARGET_ORIGINAL, $0.baseAddress?.assumingMemoryBound(to: UInt8.self),
                size)
        }
        return status == JXL_DEC_SUCCESS ? ColorManagement.profileDescription(original) : nil
    }

    private static func seconds(ticks: UInt32, _ animation: JxlAnimationHeader) -> Double {
        guard animation.tps_numerator > 0 else { return 0 }
        return Double(ticks) * Double(animation.tps_denominator) / Double(animation.tps_numerator)
    }

    /// The profile the pixels are in, unless it is plain sRGB described by an enumerated colour encoding (what
    /// every file without an embedded profile gets; libjxl would synthesise an ICC for it).
    private static func iccProfile(_ decoder: OpaquePointer) -> Data? {
        var encoding = JxlColorEncoding()
        if JxlDecoderGetColorAsEncodedProfile(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &encoding)
            == JXL_DEC_SUCCESS,
            encoding.color_space == JXL_COLOR_SPACE_RGB, encoding.white_point == JXL_WHITE_POINT_D65,
            encoding.primaries == JXL_PRIMARIES_SRGB, encoding.transfer_function == JXL_TRANSFER_FUNCTION_SRGB
        {
            return nil
        }
        var size = 0
        guard JxlDecoderGetICCProfileSize(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &size) == JXL_DEC_SUCCESS,
            size > 0, size < 64 << 20
        else { return nil }
        var profile = Data(count: size)
        let status = profile.withUnsafeMutableBytes {
            JxlDecoderGetColorAsICCProfile(
                decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, $0.baseAddress?.assumingMemoryBound(to: UInt8.self), size)
        }
        return status == JXL_DEC_SUCCESS ? profile : nil
    }
}
