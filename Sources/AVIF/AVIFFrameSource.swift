import CAVIF
import Foundation
import ImagoColor
import ImagoCore

/// An AVIF image or image sequence, frame by frame: the one reader of AVIF files, used by `decode` for every frame
/// and by `makeFrameSource` on demand.
///
/// It parses the container and checks the limits against the declared size first; each frame is then decoded into
/// a pooled raster (libavif's YUV to RGBA conversion, which reduces 10 and 12 bits to 8) and converted from the
/// embedded ICC profile as `options.colorProfiles` says, in place. CICP (`nclx`) colour without a profile is what
/// libavif's conversion makes of it: primaries and transfer are not converted.
final class AVIFFrameSource: AnimationFrameSource {
    private let bytes: UnsafeMutableRawBufferPointer
    private let decoder: UnsafeMutablePointer<avifDecoder>
    private let color: ColorPlan
    private var framesInLoop = 0
    /// The `irot`/`imir` transformation, which frames are given with (so the protocol's `orientation` is `.up`).
    private var transformation = ImageOrientation.up
    private var crop: avifCropRect?
    /// The size the header declares (every frame must have it); frames come out cropped and oriented.
    let declaredSize: PixelSize
    let frameCount: Int
    let hasAlpha: Bool
    private(set) var warnings: [String] = []
    /// AVIF sequences hold no loop count: they play forever, as browsers play them.
    var loopCount: Int { 0 }
    /// The sequence's duration in seconds, as the parse read it (no frame decoded).
    var totalDuration: Double { decoder.pointee.duration }
    var canvasSize: PixelSize {
        let cropped = crop.map { PixelSize(width: Int($0.width), height: Int($0.height)) } ?? declaredSize
        return transformation.swapsDimensions ? PixelSize(width: cropped.height, height: cropped.width) : cropped
    }

    /// Opens `data` after checking the byte limit and the `ftyp` brand, loading libavif on first use.
    init(_ data: Data, options: DecodeOptions, threads: Int) throws {
        try options.limits.check(byteCount: data.count)
        guard AVIFCodec.isAVIF(data.prefix(ImageFormat.sniffLength)) else {
            throw AVIFErrors.decoding("not an AVIF file (no avif/avis brand in ftyp)")
        }
        try AVIFLibrary.load(or: .decodingFailed(format: .avif))
        guard let decoder = avifDecoderCreate() else { throw AVIFErrors.decoding("out of memory") }
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 1)
        data.withUnsafeBytes { copy.copyMemory(from: $0) }
        do {
            decoder.pointee.maxThreads = Int32(threads)
            decoder.pointee.ignoreExif = 1
            decoder.pointee.ignoreXMP = 1
            // As browsers do: accept files from older writers (no `pixi`, no alpha `ispe`); an invalid `clap` is
            // then ignored rather than fatal.
            decoder.pointee.strictFlags = avifStrictFlags(AVIF_STRICT_DISABLED.rawValue)
            // Our limits are checked right after parsing, before any frame is decoded. libavif's frame-count
            // ceiling must be `maxFrames` itself, not lifted: the parse builds a table entry for every sample the
            // file declares, and a 42 KB sequence can declare ten million of them (1.4 GB before our check). Its
            // refusal is reported as `limitExceeded`, as is that of its size ceiling (16384 x 16384 pixels, the
            // most it supports).
            decoder.pointee.imageCountLimit = UInt32(clamping: Swift.max(options.limits.maxFrames, 1))
            // The size ceiling goes down to `maxPixels` too: libavif hands it to dav1d as its frame-size limit,
            // and dav1d allocates the size the AV1 stream states, whatever the `ispe` box said (a 417 B file
            // declaring 64x48 held a 1200x1000 frame).
            let sizeLimit = Swift.min(Swift.max(options.limits.maxPixels, 1), 16384 * 16384)
            decoder.pointee.imageSizeLimit = UInt32(clamping: sizeLimit)
            var result = avifDecoderSetIOMemory(
                decoder, copy.baseAddress?.assumingMemoryBound(to: UInt8.self), data.count)
            guard result == AVIF_RESULT_OK else {
                throw AVIFErrors.decoding("cannot read the data", result: result)
            }
            result = avifDecoderParse(decoder)
            guard result == AVIF_RESULT_OK, let header = decoder.pointee.image else {
                let detail = AVIFCodec.diagnostic(decoder)
                if detail.contains("imageCountLimit") {
                    throw ImagoError(
                        .limitExceeded, "too many frames: more than the limit of \(options.limits.maxFrames)")
                }
                throw AVIFErrors.parsing(result, diagnostic: detail)
            }
            declaredSize = PixelSize(width: Int(header.pointee.width), height: Int(header.pointee.height))
            frameCount = Int(decoder.pointee.imageCount)
            try options.limits.check(width: declaredSize.width, height: declaredSize.height, format: .avif)
            guard frameCount > 0 else { throw AVIFErrors.decoding("the file has no image") }
            // The `colr` box is read by the parse: the plan is made once, before any pixel.
            let monochrome = header.pointee.yuvFormat == AVIF_PIXEL_FORMAT_YUV400
            color = try ColorPlan(
                profile: AVIFCodec.iccProfile(of: header), layout: monochrome ? .grayInRGBA : .rgba, options: options,
                format: .avif)
            hasAlpha = decoder.pointee.alphaPresent != 0
        } catch {
            avifDecoderDestroy(decoder)
            copy.deallocate()
            throw error
        }
        self.decoder = decoder
        self.bytes = copy
    }

    deinit {
        avifDecoderDestroy(decoder)
        bytes.deallocate()
    }

    /// The profile's outcome (kept profile, description, warnings), for a decode to record on its image.
    func record(on image: inout DecodedImage) { color.record(on: &image) }

    func nextFrame() throws -> ImageFrame? {
        guard framesInLoop < frameCount else { return nil }
        let result = avifDecoderNextImage(decoder)
        guard result == AVIF_RESULT_OK, let image = decoder.pointee.image else {
            let error = AVIFErrors.decoding("frame \(framesInLoop) is corrupt or truncated", result: result)
            guard framesInLoop > 0 else { throw error }
            framesInLoop = frameCount
            if !warnings.contains(error.reason) { warnings.append(error.reason) }
            return nil
        }
        guard Int(image.pointee.width) == declaredSize.width, Int(image.pointee.height) == declaredSize.height else {
            throw AVIFErrors.decoding("frame \(framesInLoop) changes the size")
        }
        if framesInLoop == 0 {
            transformation = AVIFCodec.transformation(of: image.pointee)
            crop = AVIFCodec.cleanAperture(of: image)
        }
        var raster = try AVIFCodec.toRGBA(image, color: color)
        if let crop {
            raster = try raster.cropped(
                x: Int(crop.x), y: Int(crop.y), width: Int(crop.width), height: Int(crop.height))
        }
        framesInLoop += 1
        return ImageFrame(raster: try raster.oriented(transformation), duration: decoder.pointee.imageTiming.duration)
    }

    func rewind() throws {
        let result = avifDecoderReset(decoder)
        guard result == AVIF_RESULT_OK else { throw AVIFErrors.decoding("cannot restart the sequence", result: result) }
        framesInLoop = 0
    }
}
