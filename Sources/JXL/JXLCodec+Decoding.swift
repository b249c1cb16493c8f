import CJXL
import Foundation
import ImagoCore

extension JXLCodec {
    /// Runs libjxl's event loop over the whole input: basic info (size checked), colour encoding (ICC kept),
    /// then for each frame its header (duration) and its pixels, written straight into a pooled raster.
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
        JxlDecoderCloseInput(decoder)

        var format = JxlPixelFormat(num_channels: 4, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
        var info = JxlBasicInfo()
        var size = (width: 0, height: 0)
        var frames: [ImageFrame] = []
        var duration = 0.0
        var profile: Data?
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
            case JXL_DEC_COLOR_ENCODING:
                profile = iccProfile(decoder)
            case JXL_DEC_FRAME:
                var header = JxlFrameHeader()
                guard JxlDecoderGetFrameHeader(decoder, &header) == JXL_DEC_SUCCESS else {
                    throw JXLErrors.decoding("cannot read frame \(frames.count)'s header")
                }
                duration = seconds(ticks: header.duration, info.animation)
                // Each new frame is checked before its pixels are taken: libjxl cannot count them beforehand.
                try options.limits.check(frames: frames.count + 1, width: size.width, height: size.height, format: .jxl)
            case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                let raster = try decodeFrame(decoder, format: &format, size: size)
                frames.append(ImageFrame(raster: raster, duration: info.have_animation != 0 ? duration : 0))
                if options.frames == .first { return finish(frames, info: info, profile: profile, bytes: bytes) }
            case JXL_DEC_FULL_IMAGE:
                continue
            case JXL_DEC_SUCCESS:
                guard !frames.isEmpty else { throw JXLErrors.decoding("the file has no frame") }
                return finish(frames, info: info, profile: profile, bytes: bytes)
            case JXL_DEC_NEED_MORE_INPUT:
                throw JXLErrors.decoding("the file is truncated")
            default:
                throw JXLErrors.decoding(frames.isEmpty ? "corrupt file" : "frame \(frames.count) is corrupt")
            }
        }
    }

    /// Gives libjxl the raster's memory as the output buffer and runs the decoder until the frame is complete.
    private static func decodeFrame(
        _ decoder: OpaquePointer, format: inout JxlPixelFormat, size: (width: Int, height: Int)
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
                case JXL_DEC_FULL_IMAGE: return
                case JXL_DEC_NEED_MORE_INPUT: throw JXLErrors.decoding("the file is truncated")
                default: throw JXLErrors.decoding("corrupt image data")
                }
            }
        }
    }

    private static func finish(
        _ frames: [ImageFrame], info: JxlBasicInfo, profile: Data?, bytes: UnsafeRawBufferPointer
    ) -> DecodedImage {
        var frames = frames
        let animated = info.have_animation != 0 && frames.count > 1
        if !animated { frames[0].duration = 0 }
        var image = DecodedImage(
            frames: frames, loopCount: animated ? Int(info.animation.num_loops) : 0, format: .jxl,
            hasAlpha: info.alpha_bits > 0, encodedSize: bytes.count)
        image.iccProfile = profile
        return image
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
