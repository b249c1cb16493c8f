import CAVIF
import Foundation
import ImagoColor
import ImagoCore

extension AVIFCodec {
    /// Parses the container, checks the limits against the declared size and frame count, then decodes each
    /// frame into a pooled raster (libavif's YUV to RGBA conversion, which reduces 10 and 12 bits to 8) and
    /// converts it from the embedded ICC profile as `options.colorProfiles` says, in place. CICP (`nclx`) colour
    /// without a profile is what libavif's conversion makes of it: primaries and transfer are not converted.
    static func decode(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions, threads: Int) throws -> DecodedImage {
        guard let decoder = avifDecoderCreate() else { throw AVIFErrors.decoding("out of memory") }
        defer { avifDecoderDestroy(decoder) }
        decoder.pointee.maxThreads = Int32(threads)
        decoder.pointee.ignoreExif = 1
        decoder.pointee.ignoreXMP = 1
        // As browsers do: accept files from older writers (no `pixi`, no alpha `ispe`); an invalid `clap` is
        // then ignored rather than fatal.
        decoder.pointee.strictFlags = avifStrictFlags(AVIF_STRICT_DISABLED.rawValue)
        // Our limits are checked right after parsing, before any frame is decoded. libavif's frame-count ceiling
        // must be `maxFrames` itself, not lifted: the parse builds a table entry for every sample the file
        // declares, and a 42 KB sequence can declare ten million of them (1.4 GB before our check). Its refusal
        // is reported as `limitExceeded`, as is that of its size ceiling (16384 x 16384 pixels, the most it
        // supports).
        decoder.pointee.imageCountLimit = UInt32(clamping: Swift.max(options.limits.maxFrames, 1))
        // The size ceiling goes down to `maxPixels` too: libavif hands it to dav1d as its frame-size limit, and
        // dav1d allocates the size the AV1 stream states, whatever the `ispe` box said (a 417 B file declaring
        // 64x48 held a 1200x1000 frame).
        let sizeLimit = Swift.min(Swift.max(options.limits.maxPixels, 1), 16384 * 16384)
        decoder.pointee.imageSizeLimit = UInt32(clamping: sizeLimit)
        var result = avifDecoderSetIOMemory(
            decoder, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
        guard result == AVIF_RESULT_OK else { throw AVIFErrors.decoding("cannot read the data", result: result) }
        result = avifDecoderParse(decoder)
        guard result == AVIF_RESULT_OK, let header = decoder.pointee.image else {
            let detail = diagnostic(decoder)
            if detail.contains("imageCountLimit") {
                throw ImagoError(
                    .limitExceeded, "too many frames: more than the limit of \(options.limits.maxFrames)")
            }
            throw AVIFErrors.parsing(result, diagnostic: detail)
        }
        let width = Int(header.pointee.width)
        let height = Int(header.pointee.height)
        let frameCount = Int(decoder.pointee.imageCount)
        let wanted = options.frames == .first ? Swift.min(frameCount, 1) : frameCount
        try options.limits.check(frames: wanted, width: width, height: height, format: .avif)
        guard wanted > 0 else { throw AVIFErrors.decoding("the file has no image") }
        // The `colr` box is read by the parse: the plan is made once, before any pixel.
        let monochrome = header.pointee.yuvFormat == AVIF_PIXEL_FORMAT_YUV400
        let color = try ColorPlan(
            profile: iccProfile(of: header), layout: monochrome ? .grayInRGBA : .rgba, options: options, format: .avif)

        var frames: [ImageFrame] = []
        frames.reserveCapacity(wanted)
        var orientation = ImageOrientation.up
        var crop: avifCropRect?
        while frames.count < wanted {
            result = avifDecoderNextImage(decoder)
            guard result == AVIF_RESULT_OK, let image = decoder.pointee.image else {
                throw AVIFErrors.decoding("frame \(frames.count) is corrupt or truncated", result: result)
            }
            guard Int(image.pointee.width) == width, Int(image.pointee.height) == height else {
                throw AVIFErrors.decoding("frame \(frames.count) changes the size")
            }
            if frames.isEmpty {
                orientation = transformation(of: image.pointee)
                crop = cleanAperture(of: image)
            }
            var raster = try toRGBA(image, color: color)
            if let crop {
                raster = try raster.cropped(
                    x: Int(crop.x), y: Int(crop.y), width: Int(crop.width), height: Int(crop.height))
            }
            let duration = decoder.pointee.imageTiming.duration
            frames.append(ImageFrame(raster: try raster.oriented(orientation), duration: duration))
        }
        if frames.count == 1 { frames[0].duration = 0 }
        var decoded = DecodedImage(
            frames: frames, loopCount: 0, format: .avif, hasAlpha: decoder.pointee.alphaPresent != 0,
            encodedSize: bytes.count)
        color.record(on: &decoded)
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
