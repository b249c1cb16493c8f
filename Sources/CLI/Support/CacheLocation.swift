import Foundation

/// The disk cache's folder: `--cache-dir`, else `IMAGO_CACHE_DIR`, else `$XDG_CACHE_HOME/imago`, else
/// `~/.cache/imago`.
enum CacheLocation {
    static func directory(override: String? = nil) -> URL {
        if let override, !override.isEmpty { return URL(fileURLWithPath: override) }
        let environment = ProcessInfo.processInfo.environment
        if let folder = environment["IMAGO_CACHE_DIR"], !folder.isEmpty { return URL(fileURLWithPath: folder) }
        if let base = environment["XDG_CACHE_HOME"], !base.isEmpty {
            return URL(fileURLWithPath: base).appendingPathComponent("imago")
        }
        let home =
            environment["HOME"].map { URL(fileURLWithPath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".cache").appendingPathComponent("imago")
    }
}
