/// Processing options in the one grammar `imago serve` URLs, the CLI's `--ops` and string presets in the
/// configuration's `processing` section share: comma-separated `key=value` items in any order, or `-` for none
/// (`w=300,h=200,fit=cover,g=sm,blur=2`). The keys, their values and canonical forms are one table
/// (`ProcessingOptions.table`); `processors(_:)` turns the options into processors in the fixed order of operations.
///
/// It lives in the umbrella module because both the server (`ImagoServer`) and the CLI depend on it and it needs
/// only Core's processors: the CLI must not reach into the server's module for its grammar.
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
    }

    /// `flip`: which way to mirror.
    public enum Flip: String, Sendable, Hashable, CaseIterable {
        case h, v, hv
    }

    /// `crop`: a region (`X:Y:W:H`), the largest window of an aspect ratio (`W:H`) placed by `g`, or a window of a
    /// size placed by its own gravity (`W:H:G`).
    public enum Crop: Sendable, Hashable {
        case region(CropRegion)
        case aspect(width: Int, height: Int)
        case window(width: CropValue, height: CropValue, gravity: Gravity)
    }

    /// `pad`: a border in pixels before `dpr`.
    public struct Padding: Sendable, Hashable {
        public var top: Int, right: Int, bottom: Int, left: Int
        /// A border of these widths.
        public init(top: Int, right: Int, bottom: Int, left: Int) {
            (self.top, self.right, self.bottom, self.left) = (top, right, bottom, left)
        }
    }

    /// `wm`: how the configured watermark is drawn.
    public struct Watermark: Sendable, Hashable {
        /// 0…1.
        public var opacity: Double
        /// Where it goes (a gravity other than `sm`).
        public var position: Gravity
        /// Its width as a fraction of the output's, or nil for its natural size.
        public var scale: Double?
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
    /// `q`, 1…100; `nil`: the configured quality of the format.
    public var quality: Int?
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
    /// `pr`: the presets named, already applied to the other fields.
    public var presets: [String] = []
    /// `maxb`: most bytes the output may have.
    public var maxBytes: Int?
    /// `exp`: Unix seconds after which the URL is refused (410).
    public var expires: Int?
    /// `strip` (default on): drop metadata; off keeps the source's ICC profile.
    public var strip = true

    /// No options.
    public init() {}

    /// Parses `text`; a bad item throws an `OptionError` naming it. Presets named by `pr` are applied first, in
    /// order, and the other items override them. `w` and `h` after `dpr` must be at most `maxOutputSide`.
    public init(parsing text: some StringProtocol, context: Context = Context()) throws {
        self.init()
        let segment = Substring(text)
        guard segment != "-" else { return }
        guard !segment.isEmpty else { throw OptionError(item: "", message: "empty options (use - for none)") }
        let items = try Self.split(segment)
        if context.onlyPresets, let other = items.first(where: { $0.key != "pr" }) {
            throw OptionError(
                item: OptionError.shown(other.item),
                message: "option \"\(OptionError.shown(other.item))\": only pr= is accepted (onlyPresets)")
        }
        if let presets = items.first(where: { $0.key == "pr" }) {
            try Self.entry("pr").parse(&self, presets.value, presets.item, context)
            for name in self.presets {
                guard let preset = context.presets[name] else { continue }
                for item in try Self.split(Substring(preset)) {
                    guard item.key != "pr" else {
                        throw OptionError(item: name, message: "preset \(name): a preset cannot name pr")
                    }
                    try Self.apply(item, to: &self, context: context)
                }
            }
        }
        for item in items where item.key != "pr" { try Self.apply(item, to: &self, context: context) }
        try checkSizes(maxOutputSide: context.maxOutputSide)
    }

    struct Item {
        var item: Substring
        var key: Substring
        var value: Substring
    }

    /// Items, each `key=value`, no key twice.
    static func split(_ segment: Substring) throws -> [Item] {
        var seen: Set<Substring> = []
        return try segment.split(separator: ",", omittingEmptySubsequences: false).map { item in
            guard let equals = item.firstIndex(of: "=") else {
                throw OptionError(
                    item: OptionError.shown(item), message: "option \"\(OptionError.shown(item))\" is not key=value")
            }
            let key = item[..<equals]
            guard seen.insert(key).inserted else {
                throw OptionError(
                    item: OptionError.shown(key), message: "option \(OptionError.shown(key)) is given twice")
            }
            return Item(item: item, key: key, value: item[item.index(after: equals)...])
        }
    }

    static func apply(_ item: Item, to options: inout ProcessingOptions, context: Context) throws {
        guard let entry = table.first(where: { $0.key == item.key }) else {
            let shown = OptionError.shown(item.item.prefix(24))
            throw OptionError(
                item: shown,
                message: "unknown option \"\(shown)\" (known: " + table.map(\.key).joined(separator: ",") + ")")
        }
        try entry.parse(&options, item.value, item.item, context)
    }

    private func checkSizes(maxOutputSide: Int) throws {
        for (name, side) in [("w", width), ("h", height)] {
            guard let side else { continue }
            let scaled = Self.scaled(side, dpr)
            if scaled > maxOutputSide {
                throw OptionError(
                    item: name,
                    message: "option \(name)=\(side) with dpr=\(Self.number(dpr)) is \(scaled) px, over the limit of "
                        + "\(maxOutputSide)")
            }
        }
        if let pad = outputPadding, max(pad.top, pad.right, pad.bottom, pad.left) > maxOutputSide {
            throw OptionError(item: "pad", message: "option pad: over the limit of \(maxOutputSide) px (after dpr)")
        }
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
    /// presets expanded), in the table's order: equal for requests that mean the same. The first seven are always
    /// written, the others only when set.
    public var canonical: String {
        Self.table.compactMap { entry in entry.canonical(self).map { "\(entry.key)=\($0)" } }.joined(separator: ",")
    }
}
