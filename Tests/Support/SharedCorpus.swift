import Foundation

/// The shared conformance corpus, which sits beside the checkout (`../shared/corpus`) or at `IMAGO_CORPUS`.
public enum SharedCorpus {
    /// `IMAGO_CORPUS` when set, else the `shared/corpus` of the nearest ancestor of the checkout that has one
    /// (a git worktree may sit deeper than the main checkout, for example /work/wt/NAME).
    public static var root: URL {
        if let path = ProcessInfo.processInfo.environment["IMAGO_CORPUS"] { return URL(fileURLWithPath: path) }
        // Tests/Support/SharedCorpus.swift -> the checkout.
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var folder = checkout.deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("shared/corpus")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        // Not found: the conventional place, so a failing read names a path that makes sense.
        return checkout.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    }

    /// A file of the corpus, by its path relative to the corpus root (`jpeg/exif-orientation/Landscape_1.jpg`).
    public static func file(_ relativePath: String) -> URL { root.appendingPathComponent(relativePath) }
}
