import ImagoCore

extension JPEGCodec {
    /// How a decode for a target size uses libjpeg's DCT scaling.
    struct ScaledDecode: Equatable {
        /// The output scale in eighths (libjpeg-turbo scales by 1/8 … 8/8).
        var eighths: Int
        /// Fast integer IDCT and plain (not fancy) chroma upsampling: only when the result is shrunk further.
        var fast: Bool
    }

    /// The smallest DCT scale, in eighths (1/8 to 4/8, else 8/8), whose output still covers `options`' target size,
    /// and whether the output is shrunk further (then the fast IDCT and plain upsampling cost nothing visible, as in
    /// Pillow's draft mode).
    /// A full-size, full-quality decode without a target or with `scaledDecoding` off. `width` × `height` is the
    /// stored size and `orientation` the EXIF one (reported, not applied), so an upright target is compared with
    /// the upright size.
    func scaledDecode(width: Int, height: Int, orientation: ImageOrientation, options: DecodeOptions) -> ScaledDecode {
        guard scaledDecoding, let target = options.targetSize(forStoredOrientation: orientation), target.width > 0,
            target.height > 0
        else {
            return ScaledDecode(eighths: 8, fast: false)
        }
        let sx = Double(width) / Double(target.width)
        let sy = Double(height) / Double(target.height)
        // For fit the image must cover the target along its limiting side; for fill along both.
        let allowed = options.contentMode == .fit ? max(sx, sy) : min(sx, sy)
        guard allowed > 1 else { return ScaledDecode(eighths: 8, fast: false) }
        var eighths = min(8, max(1, Int((8 / allowed).rounded(.up))))
        // libjpeg-turbo's 5/8 to 7/8 IDCTs are scalar: they decode slower than the full size (a 2040x1275 photo:
        // 16-18 ms against 12 ms), so those targets decode at full size and leave the rest to the resize.
        if eighths > 4 { eighths = 8 }
        // The decoded size over the needed size, along the limiting side.
        let furtherShrink = allowed * Double(eighths) / 8
        return ScaledDecode(eighths: eighths, fast: furtherShrink >= Self.fastDecodeShrink)
    }

    /// How much of a decode at `eighths` the picture covers when libjpeg rounded the scaled size up (1275 rows at
    /// 4/8 are 638 rows, 637.5 covered), for `Raster.extent`; nil when the size is exact.
    static func extent(width: Int, height: Int, eighths: Int) -> (width: Double, height: Double)? {
        guard (width * eighths) % 8 != 0 || (height * eighths) % 8 != 0 else { return nil }
        return (Double(width * eighths) / 8, Double(height * eighths) / 8)
    }

    /// The least further shrink that hides the fast decode's differences (see the PSNR test in JPEGThumbnailTests).
    static let fastDecodeShrink = 1.25
}
