import Foundation
import Imago

/// Picks the grammar of a request target by its path prefix: each enabled grammar has its own (`serve.dialects`),
/// exactly one (Imago's own by default) has the root. The prefix is removed before the grammar reads the path, so
/// it is not part of what is signed.
struct DialectRouter: Sendable {
    /// Who reads a target.
    enum Route {
        /// Imago's own grammar, the target after its prefix.
        case own(Substring)
        /// A dialect, the target after its prefix.
        case dialect(any URLDialect, Substring)
    }

    /// Every grammar served and its prefix, the longest prefix first (sorted once, not per request).
    private let grammars: [(prefix: String, dialect: (any URLDialect)?)]

    /// The router of `settings` (validated when they were read: no two grammars share a prefix).
    init(settings: DialectSettings) {
        var grammars: [(prefix: String, dialect: (any URLDialect)?)] = [(settings.imagoPathPrefix, nil)]
        if settings.imgproxy.enabled {
            grammars.append((settings.imgproxy.pathPrefix, ImgproxyDialect(settings: settings.imgproxy)))
        }
        if settings.thumbor.enabled {
            grammars.append((settings.thumbor.pathPrefix, ThumborDialect(settings: settings.thumbor)))
        }
        self.grammars = grammars.sorted { $0.prefix.count > $1.prefix.count }
    }

    /// The grammar for `target`: the one whose prefix it starts with (a whole segment), else the root's; a 404 when
    /// no grammar serves the root.
    func route(_ target: Substring) throws -> Route {
        for (prefix, dialect) in grammars {
            let rest: Substring
            if prefix.isEmpty {
                rest = target
            } else if target.hasPrefix(prefix + "/") {
                rest = target.dropFirst(prefix.count)
            } else {
                continue
            }
            return dialect.map { .dialect($0, rest) } ?? .own(rest)
        }
        throw ServeFailure(404, "no URL grammar is served at this path (serve.dialects)")
    }
}
