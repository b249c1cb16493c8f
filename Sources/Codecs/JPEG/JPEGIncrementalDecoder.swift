import CImagoShim
import Foundation
import ImagoCore

extension JPEGCodec: IncrementalImageDecoding {
    /// An incremental decoder with this codec's decoding parameters.
    public func makeIncrementalDecoder(options: DecodeOptions) -> any IncrementalImageDecoder {
        JPEGIncrementalDecoder(codec: self, options: options)
    }
}

/// A JPEG decoded as its bytes arrive, with libjpeg-turbo's buffered-image mode (see imago_jpeg_incremental.h).
///
/// Progressive files give a preview per scan received in full, rendered from the one coefficient buffer with the
/// fast integer IDCT; no byte is decoded twice. The final pass uses `JPEGCodec`'s parameters (scale, IDCT, RGBA
/// output), so the final image is the one-shot decode's, pixel for pixel.
///
/// The embedded ICC profile is handled as `JPEGCodec` does (the same `ColorPlan`), on previews too.
///
/// Baseline files, CMYK and YCCK give no previews (`offersPreviews` is `false` after the header): their bytes
/// are kept and decoded in one shot by `finish()`. A top-down partial of a baseline file adds rows, not detail,
/// and each one would cost a full output pass. So do files with an unusable profile. Any libjpeg warning fails
/// the incremental decode: such files are for the one-shot decoder, which keeps the warnings.
public final class JPEGIncrementalDecoder: IncrementalImageDecoder {
    private let codec: JPEGCodec
    private let options: DecodeOptions
    private let decoder: OpaquePointer?
    private var byteCount = 0
    /// Every byte, while previews are undecided or ruled out (then `finish` decodes them in one shot).
    private var kept: Data? = Data()
    private var orientation: ImageOrientation = .up
    private var outputSize: (width: Int, height: Int)?
    /// `Raster.extent` of the scaled decode, as `JPEGCodec.decode` sets it.
    private var extent: (width: Double, height: Double)?
    private var decidedPreviews: Bool?
    private var color = ColorPlan.none

    /// Creates a decoder for one image.
    public init(codec: JPEGCodec = JPEGCodec(), options: DecodeOptions = .default) {
        self.codec = codec
        self.options = options
        self.decoder = imago_jpeg_incremental_create()
    }

    deinit { imago_jpeg_incremental_destroy(decoder) }

    /// Incremental JPEG decoders alive in this process (tests check that cancelled loads free theirs).
    public static var liveCount: Int { Int(imago_jpeg_incremental_live_count()) }

    public func append(_ bytes: Data) throws -> IncrementalDecodeProgress {
        try feed(bytes, endOfData: false)
        return progress
    }

    public func makePreview() throws -> DecodedImage? {
        guard let decoder, decidedPreviews == true, let size = outputSize else { return nil }
        var state = imago_jpeg_incremental_state()
        imago_jpeg_incremental_get_state(decoder, &state)
        guard state.completed_scans >= 1, state.input_complete == 0 else { return nil }
        return try render(decoder, size: size, final: false)
    }

    public func finish() throws -> DecodedImage {
        if let kept, decidedPreviews != true {
            return try codec.decode(kept, options: options)
        }
        guard let decoder, let size = outputSize else { throw CodecFailure.decoding(.jpeg, "no image") }
        try feed(Data(), endOfData: true)
        return try render(decoder, size: size, final: true)
    }

    private var progress: IncrementalDecodeProgress {
        var state = imago_jpeg_incremental_state()
        if let decoder { imago_jpeg_incremental_get_state(decoder, &state) }
        return IncrementalDecodeProgress(
            completedSteps: Int(state.completed_scans), offersPreviews: decidedPreviews ?? true,
            isComplete: state.input_complete != 0)
    }

    private func failure(_ decoder: OpaquePointer) -> ImagoError {
        CodecFailure.decoding(.jpeg, CodecFailure.reason(imago_jpeg_incremental_message(decoder)))
    }

    private func feed(_ bytes: Data, endOfData: Bool) throws {
        guard let decoder else { throw CodecFailure.decoding(.jpeg, "out of memory") }
        byteCount += bytes.count
        try options.limits.check(byteCount: byteCount)
        if kept != nil { kept!.append(bytes) }
        if decidedPreviews == false { return }
        let status = bytes.withUnsafeBytes { raw in
            imago_jpeg_incremental_append(
                decoder, raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count, endOfData ? 1 : 0)
        }
        guard status == 0 else { throw failure(decoder) }
        if decidedPreviews == nil { try startIfHeaderRead(decoder) }
    }

    /// Once the header is in: checks the limits, then starts buffered decoding of a progressive file.
    private func startIfHeaderRead(_ decoder: OpaquePointer) throws {
        var state = imago_jpeg_incremental_state()
        imago_jpeg_incremental_get_state(decoder, &state)
        guard state.header_ready != 0 else { return }
        var header = imago_jpeg_header()
        guard imago_jpeg_incremental_header(decoder, &header) == 0 else { throw failure(decoder) }
        let width = Int(header.width)
        let height = Int(header.height)
        try options.limits.check(width: width, height: height, format: .jpeg)
        orientation =
            header.exif.flatMap { EXIFOrientation.read(UnsafeRawBufferPointer(start: $0, count: header.exif_size)) }
            ?? .up
        guard header.progressive != 0, header.color != IMAGO_JPEG_CMYK, header.color != IMAGO_JPEG_OTHER,
            let color = colorPlan(decoder, header: header)
        else {
            decidedPreviews = false
            return
        }
        self.color = color
        // The same scale and IDCT as `JPEGCodec.decode` chooses, so the final pass matches it pixel for pixel.
        let scaled = codec.scaledDecode(width: width, height: height, orientation: orientation, options: options)
        var outputWidth: UInt32 = 0
        var outputHeight: UInt32 = 0
        guard
            imago_jpeg_incremental_start(
                decoder, UInt32(scaled.eighths), scaled.fast ? 1 : 0, &outputWidth, &outputHeight) == 0
        else {
            throw failure(decoder)
        }
        outputSize = (Int(outputWidth), Int(outputHeight))
        extent = JPEGCodec.extent(width: width, height: height, eighths: scaled.eighths)
        decidedPreviews = true
        kept = nil
    }

    /// The profile's plan, as `JPEGCodec.colorPlan` makes it; `nil` (decode in one shot) when reading the profile
    /// gave a warning or the profile cannot be used, so that the one-shot decode records the same warnings.
    private func colorPlan(_ decoder: OpaquePointer, header: imago_jpeg_header) -> ColorPlan? {
        var bytes: UnsafeMutablePointer<UInt8>?
        var size: UInt32 = 0
        guard imago_jpeg_incremental_icc_profile(decoder, &bytes, &size) == 0 else { return nil }
        guard let bytes, size > 0 else { return ColorPlan.none }
        let profile = Data(bytesNoCopy: bytes, count: Int(size), deallocator: .free)
        let layout: ColorSourceLayout = header.color == IMAGO_JPEG_GRAY ? .grayInRGBA : .rgba
        guard let plan = try? ColorPlan(profile: profile, layout: layout, options: options, format: .jpeg),
            plan.warnings.isEmpty
        else { return nil }
        return plan
    }

    private func render(_ decoder: OpaquePointer, size: (width: Int, height: Int), final: Bool) throws
        -> DecodedImage
    {
        let rowBytes = size.width * 4
        var raster = try Raster(width: size.width, height: size.height) { buffer in
            let pixels = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            guard imago_jpeg_incremental_render(decoder, pixels, rowBytes, final ? 1 : 0) == 0 else {
                throw failure(decoder)
            }
            color.apply(to: buffer, width: size.width, height: size.height, bytesPerRow: rowBytes)
        }
        raster.extent = extent
        var image = DecodedImage(
            frames: [ImageFrame(raster: raster)], format: .jpeg, orientation: orientation, hasAlpha: false,
            encodedSize: byteCount)
        color.record(on: &image)
        return image
    }
}
