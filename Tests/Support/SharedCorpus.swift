import Foundation
import Testing

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

    /// Whether the corpus is here (its `reference.json` is).
    public static var isPresent: Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent("reference.json").path)
    }

    /// Whether its absence is a failure: `IMAGO_REQUIRE_CORPUS=1`, which `.ci/run` sets, so CI never skips it.
    public static var isRequired: Bool { ProcessInfo.processInfo.environment["IMAGO_REQUIRE_CORPUS"] == "1" }

    /// Called first by a test that reads the corpus. With the corpus, nothing. Without it the test is skipped
    /// (cancelled, which reports as skipped) with the reason, so a fresh clone with nothing beside it passes; with
    /// `IMAGO_REQUIRE_CORPUS=1` it fails instead.
    public static func require() throws {
        guard !isPresent else { return }
        if isRequired { throw Missing(root: root) }
        try Test.cancel(
            Comment(
                rawValue: "skipped: the shared corpus is absent (\(root.path), or IMAGO_CORPUS); "
                    + "IMAGO_REQUIRE_CORPUS=1 makes its absence a failure"))
    }

    /// The corpus is required and absent.
    public struct Missing: Error, CustomStringConvertible {
        public let root: URL
        public var description: String {
            "the shared corpus is required (IMAGO_REQUIRE_CORPUS=1) but absent: no \(root.path)/reference.json"
        }
    }
}
