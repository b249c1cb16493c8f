import Foundation
import Imago

/// Picks the grammar of a request target by its path prefix: each enabled grammar has its own (`serve.dialects`),
/// exactly one (Imago's own by default) has the root. The prefix is removed before the grammar reads the path, so
/// it is not part of what is signed.
struct DialectRouter: Sendable {
    /// Every grammar served and its prefix, the longest prefix first (sorted once, not per request).
    private let grammars: [(prefix: String, dialect: any URLDialect)]

    /// The router of `settings` (validated when they were read: no two grammars share a prefix); Imago's own
    /// URLs are signed by `signer`.
    init(settings: DialectSettings, signer: URLSigner) {
        var grammars: [(prefix: String, dialect: any URLDialect)] = [
            (settings.imagoPathPrefix, ImagoDialect(signer: signer))
        ]
        if settings.imgproxy.enabled {
            grammars.append((settings.imgproxy.pathPrefix, ImgproxyDialect(settings: settings.imgproxy)))
        }
        if settings.thumbor.enabled {
            grammars.append((settings.thumbor.pathPrefix, ThumborDialect(settings: settings.thumbor)))
        }
        self.grammars = grammars.sorted { $0.prefix.count > $1.prefix.count }
    }

    /// The grammar for `target` and the target after its prefix: the grammar whose prefix it starts with (a whole
    /// segment), else the root's; `notFound` when no grammar serves the root.
    func route(_ target: Substring) throws -> (dialect: any URLDialect, rest: Substring) {
        for (prefix, dialect) in grammars {
            if prefix.isEmpty { return (dialect, target) }
            if target.hasPrefix(prefix + "/") { return (dialect, target.dropFirst(prefix.count)) }
        }
        throw RequestError(.notFound, "no URL grammar is served at this path (serve.dialects)")
    }
}
