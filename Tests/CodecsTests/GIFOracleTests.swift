import Foundation
import ImagoCodecs
import ImagoCore
import Testing

/// Our GIF pixels against giflib's own `gif2rgb` output (`oracles/giflib-gif2rgb/*.rgb`, 3 bytes a pixel).
///
/// gif2rgb paints every image's indices onto a screen filled with the background index, ignoring transparency
/// and disposal, then maps them through the last colour map. So it equals our last frame wherever our pixel is
/// opaque, provided later frames do not use transparency or disposal over each other (true of these files).
@Suite struct GIFOracleTests {
    @Test func opaquePixelsMatchGif2rgb() throws {
        let corpus = try GIFWebPCorpusTests.requireCorpus()
        let folder = corpus.root.appendingPathComponent("oracles/giflib-gif2rgb")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".rgb") }
        var matching: [String] = []
        for name in names.sorted() {
            let stem = String(name.dropLast(4))
            let oracle = try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
            let gif = try Data(contentsOf: corpus.root.appendingPathComponent("gif/giflib-pic/\(stem).gif"))
            let image = try GIFCodec().decode(gif)
            let raster = try #require(image.frames.last).raster
            #expect(oracle.count == raster.width * raster.height * 3, "\(stem): size")
            let pixels = raster.pixels
            var opaque = 0
            var differing = 0
            for pixel in 0..<Swift.min(oracle.count / 3, raster.width * raster.height)
            where pixels[pixel * 4 + 3] == 255 {
                opaque += 1
                if pixels[pixel * 4..<pixel * 4 + 3].elementsEqual(oracle[pixel * 3..<pixel * 3 + 3]) == false {
                    differing += 1
                }
            }
            #expect(differing == 0, "\(stem): \(differing) of \(opaque) opaque pixels differ from gif2rgb")
            #expect(opaque > 0, "\(stem): nothing opaque to compare")
            if differing == 0 && opaque > 0 { matching.append(stem) }
        }
        print("gif2rgb oracle: \(matching.count) of \(names.count) files match (\(matching.joined(separator: ", ")))")
        #expect(names.count == 8)
    }
}
