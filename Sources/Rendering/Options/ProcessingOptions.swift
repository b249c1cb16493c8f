/// The one options model of a render, whatever grammar wrote it: Imago's own (`w=300,h=200,fit=cover,g=sm` in
/// `imago serve` URLs, the CLI's `--ops` and string presets; `ProcessingOptions.grammar`), imgproxy's
/// (`ImgproxyGrammar`) or thumbor's (`ThumborGrammar`). Each grammar's table of rows writes typed values into it;
/// `validate` then checks the options together, `canonical` writes them in one form (the result's key), and
/// `processors(limits:maxOutputSide:watermark:spelling:)` turns them into processors in the fixed order of
/// operations.
public struct ProcessingOptions: Sendable, Hashable {
    /// How `w` × `h` is filled.
    public enum Fit: String, Sendable, Hashable, CaseIterable {
        /// Fit inside, keeping the aspect ratio.
        case contain
        /// Fill and crop, the window placed by `g`.
        case cover
        /// Stretch to exactly `w` × `h`.
        case fill
        /// `cover` when the source and `w` × `h` have the same orientation (landscape and square count as one),
        /// else `contain` (imgproxy's `auto`).
        case auto
        /// `contain`, `w` and `h` swapped when the source and `w` × `h` have opposite orientations (thumbor's
        /// `adaptive-fit-in`).
        case adaptive
        /// Cover `w` × `h` keeping the aspect ratio, nothing cropped (thumbor's `full-fit-in`).
        case outside
        /// `outside`, `w` and `h` swapped when the source and `w` × `h` have opposite orientations (thumbor's
        /// `adaptive-full-fit-in`).
        case adaptiveOutside = "adaptive-outside"
    }

    /// `flip`: which way to mirror.
    public enum Flip: String, Sendable, Hashable, CaseIterable {
        case h, v, hv
    }

    /// `crop`: a region (`X:Y:W:H`), the largest window of an aspect ratio (`W:H`) placed by `g`, or a window of a
    /// size placed by its own gravity (`W:H:G`; nil: by `g`, as imgproxy's `crop` without one).
    public enum Crop: Sendable, Hashable {
        case region(CropRegion)
        case aspect(width: Int, height: Int)
        case window(width: CropValue, height: CropValue, gravity: Gravity?)
    }

    /// `pad`: a border in pixels before `dpr`.
    public struct Padding: Sendable, Hashable {
        public var top: Int, right: Int, bottom: Int, left: Int
        /// A border of these widths.
        public init(top: Int, right: Int, bottom: Int, left: Int) {
            (self.top, self.right, self.bottom, self.left) = (top, right, bottom, left)
        }
    }

    /// `wm`: how a watermark is drawn: the configured one (`serve.watermark`), or the image at `source`.
    public struct Watermark: Sendable, Hashable {
        /// 0…1.
        public var opacity: Double
        /// Where it goes (a gravity other than `sm`).
        public var position: Gravity
        /// Its width as a fraction of the output's, or nil for its natural size.
        public var scale: Double?
        /// Moves it from where `position` puts it: pixels before `dpr`, or fractions (below 1) of the output's side,
        /// positive away from the edge the position names (`WatermarkProcessor.offset`).
        public var offset = Offset()
        /// Copies over the whole image instead of one (`.grid` gaps in pixels before `dpr`); nil: one.
        public var tiling: WatermarkProcessor.Tiling?
        /// Fractions of the output's width and height the mark is scaled to fit (thumbor's ratios; either may be
        /// nil); both nil: `scale` decides.
        public var fitWidth: Double?, fitHeight: Double?
        /// Whether the fit rounds as imgproxy's `wm` scale (`WatermarkProcessor.fitRoundsToEven`), written `:even`
        /// after `:fit:W:H`; false: as thumbor.
        public var fitRoundsToEven = false
        /// Alpha levels (0…255) taken from the mark before it is drawn (thumbor's transparency); 0: none.
        public var alphaReduction = 0
        /// The mark's URL (a server checks it against its source policy and keys the result by it); nil: the
        /// configured watermark.
        public var source: String?
        /// A watermark drawn so.
        public init(opacity: Double, position: Gravity, scale: Double? = nil) {
            (self.opacity, self.position, self.scale) = (opacity, position, scale)
        }
    }

    /// What parsing needs to know besides the text.
    public struct Context: Sendable, Hashable {
        /// Largest `w`, `h` (after `dpr`) and `pad` side.
        public var maxOutputSide: Int
        /// Presets `pr` may name, as option strings.
        public var presets: [String: String]
        /// Whether only `pr` may be given (imgproxy's only-presets mode).
        public var onlyPresets: Bool
        /// The service's source limits, which `msr`, `msfs`, `maf` and `mafr` may only tighten (a looser value is
        /// refused naming it); nil: not checked when reading (a render still never loosens its limits).
        public var sourceLimits: DecodeLimits?
        /// A context.
        public init(maxOutputSide: Int = 8192, presets: [String: String] = [:], onlyPresets: Bool = false) {
            (self.maxOutputSide, self.presets, self.onlyPresets) = (maxOutputSide, presets, onlyPresets)
        }
    }

    /// `w`, in pixels before `dpr`.
    public var width: Int?
    /// `h`, in pixels before `dpr`.
    public var height: Int?
    /// `fit` (default `contain`).
    public var fit: Fit = .contain
    /// `enlarge` (default off): whether a smaller source is scaled up.
    public var enlarge = false
    /// `dpr`, 1…4: multiplies `w`, `h` and `pad`.
    public var dpr: Double = 1
    /// `f`; `nil`: the source's format, or JPEG when no encoder writes it.
    public var format: OutputFormat?
    /// `q`, 1…100; `nil`: the configured quality of the format (or `autoQuality`'s search).
    public var quality: Int?
    /// `q=auto[:TARGET[:MIN:MAX]]`: the quality searched for (`quality` is then nil).
    public var autoQuality: AutoQualityOption?
    /// `frame`: one frame by index; `nil`: every frame for animated output formats, else the first.
    public var frame: Int?
    /// `crop`, before resizing.
    public var crop: Crop?
    /// `g` (default centre): where `fit=cover`, `crop=W:H` and `ext` place their window.
    public var gravity: Gravity = .center
    /// `pad`.
    public var pad: Padding?
    /// `ext`: with `fit=contain`, fill the whole `w` × `h` with `bg`.
    public var extend = false
    /// `ext=1:G`: where the image is placed on the extended canvas; nil: by `g` (`sm` centres).
    public var extendGravity: Gravity?
    /// `bg`: background of `pad`, `ext` and of flattening into formats without alpha; nil: white.
    public var background: RGBA?
    /// `rot`: 90, 180 or 270 degrees clockwise.
    public var rotate: Int?
    /// `flip`.
    public var flip: Flip?
    /// `blur`: Gaussian sigma 0.3…100.
    public var blur: Double?
    /// `sharpen`: unsharp-mask sigma 0.3…10.
    public var sharpen: Double?
    /// `gray`: every pixel its luma (BT.601).
    public var grayscale = false
    /// `bright`: −100…100 percent of full scale added to each colour channel; nil: none.
    public var brightness: Int?
    /// `contrast`: −100…100 (thumbor's scale); nil: none.
    public var contrast: Int?
    /// `round`: rounded corners, after `pad` and `ext`.
    public var roundCorners: RoundCorners?
    /// `trim`: threshold 0…255.
    public var trim: Int?
    /// `wm`.
    public var watermark: Watermark?
    /// `ninepatch`: the URL of a nine-patch image drawn around the image (thumbor's `frame(URL)`); a server checks
    /// it against its source policy and keys the result by it.
    public var ninePatch: String?
    /// `pr`: the presets named, already applied to the other fields.
    public var presets: [String] = []
    /// `maxb`: most bytes the output may have.
    public var maxBytes: Int?
    /// `exp`: Unix seconds after which the URL is refused (410).
    public var expires: Int?
    /// `strip` (default on): drop metadata; off keeps the source's ICC profile.
    public var strip = true
    /// `g=face`: `g` places windows on the faces a face detector finds; `gravity` is then `.smart`, what it falls
    /// back to when no face is found or no detector is configured.
    public var gravityOnFaces = false
    /// `blurfaces`: the faces found blurred with this Gaussian sigma, 0.3…100.
    public var blurFaces: Double?
    /// `pixelatefaces`: the faces found pixelated in squares of this many pixels, 2…256.
    public var pixelateFaces: Int?
    /// `t`: a video's poster time, in seconds; nil: the first frame that is neither nearly black nor flat.
    public var posterTime: Double?
    /// `t=S:k`: the poster may be the keyframe at or before `posterTime` (one frame decoded) rather than the exact
    /// frame.
    public var posterAtKeyframe = false
    /// `frames`: an animated preview of a video (`f=webp` or `gif`) of at most this many frames.
    public var previewFrames: Int?
    /// `fps`: an animated preview of a video sampled at most this many frames a second.
    public var previewFrameRate: Double?
    /// `adj`, `minw`, `minh`, `zoom`, `focal` and `g`'s offsets: what a resize does beyond its size, mode and
    /// gravity (pixel offsets and minimum sides before `dpr`).
    public var adjustments = ResizeAdjustments()
    /// `crop=W:H:G:X:Y`'s offsets from where its gravity puts the window (pixels before `dpr`, or fractions).
    public var cropOffset = Offset()
    /// `ext=1:G:X:Y`'s offsets from where its gravity puts the image.
    public var extendOffset = Offset()
    /// `scale`: factors on the image after the resize.
    public var scale: Scale?
    /// `exar`: extend to the aspect ratio of `w` × `h`, the image placed by this gravity.
    public var aspectExtend: Gravity?
    /// `trim`'s reference colour, distance and equal sides.
    public var trimRule = TrimRule()
    /// `pix`: pixelate in blocks of this size (before `dpr`).
    public var pixelate: Int?
    /// `ar=0`: the EXIF orientation is not applied.
    public var appliesOrientation = true
    /// `fq`: the quality of each output format, when `q` is not given.
    public var formatQualities: [ImageFormat: Int] = [:]
    /// `fill`: the image centred on a canvas filled with a colour, its mean colour or a blurred copy.
    public var canvasFill: CanvasFill?
    /// `flatten`: the image composited over this colour.
    public var flatten: RGBA?
    /// `gblur`: a Gaussian cut at its radius (thumbor's `blur`).
    public var truncatedBlur: TruncatedBlur?
    /// `wsharpen`: thumbor's wavelet sharpen.
    public var waveletSharpen: WaveletSharpen?
    /// `sat`: saturation factor.
    public var saturation: Double?
    /// `rgb`: per-channel shifts, −100…100 percent.
    public var channelShift: ChannelShift?
    /// `colorize`: each channel moved towards a colour by a percentage.
    public var colorize: Colorize?
    /// `equalize`: histogram equalisation.
    public var equalize = false
    /// `noise`: random noise of an amount, and the seed of its sequence.
    public var noise: Noise?
    /// `curve`: tone curves.
    public var curves: Curves?
    /// `conv`: a convolution kernel.
    public var convolution: Convolution?
    /// `fn`: the name the answer's `Content-Disposition` gives it (its extension the output format's).
    public var filename: String?
    /// `att`: the answer is an attachment (a download) rather than shown inline.
    public var attachment = false
    /// `msr`, `msfs`, `maf`, `mafr`, `mrd`: limits this request tightens (never loosens) below the service's.
    public var limits = RequestLimits()
    /// `skp`: source formats answered as they are, unprocessed, when the output format is the source's.
    public var skipProcessing: Set<ImageFormat> = []
    /// `raw`: the source's bytes answered as they are, whatever the other options.
    public var raw = false
    /// `maxage`: the answer's `Cache-Control: max-age` in seconds, at most the service's.
    public var maxAge: Int?
    /// `autojpg`: when `f` names no format, a PNG source whose output has no alpha channel is answered as JPEG
    /// (thumbor's `autojpg()`).
    public var autoJPEG = false
    /// `order`: the order the colour effects apply in (thumbor applies its filters in the URL's order); empty, or
    /// naming only some, keeps the fixed order for the rest (`appliedEffectOrder`).
    public var effectOrder: [ColourEffect] = []

    /// No options.
    public init() {}

    /// The URLs of the images these options name, which the caller loads for the render (`RenderSettings.images`),
    /// each with the Imago key of its option (to name it in an error): a nine-patch frame's, then a watermark's.
    public var imageSources: [(key: String, url: String)] {
        [("ninepatch", ninePatch), ("wm", watermark?.source)].compactMap { key, url in url.map { (key, $0) } }
    }

    /// Replaces each URL `imageSources` lists with `transform`'s (a server resolves and checks them as sources).
    public mutating func mapImageSources(_ transform: (String) throws -> String) rethrows {
        if let patch = ninePatch { ninePatch = try transform(patch) }
        if let mark = watermark?.source { watermark?.source = try transform(mark) }
    }

    /// Parses `text` in Imago's own grammar (`w=300,fit=cover`, or `-` for none), then checks the options together
    /// (`validate`); a bad item throws an `OptionError` naming it. Presets named by `pr` are applied first, in
    /// order, and the other items override them.
    public init(parsing text: some StringProtocol, context: Context = Context()) throws {
        var reading = OptionsReading(scratch: ())
        try Self.grammar.read(try Self.items(of: Substring(text)), into: &reading, context: context)
        try reading.options.validate(context, spelling: reading.spelling(of:))
        self = reading.options
    }

    /// `w` after `dpr`.
    public var outputWidth: Int? { width.map { Self.scaled($0, dpr) } }
    /// `h` after `dpr`.
    public var outputHeight: Int? { height.map { Self.scaled($0, dpr) } }
    /// `pad` after `dpr`.
    public var outputPadding: Padding? {
        pad.map {
            Padding(
                top: Self.scaled($0.top, dpr), right: Self.scaled($0.right, dpr), bottom: Self.scaled($0.bottom, dpr),
                left: Self.scaled($0.left, dpr))
        }
    }

    /// Every option that changes the pixels or the answer with its effective value (`dpr` folded into the sizes,
    /// presets expanded, numbers in one spelling), written in Imago's grammar in its table's order, whatever
    /// grammar the options were read from: equal for requests that mean the same. The first seven are always
    /// written, the others only when set.
    public var canonical: String {
        Self.grammar.rows.compactMap { row in row.canonical?(self).map { "\(row.name)=\($0)" } }
            .joined(separator: ",")
    }

    static func scaled(_ side: Int, _ dpr: Double) -> Int { Int((Double(side) * dpr).rounded()) }

    /// A double as the shortest text that reads back to it (`2`, `1.5`).
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
