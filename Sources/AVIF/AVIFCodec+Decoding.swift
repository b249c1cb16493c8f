import CAVIF
import Foundation
import ImagoColor
import ImagoCore

extension AVIFCodec {
    /// Decodes every frame (or the first) through an `AVIFFrameSource`, checking the declared frame count against
    /// the limits before the first frame is decoded.
    static func decode(_ data: Data, options: DecodeOptions, threads: Int) throws -> DecodedImage {
        let source = try AVIFFrameSource(data, options: options, threads: threads)
        let wanted = options.frames == .first ? Swift.min(source.frameCount, 1) : source.frameCount
        try options.limits.check(
            frames: wanted, width: source.declaredSize.width, height: source.declaredSize.height, format: .avif)
        var frames: [ImageFrame] = []
        frames.reserveCapacity(wanted)
        while frames.count < wanted {
            guard let frame = try source.nextFrame() else {
                throw AVIFErrors.decoding("frame \(frames.count) is corrupt or truncated")
            }
            frames.append(frame)
        }
        if frames.count == 1 { frames[0].duration = 0 }
        var decoded = DecodedImage(
            frames: frames, loopCount: 0, format: .avif, hasAlpha: source.hasAlpha, encodedSize: data.count)
        source.record(on: &decoded)
        return decoded
    }

    /// The embedded ICC profile, nil without one.
    static func iccProfile(of image: UnsafeMutablePointer<avifImage>) -> Data? {
        let icc = image.pointee.icc
        guard icc.size > 0, let bytes = icc.data else { return nil }
        return Data(bytes: bytes, count: icc.size)
    }

    /// One frame converted to straight-alpha RGBA8 (opaque when the file has no alpha plane), then by `color`.
    static func toRGBA(_ image: UnsafeMutablePointer<avifImage>, color: ColorPlan) throws -> Raster {
        let width = Int(image.pointee.width)
        let height = Int(image.pointee.height)
        return try Raster(width: width, height: height) { buffer in
            var rgb = avifRGBImage()
            avifRGBImageSetDefaults(&rgb, image)
            rgb.format = AVIF_RGB_FORMAT_RGBA
            rgb.depth = 8
            rgb.alphaPremultiplied = 0
            rgb.pixels = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            rgb.rowBytes = UInt32(width * 4)
            let result = avifImageYUVToRGB(image, &rgb)
            guard result == AVIF_RESULT_OK else {
                throw AVIFErrors.decoding("cannot convert the pixels to RGBA", result: result)
            }
            color.apply(to: buffer, width: width, height: height, bytesPerRow: width * 4)
        }
    }

    /// The crop a `clap` box asks for, applied before `irot`/`imir` as libheif does; `nil` without one, or when it
    /// is invalid or keeps the whole image.
    static func cleanAperture(of image: UnsafeMutablePointer<avifImage>) -> avifCropRect? {
        guard image.pointee.transformFlags & AVIF_TRANSFORM_CLAP.rawValue != 0 else { return nil }
        var rect = avifCropRect()
        var diagnostics = avifDiagnostics()
        var clap = image.pointee.clap
        guard
            avifCropRectConvertCleanApertureBox(
                &rect, &clap, image.pointee.width, image.pointee.height, image.pointee.yuvFormat, &diagnostics) != 0,
            rect.width > 0, rect.height > 0, rect.width < image.pointee.width || rect.height < image.pointee.height
        else { return nil }
        return rect
    }

    /// The EXIF orientation equal to the file's `irot` (anticlockwise quarter turns) followed by `imir`
    /// (mode 0 exchanges top and bottom, 1 left and right), the order libavif and libheif write and apply them.
    static func transformation(of image: avifImage) -> ImageOrientation {
        let flags = image.transformFlags
        let turns = flags & AVIF_TRANSFORM_IROT.rawValue != 0 ? Int(image.irot.angle % 4) : 0
        let mirror: Int? = flags & AVIF_TRANSFORM_IMIR.rawValue != 0 ? Int(image.imir.mode) : nil
        let table: [[ImageOrientation]] = [
            // no mirror, top-bottom (0), left-right (1)
            [.up, .downMirrored, .upMirrored],
            [.left, .leftMirrored, .rightMirrored],
            [.down, .upMirrored, .downMirrored],
            [.right, .rightMirrored, .leftMirrored],
        ]
        return table[turns][mirror.map { $0 == 0 ? 1 : 2 } ?? 0]
    }

    /// libavif's detailed reason for the last failure.
    static func diagnostic(_ decoder: UnsafeMutablePointer<avifDecoder>) -> String {
        withUnsafeBytes(of: decoder.pointee.diag.error) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
