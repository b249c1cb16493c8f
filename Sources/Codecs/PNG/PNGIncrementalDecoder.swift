import CImagoShim
import Foundation
import ImagoCore

extension PNGCodec: IncrementalImageDecoding {
    /// An incremental decoder: previews for Adam7-interlaced images.
    public func makeIncrementalDecoder(options: DecodeOptions) -> any IncrementalImageDecoder {
        PNGIncrementalDecoder(codec: self, options: options)
    }
}

/// A PNG decoded as its bytes arrive, with libpng's progressive reader (see imago_png_incremental.h).
///
/// Adam7-interlaced images give a preview per pass received in full, each pixel filled from the nearest one
/// the passes so far gave; the final image comes out of the same buffer with `PNGCodec`'s transforms and colour
/// plan, equal to its one-shot decode. Non-interlaced images give no previews (`offersPreviews` is `false` after
/// the header): their bytes are kept and decoded in one shot by `finish()`, since a top-down partial adds rows,
/// not detail; so do images with an unusable profile. An image libpng warned about still gives previews, but
/// `finish()` refuses it: the one-shot decode keeps the warnings' texts.
public final class PNGIncrementalDecoder: IncrementalImageDecoder {
    private let codec: PNGCodec
    private let options: DecodeOptions
    private let decoder: OpaquePointer?
    private let decodesEveryImage: Bool
    private var byteCount = 0
    /// Every byte, while previews are undecided or ruled out.
    private var kept: Data? = Data()
    private var orientation: ImageOrientation = .up
    private var size: (width: Int, height: Int, hasAlpha: Bool)?
    private var decidedPreviews: Bool?
    private var color = ColorPlan.none

    /// Creates a decoder for one image; with `decodesEveryImage`, non-interlaced images are decoded
    /// progressively too (for tests and fuzzing of the progressive reader) instead of in one shot at the end.
    public init(codec: PNGCodec = PNGCodec(), options: DecodeOptions = .default, decodesEveryImage: Bool = false) {
        self.codec = codec
        self.options = options
        self.decodesEveryImage = decodesEveryImage
        self.decoder = imago_png_incremental_create(UInt64(max(options.limits.maxPixels, 0)), decodesEveryImage ? 1 : 0)
    }

    deinit { imago_png_incremental_destroy(decoder) }

    /// Incremental PNG decoders alive in this process (tests check that cancelled loads free theirs).
    public static var liveCount: Int { Int(imago_png_incremental_live_count()) }

    public func append(_ bytes: Data) throws -> IncrementalDecodeProgress {
        guard let decoder else { throw CodecFailure.decoding(.png, "out of memory") }
        byteCount += bytes.count
        try options.limits.check(byteCount: byteCount)
        if kept != nil { kept!.append(bytes) }
        if decidedPreviews != false {
            let status = bytes.withUnsafeBytes { raw in
                imago_png_incremental_append(decoder, raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count)
            }
            let state = self.state
            if state.limit_exceeded != 0, let size = header(decoder) {
                try options.limits.check(width: size.width, height: size.height, format: .png)
            }
            guard status == 0 else { throw failure(decoder) }
            if decidedPreviews == nil, state.header_ready != 0 { try decide(decoder, state) }
        }
        let state = self.state
        return IncrementalDecodeProgress(
            completedSteps: Int(state.completed_passes), offersPreviews: decidedPreviews ?? true,
            isComplete: state.image_complete != 0)
    }

    public func makePreview() throws -> DecodedImage? {
        guard let decoder, decidedPreviews == true, state.completed_passes > 0, state.image_complete == 0 else {
            return nil
        }
        return try render(decoder)
    }

    public func finish() throws -> DecodedImage {
        if let kept, decidedPreviews != true {
            return try codec.decode(kept, options: options)
        }
        guard let decoder else { throw CodecFailure.decoding(.png, "out of memory") }
        guard state.damaged == 0 else { throw CodecFailure.decoding(.png, "damaged compressed image data") }
        guard state.warnings == 0 else { throw CodecFailure.decoding(.png, "libpng warned: decode in one shot") }
        guard state.image_complete != 0 else {
            throw CodecFailure.decoding(.png, "unexpected end of data (truncated file)")
        }
        return try render(decoder)
    }

    private var state: imago_png_incremental_state {
        var state = imago_png_incremental_state()
        if let decoder { imago_png_incremental_get_state(decoder, &state) }
        return state
    }

    private func failure(_ decoder: OpaquePointer) -> ImagoError {
        CodecFailure.decoding(.png, CodecFailure.reason(imago_png_incremental_message(decoder)))
    }

    private func header(_ decoder: OpaquePointer) -> (width: Int, height: Int, header: imago_png_header)? {
        var header = imago_png_header()
        guard imago_png_incremental_header(decoder, &header) == 0 else { return nil }
        return (Int(header.width), Int(header.height), header)
    }

    private func decide(_ decoder: OpaquePointer, _ state: imago_png_incremental_state) throws {
        guard let (width, height, header) = header(decoder) else { return }
        try options.limits.check(width: width, height: height, format: .png)
        // libpng's progressive reader skips eXIf, so the chunk is read from the bytes kept so far.
        let exif = kept.flatMap(Self.exifBeforeImageData)
        orientation = exif.flatMap { bytes in bytes.withUnsafeBytes { EXIFOrientation.read($0) } } ?? .up
        size = (width, height, header.has_alpha != 0)
        // The profile's plan, as `PNGCodec.colorPlan` makes it; one that gives warnings is for the one-shot decode.
        var bytes: UnsafePointer<UInt8>?
        var profileSize = 0
        imago_png_incremental_icc_profile(decoder, &bytes, &profileSize)
        if let bytes, profileSize > 0 {
            let gray = header.color_type == 0 || header.color_type == 4  // PNG_COLOR_TYPE_GRAY, _GRAY_ALPHA
            let plan = try ColorPlan(
                profile: Data(bytes: bytes, count: profileSize), layout: gray ? .grayInRGBA : .rgba,
                options: options, format: .png)
            guard plan.warnings.isEmpty else {
                decidedPreviews = false
                return
            }
            color = plan
        }
        decidedPreviews = state.interlaced != 0 || decodesEveryImage
        if decidedPreviews == true { kept = nil }
    }

    /// The payload of the first eXIf chunk before the first IDAT with a good CRC (libpng keeps no other), if any.
    static func exifBeforeImageData(_ data: Data) -> Data? {
        let bytes = [UInt8](data)
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = bytes[offset + 4..<offset + 8]
            guard length <= bytes.count - offset - 12 else { return nil }
            if type.elementsEqual("IDAT".utf8) { return nil }
            if type.elementsEqual("eXIf".utf8) {
                let crc = bytes[offset + 8 + length..<offset + 12 + length].reduce(0) { $0 << 8 | UInt32($1) }
                guard crc == crc32(bytes[offset + 4..<offset + 8 + length]) else { return nil }
                return Data(bytes[offset + 8..<offset + 8 + length])
            }
            offset += 12 + length
        }
        return nil
    }

    /// CRC-32 as PNG chunks use it (bitwise: eXIf chunks are small).
    private static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private func render(_ decoder: OpaquePointer) throws -> DecodedImage {
        guard let size else { throw CodecFailure.decoding(.png, "no image") }
        let raster = try Raster(width: size.width, height: size.height) { buffer in
            let pixels = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            guard imago_png_incremental_render(decoder, pixels, size.width * 4) == 0 else { throw failure(decoder) }
            color.apply(to: buffer, width: size.width, height: size.height, bytesPerRow: size.width * 4)
        }
        var image = DecodedImage(
            frames: [ImageFrame(raster: raster)], format: .png, orientation: orientation, hasAlpha: size.hasAlpha,
            encodedSize: byteCount)
        color.record(on: &image)
        return image
    }
}
