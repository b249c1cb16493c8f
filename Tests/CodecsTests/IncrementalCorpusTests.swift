import Foundation
import ImagoCodecs
import ImagoCore
import ImagoTestSupport
import Testing

/// The whole shared corpus through the incremental decoders: when they finish an image, it is the one-shot
/// decode's (they may refuse what the one-shot decode accepts: the loader then decodes in one shot).
@Suite struct IncrementalCorpusTests {
    func files(_ folders: [String]) -> [URL] {
        folders.flatMap { folder -> [URL] in
            let root = SharedCorpus.file(folder)
            guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
                return []
            }
            return walker.compactMap { $0 as? URL }.filter { !$0.hasDirectoryPath && $0.pathExtension != "md" }
        }.sorted { $0.path < $1.path }
    }

    func finish(_ decoder: some IncrementalImageDecoder, _ data: Data, chunkSize: Int) throws -> DecodedImage {
        var offset = 0
        while offset < data.count {
            let end = min(offset + chunkSize, data.count)
            let progress = try decoder.append(data.subdata(in: offset..<end))
            if progress.completedSteps > 0 { _ = try decoder.makePreview() }
            offset = end
        }
        return try decoder.finish()
    }

    @Test func incrementalJPEGDecodesEqualTheOneShotDecodes() async throws {
        try await offPool { try compareJPEGs() }
    }

    func compareJPEGs() throws {
        var compared = 0
        for url in files(["jpeg"]) {
            let data = try Data(contentsOf: url)
            guard let incremental = try? finish(JPEGIncrementalDecoder(), data, chunkSize: 113) else { continue }
            #expect(incremental == (try? JPEGCodec().decode(data)), "\(url.lastPathComponent)")
            compared += 1
        }
        if !files(["jpeg"]).isEmpty { #expect(compared > 20) }
    }

    @Test func incrementalPNGDecodesEqualTheOneShotDecodes() async throws {
        try await offPool { try comparePNGs() }
    }

    func comparePNGs() throws {
        var compared = 0
        for url in files(["pngsuite", "png-extra"]) {
            let data = try Data(contentsOf: url)
            let decoder = PNGIncrementalDecoder(decodesEveryImage: true)
            guard let incremental = try? finish(decoder, data, chunkSize: 113) else { continue }
            #expect(incremental == (try? PNGCodec().decode(data)), "\(url.lastPathComponent)")
            compared += 1
        }
        if !files(["pngsuite"]).isEmpty { #expect(compared > 100) }
    }
}

/// Runs long CPU-bound test work on a Dispatch thread, so it does not hold one of the few threads of Swift's
/// cooperative pool for seconds (the loader tests that run meanwhile need the pool to see their bytes arrive).
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
    }
}
