import Foundation
import Imago

/// The headers of an image answer its options choose: `Content-Disposition` (`fn`, `att`), `Cache-Control`
/// (`maxage`) and `Imago-Skipped-Filters` (thumbor's skipped filters). They are computed on every answer, from a
/// result cached or not, out of the job; the options they come from are in the result's key too.
enum AnswerHeaders {
    /// Longest `Imago-Skipped-Filters` value, in bytes.
    static let maxSkippedBytes = 256

    /// `inline` or `attachment` with the name (RFC 6266): an ASCII `filename` every client reads, and the exact
    /// name as `filename*=UTF-8''…` (RFC 8187). The name is `fn`'s, else the source's last path segment without its
    /// extension (as imgproxy), then the extension of the answer's format; nil when neither `fn` nor `att` is given.
    static func contentDisposition(for options: ProcessingOptions, source: URL, contentType: String) -> String? {
        guard options.filename != nil || options.attachment, contentType.hasPrefix("image/") else { return nil }
        var name = options.filename ?? source.deletingPathExtension().lastPathComponent
        if name.isEmpty || name == "/" { name = "image" }
        while name.utf8.count > ProcessingOptions.maxFilenameBytes { name.removeLast() }
        let format = String(contentType.dropFirst("image/".count))
        let suffix = "." + (format == "jpeg" ? "jpg" : format)
        if !name.lowercased().hasSuffix(suffix) { name += suffix }
        // Quotes, backslashes, percent signs and anything beyond printable ASCII become `_` in the plain form.
        let plain = String(
            String.UnicodeScalarView(
                name.unicodeScalars.map {
                    (0x20...0x7E).contains($0.value) && !"\"\\%".unicodeScalars.contains($0) ? $0 : "_"
                }
            ))
        let exact = name.utf8.map { byte in
            attributeCharacters.contains(byte) ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
        }.joined()
        return "\(options.attachment ? "attachment" : "inline"); filename=\"\(plain)\"; filename*=UTF-8''\(exact)"
    }

    /// RFC 8187's `attr-char`: what a `filename*` value holds unescaped.
    static let attributeCharacters = Set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$&+-.^_`|~".utf8)

    /// The skipped filters as written, joined by `, `: printable ASCII only (anything else is `?`), at most
    /// `maxSkippedBytes` (cut with `...`); nil when none was skipped.
    static func skippedFilters(_ names: [String]) -> String? {
        guard !names.isEmpty else { return nil }
        let joined = names.joined(separator: ", ").unicodeScalars.map {
            (0x20...0x7E).contains($0.value) ? Character($0) : "?"
        }
        let text = String(joined)
        return text.count <= maxSkippedBytes ? text : String(text.prefix(maxSkippedBytes - 3)) + "..."
    }

    /// `Cache-Control`: the image's own max-age (a fallback's) or the service's, lowered by `maxage`; a `maxage`
    /// that brings it to 0 is `no-cache` (thumbor sends none then; an explicit 0 asks caches not to reuse it
    /// unchecked).
    static func cacheControl(_ image: RenderedImage, options: ProcessingOptions, serviceMaxAge: Int) -> String {
        let base = image.maxAge ?? serviceMaxAge
        guard let asked = options.maxAge else { return "public, max-age=\(base)" }
        let age = min(asked, base)
        return age == 0 ? "no-cache" : "public, max-age=\(age)"
    }
}
