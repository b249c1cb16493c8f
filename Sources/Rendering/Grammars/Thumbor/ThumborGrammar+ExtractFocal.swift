/// thumbor's `extract_focal()`: IMAGE is itself a thumbor URL (a host, then `unsafe/` or a signature) with a manual
/// crop, as an application gets when it sends a cropped thumbor URL back as the source; the crop becomes a focal
/// region and the inner URL's own image the source. Up to 10 URLs are unwrapped, as thumbor's `parse_url` does.
/// (thumbor 7.8.0's handler percent-encodes IMAGE before the filter reads it, so there the crop's `:` never matches
/// and the nested URL is loaded as it is: Docs/Dialects.md states the difference.)
extension ThumborGrammar {
    /// The most inner levels thumbor unwraps (its `MAX_LEVEL`).
    static let maxFocalLevels = 10

    /// The first crop found in the thumbor URLs nested in `image` (left, top, right, bottom) and the image of the URL
    /// that has it; nil when none has one.
    static func extractedFocal(_ image: Substring) -> (image: Substring, box: (Int, Int, Int, Int))? {
        var url = image
        /// Drops the next segment when `matches` accepts it.
        func skip(_ matches: (Substring) -> Bool) {
            if let slash = url.firstIndex(of: "/"), matches(url[..<slash]) { url = url[url.index(after: slash)...] }
        }
        for _ in 0..<maxFocalLevels {
            for scheme in ["http://", "https://"] where url.hasPrefix(scheme) { url = url.dropFirst(scheme.count) }
            // thumbor drops the host (everything up to the first `/`), then reads `unsafe` or a signature.
            for _ in 0..<2 {
                guard let slash = url.firstIndex(of: "/") else { return nil }
                url = url[url.index(after: slash)...]
            }
            skip { $0 == "debug" }
            skip { $0 == "meta" }
            skip { $0 == "trim" || $0.hasPrefix("trim:") }
            var box: (Int, Int, Int, Int)?
            if let slash = url.firstIndex(of: "/"), let crop = try? cropPattern(url[..<slash]) {
                box = crop.box
                url = url[url.index(after: slash)...]
            }
            skip { $0.hasSuffix("fit-in") }
            skip { dimensions($0) != nil }
            skip { ["left", "right", "center"].contains($0) }
            skip { ["top", "bottom", "middle"].contains($0) }
            skip { $0 == "smart" }
            if url.hasPrefix("filters:"), let end = url.range(of: ")/") { url = url[end.upperBound...] }
            if let box { return (url, box) }
        }
        return nil
    }
}
