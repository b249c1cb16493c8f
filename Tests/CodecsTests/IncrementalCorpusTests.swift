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

    /// The files whose incremental decode finished (`compared`) and those of them that differ from the one-shot
    /// decode, worked out off the pool.
    func compare(
        _ folders: [String], _ decoders: @escaping @Sendable () -> (any IncrementalImageDecoder, any ImageDecoder)
    ) async throws -> (compared: Int, differing: [String]) {
        let urls = files(folders)
        return try await offPool {
            var compared = 0
            var differing: [String] = []
            for url in urls {
                let data = try Data(contentsOf: url)
                let (incremental, oneShot) = decoders()
                guard let image = try? self.finish(incremental, data, chunkSize: 113) else { continue }
                if image != (try? oneShot.decode(data)) { differing.append(url.lastPathComponent) }
                compared += 1
            }
            return (compared, differing)
        }
    }

    @Test func incrementalJPEGDecodesEqualTheOneShotDecodes() async throws {
        let (compared, differing) = try await compare(["jpeg"]) { (JPEGIncrementalDecoder(), JPEGCodec()) }
        #expect(differing.isEmpty, "\(differing)")
        if !files(["jpeg"]).isEmpty { #expect(compared > 20) }
    }

    @Test func incrementalPNGDecodesEqualTheOneShotDecodes() async throws {
        let (compared, differing) = try await compare(["pngsuite", "png-extra"]) {
            (PNGIncrementalDecoder(decodesEveryImage: true), PNGCodec())
        }
        #expect(differing.isEmpty, "\(differing)")
        if !files(["pngsuite"]).isEmpty { #expect(compared > 100) }
    }
}
