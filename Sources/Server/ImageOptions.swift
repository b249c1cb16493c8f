/// The options segment of an image path: the umbrella's `ProcessingOptions` grammar (comma-separated `key=value`
/// items in any order, or `-` for none), shared with the CLI's `--ops` and string presets.
public typealias ImageOptions = ProcessingOptions

extension ProcessingOptions {
    /// Parses `segment` as the server does; a bad item is a 400 naming it. `w` and `h` after `dpr` must be at most
    /// `maxOutputSide`; `pr` names `presets`; with `onlyPresets` only `pr` is accepted.
    public init(
        parsing segment: Substring, maxOutputSide: Int, presets: [String: String] = [:], onlyPresets: Bool = false
    ) throws {
        do {
            try self.init(
                parsing: segment,
                context: Context(maxOutputSide: maxOutputSide, presets: presets, onlyPresets: onlyPresets))
        } catch let error as OptionError {
            throw ServeFailure(400, error.message)
        }
    }
}
