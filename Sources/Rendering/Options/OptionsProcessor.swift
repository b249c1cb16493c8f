/// A processing preset written in the options grammar (`"processing": {"card": "w=600,h=400,fit=cover,g=sm"}`):
/// the processors the options ask for, run in order. `f`, `q`, `frame`, `maxb`, `exp` and `strip` are not pixel
/// operations and are ignored by it (a server or command that reads `options` applies them).
public struct OptionsProcessor: ImageProcessor {
    /// The options, parsed.
    public let options: ProcessingOptions
    /// The text as configured.
    public let text: String
    let processors: [any ImageProcessor]

    /// Parses `text`; a bad item, `pr`, `wm` or `ninepatch` (which need a server's presets and images) throws.
    public init(_ text: String) throws {
        let options = try ProcessingOptions(parsing: text)
        if options.watermark != nil || options.ninePatch != nil || !options.presets.isEmpty {
            throw OptionError(item: text, message: "a preset cannot use wm, ninepatch or pr")
        }
        self.options = options
        self.text = text
        self.processors = try options.processors()
    }

    /// `options(CANONICAL)`, naming every processor's parameters.
    public var identifier: String { "options(" + processors.map(\.identifier).joined(separator: ",") + ")" }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        try processors.reduce(image) { try $1.process($0) }
    }
}

extension OptionsProcessor: FrameWiseProcessing {
    /// Whether every processor the options ask for works frame by frame.
    public var processesFramesIndependently: Bool { processors.processFramesIndependently }
}
