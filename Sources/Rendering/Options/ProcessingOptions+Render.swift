import Foundation

/// The render options ask for: the one place a request's options become a `RenderRequest` (processors, decode,
/// output), for `imago serve` and `imago convert` alike.
extension ProcessingOptions {
    /// What the render of these options needs besides them: the limits and output side of the service, the
    /// qualities of its formats, its watermark, and how the user wrote each option.
    public struct RenderSettings: Sendable {
        /// The limits resizing, padding and extending check their outputs against.
        public var limits: DecodeLimits
        /// Stands in for a missing `w` or `h`.
        public var maxOutputSide: Int
        /// The quality of each lossy format when `q` is not given.
        public var qualities: [ImageFormat: Int]
        /// The quality of a format `qualities` does not name.
        public var defaultQuality: Int
        /// The image `wm` draws.
        public var watermark: WatermarkImage?
        /// The images the options name by URL (`imageSources`), by URL, loaded by the caller: a watermark's image
        /// (`wm=…:src:…`) and a nine-patch frame (`ninepatch`).
        public var images: [String: WatermarkImage] = [:]
        /// An option (by its Imago key) as the user wrote it.
        public var spelling: @Sendable (String) -> String
        /// The detector that finds faces for `g=face`, `g=sm`, `blurfaces` and `pixelatefaces`; nil: none is
        /// configured (`g=face` is smart gravity then, and `blurfaces`/`pixelatefaces` are refused).
        public var faceDetector: (any ImageDetector)?
        /// When the face detection gives up (the render's caller's cancellation stops it too).
        public var detectionDeadline: ContinuousClock.Instant?
        /// The target and bounds of `q=auto` where the option leaves them out, and of `f=best` without `q`.
        public var autoQuality = AutoQuality()

        /// Settings.
        public init(
            limits: DecodeLimits = .default, maxOutputSide: Int = 8192, qualities: [ImageFormat: Int] = [:],
            defaultQuality: Int = 85, watermark: WatermarkImage? = nil,
            spelling: @escaping @Sendable (String) -> String = { $0 }
        ) {
            (self.limits, self.maxOutputSide, self.qualities) = (limits, maxOutputSide, qualities)
            (self.defaultQuality, self.watermark, self.spelling) = (defaultQuality, watermark, spelling)
        }
    }

    /// The encoder's options for `format` (nil: chosen by the render): `q`, else the format's quality (`fq`'s, then
    /// the service's), and the background of formats without alpha.
    public func encodeOptions(for format: ImageFormat?, settings: RenderSettings) -> EncodeOptions {
        EncodeOptions(
            quality: quality ?? format.flatMap { formatQualities[$0] ?? settings.qualities[$0] }
                ?? settings.defaultQuality,
            allFrames: frame == nil, background: flattenBackground)
    }

    /// The render of `url` these options ask for, into `format`: their processors, a decode target so JPEG and
    /// WebP can decode reduced, the profile kept when `strip=0`, and the output's quality, `maxb` and `frame`.
    /// With a face detector configured (`settings.faceDetector`), options that need faces get a `detection`
    /// whose answer makes the processors; without one, `blurfaces` and `pixelatefaces` throw an `OptionError`
    /// naming the missing detector.
    public func renderRequest(url: URL, format: RenderFormat, settings: RenderSettings) throws -> RenderRequest {
        // `msr`, `msfs`, `maf` and `mafr` tighten the service's limits for this render, never loosen them.
        var tightened = settings
        tightened.limits = limits.applied(to: settings.limits)
        let settings = tightened
        let processors = try self.processors(
            limits: settings.limits, maxOutputSide: settings.maxOutputSide, watermark: settings.watermark,
            images: settings.images, spelling: settings.spelling, faces: nil)
        if settings.faceDetector == nil,
            let key = blurFaces != nil ? "blurfaces" : pixelateFaces != nil ? "pixelatefaces" : nil
        {
            let option = OptionError.shown(settings.spelling(key))
            throw OptionError(
                .conflicting, item: option,
                message: "option \"\(option)\": no face detector is configured (add {\"name\": \"faces\"} to the "
                    + "configuration's detectors)")
        }
        var decode = DecodeOptions()
        if !limits.isEmpty {
            decode.limits = settings.limits
            // The loader reads `.default` as "the loader's own limits", which may be looser: one byte less keeps
            // a tightening that happens to equal the defaults a tightening.
            if decode.limits == .default { decode.limits.maxBytes -= 1 }
        }
        decode.timeline = TimelineOptions(
            posterTime: posterTime, maxFrames: previewFrames, maxFrameRate: previewFrameRate)
        decode.timeline.posterAtKeyframe = posterAtKeyframe
        if !strip { decode.colorProfiles = .keep }
        if allowsReducedDecode {
            // The decoder picks its reduction from the stored size, before the EXIF orientation turns the image;
            // a square target both sides of the reduced image must cover is right for every orientation.
            let side = max(outputWidth ?? 0, outputHeight ?? 0)
            decode.targetSize = PixelSize(width: side, height: side)
            decode.contentMode = .fill
        }
        let named: ImageFormat? = if case .format(let named) = format { named } else { nil }
        var output = RenderOutput(
            format: format, options: encodeOptions(for: named, settings: settings),
            qualities: quality == nil ? settings.qualities.merging(formatQualities) { $1 } : [:], maxBytes: maxBytes,
            frame: frame)
        output.maxBytesSpelling = maxBytes.map { _ in settings.spelling("maxb") }
        output.autoQuality = try autoQuality(settings: settings, format: format)
        var image = ImageRequest(url: url, processors: processors, decodeOptions: decode)
        image.appliesOrientation = appliesOrientation
        var request = RenderRequest(image: image, output: output)
        if let detector = settings.faceDetector, wantsFaces(smartFindsFaces: true) {
            let options = self
            request.detection = RenderDetection(detector: detector, deadline: settings.detectionDeadline) { faces in
                try options.processors(
                    limits: settings.limits, maxOutputSide: settings.maxOutputSide, watermark: settings.watermark,
                    images: settings.images, spelling: settings.spelling, faces: faces)
            }
        }
        return request
    }

    /// The search's settings: `q=auto`'s parts over the service's, or the service's for `f=best` without `q`;
    /// nil for a fixed quality. Throws `QualityError` when they cannot be searched.
    public func autoQuality(settings: RenderSettings, format: RenderFormat) throws -> AutoQuality? {
        if let autoQuality { return try autoQuality.settings(over: settings.autoQuality) }
        if case .best = format, quality == nil { return settings.autoQuality }
        return nil
    }
}
