import Foundation

/// A file of the shared conformance corpus, which sits beside the checkout (`../shared/corpus`) or at `IMAGO_CORPUS`.
func sharedCorpusFile(_ relativePath: String) -> URL {
    if let path = ProcessInfo.processInfo.environment["IMAGO_CORPUS"] {
        return URL(fileURLWithPath: path).appendingPathComponent(relativePath)
    }
    // Tests/ImagoTests/Support/SharedCorpus.swift -> the checkout; a worktree may sit deeper, so try each ancestor.
    var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    while folder.path != "/" {
        let candidate = folder.appendingPathComponent("shared/corpus")
        if FileManager.default.fileExists(atPath: candidate.path) {
            return candidate.appendingPathComponent(relativePath)
        }
        folder = folder.deletingLastPathComponent()
    }
    return URL(fileURLWithPath: "/nonexistent/shared/corpus").appendingPathComponent(relativePath)
}
