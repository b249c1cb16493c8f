/// Names of `ImagoRendering` that moved, kept for one minor version.
extension ProcessingOptions {
    /// The canonical spelling of a number written with a leading or trailing zero.
    @available(*, deprecated, renamed: "NumberSpelling.canonicalSpelling(of:)")
    public static func canonicalSpelling(of text: Substring) -> String? { NumberSpelling.canonicalSpelling(of: text) }
}
