import Imago

/// The options segment of an image path: `ProcessingOptions` in Imago's own grammar (comma-separated `key=value`
/// items in any order, or `-` for none), shared with the CLI's `--ops` and string presets.
public typealias ImageOptions = ProcessingOptions

extension ProcessingOptions {
    /// Parses `segment` as the server does; a bad item throws an `OptionError` naming it (a 400). `w` and `h` after
    /// `dpr` must be at most `maxOutputSide`; `pr` names `presets`; with `onlyPresets` only `pr` is accepted.
    public init(
        parsing segment: Substring, maxOutputSide: Int, presets: [String: String] = [:], onlyPresets: Bool = false
    ) throws {
        try self.init(
            parsing: segment, context: Context(maxOutputSide: maxOutputSide, presets: presets, onlyPresets: onlyPresets)
        )
    }
}
