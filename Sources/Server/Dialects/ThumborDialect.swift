import Foundation
import Imago

/// thumbor's URLs: `/{HASH|unsafe}/…/IMAGE`, the parts before IMAGE read by thumbor's grammar
/// (`ThumborGrammar`) with thumbor's meanings. IMAGE is a full `http(s)` URL or a path under `loaderBase`.
struct ThumborDialect: URLDialect {
    let name = "thumbor"
    let signer: ThumborSigner?
    let allowUnsafe: Bool
    let loaderBase: String?

    init(settings: ThumborSettings) {
        signer = settings.securityKey.map(ThumborSigner.init(key:))
        allowUnsafe = settings.allowUnsafe
        loaderBase = settings.loaderBase
    }

    func request(for target: Substring, time: Date, context: ProcessingOptions.Context) throws -> DialectRequest {
        let path = pathOnly(target)
        try checkSegments(path)
        guard path.first == "/", let hashEnd = path.dropFirst().firstIndex(of: "/") else {
            throw RequestError(.malformedPath, "thumbor: expected /HASH/…/IMAGE or /unsafe/…/IMAGE")
        }
        let hash = path[path.index(after: path.startIndex)..<hashEnd]
        let signed = path[path.index(after: hashEnd)...]
        if hash == "unsafe" {
            guard allowUnsafe else {
                throw RequestError(.badSignature, "thumbor: unsafe URLs are not allowed (allowUnsafe)")
            }
        } else {
            guard let signer, signer.accepts(hash: hash, for: signed) else {
                throw RequestError(.badSignature, "thumbor: bad signature")
            }
        }
        var (reading, image) = try ThumborGrammar.options(signed, context: context)
        // watermark(URL,…) and frame(URL): URL is read as IMAGE is, under loaderBase when it is a path.
        try reading.options.mapImageSources { try source(Substring($0)) }
        return DialectRequest(
            source: try source(image), options: reading.options, spellings: reading.spellings,
            skipped: reading.scratch.skippedFilters)
    }

    /// IMAGE as a URL: itself when it is `http(s)://…` (or percent-encoded so), else under `loaderBase`.
    func source(_ image: Substring) throws -> String {
        guard !image.isEmpty else { throw RequestError(.malformedPath, "thumbor: missing image") }
        let decoded = image.removingPercentEncoding ?? String(image)
        let lower = decoded.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") { return decoded }
        guard let loaderBase else {
            throw RequestError(.malformedPath, "thumbor: a relative image needs serve.dialects.thumbor.loaderBase")
        }
        let segments = decoded.split(separator: "/", omittingEmptySubsequences: false)
        guard !segments.contains(where: { $0 == ".." || $0 == "." }), !decoded.hasPrefix("/"),
            !decoded.contains("\\"), segments.first?.contains(":") == false
        else {
            throw RequestError(
                .malformedPath, "thumbor: the image path must stay under loaderBase (no .., no scheme, no :)")
        }
        let encoded = segments.map {
            $0.addingPercentEncoding(
                withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "?#;")))
                ?? ""
        }
        return loaderBase + encoded.joined(separator: "/")
    }
}
