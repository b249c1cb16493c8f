import Foundation
import ImagoCodecs
import ImagoCore
import ImagoTestSupport
import Testing

/// GIF frames on demand: the same frames as the all-frames decode, loop after loop, in the memory of one canvas.
@Suite struct GIFFrameSourceTests {
    /// Every frame of a loop from `source`.
    static func loop(_ source: any AnimationFrameSource) throws -> [ImageFrame] {
        var frames: [ImageFrame] = []
        while let frame = try source.nextFrame() { frames.append(frame) }
        return frames
    }

    @Test func everyCorpusGIFGivesTheAllFramesDecodeFrameByFrameOnEveryLoop() async throws {
        try SharedCorpus.require()
        let folder = SharedCorpus.file("gif")
        let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".gif") }.sorted()
        #expect(files.count >= 20)
        var compared = 0
        for file in files {
            await Task.yield()  // seconds in all: the pool's other tasks run between files
            let data = try Data(contentsOf: folder.appendingPathComponent(file))
            guard let whole = try? GIFCodec().decode(data) else {
                // What the decoder refuses whole, the source refuses too (before its first frame).
                #expect(throws: ImagoError.self, "\(file)") {
                    let source = try GIFCodec().makeFrameSource(data, options: .default)
                    _ = try Self.loop(source)
                }
                continue
            }
            let source = try GIFCodec().makeFrameSource(data, options: .default)
            for pass in 0..<2 {
                let frames = try Self.loop(source)
                #expect(frames.count == whole.frames.count, "\(file), loop \(pass)")
                let expected = whole.frames.count == 1 ? [whole.frames[0].raster] : whole.frames.map(\.raster)
                #expect(frames.map(\.raster) == expected, "\(file), loop \(pass): frames differ")
                if whole.frames.count > 1 { #expect(frames.map(\.duration) == whole.durations, "\(file)") }
                try source.rewind()
            }
            #expect(source.loopCount == whole.loopCount || whole.frames.count == 1, "\(file)")
            compared += 1
        }
        #expect(compared >= 20)
    }

    static func animation(frames: Int, side: Int = 64) -> Data {
        var file = GIFTestFile(
            width: side, height: side, palette: [[0, 0, 0], [255, 0, 0], [0, 255, 0], [0, 0, 255]])
        file.repeatCount = 0
        for index in 0..<frames {
            file.frames.append(
                GIFTestFile.Frame(
                    width: side, height: side, indices: [UInt8](repeating: UInt8(index % 4), count: side * side),
                    delayCentiseconds: 4))
        }
        return file.data
    }

    @Test func anAnimationTooLongToDecodeWholePlaysOnDemand() throws {
        var options = DecodeOptions.default
        options.limits.maxTotalPixels = 64 * 64 * 10  // ten canvases
        let data = Self.animation(frames: 40)
        let refused = #expect(throws: ImagoError.self) { try GIFCodec().decode(data, options: options) }
        #expect(refused?.kind == .limitExceeded)
        let source = try GIFCodec().makeFrameSource(data, options: options)
        let frames = try Self.loop(source)
        #expect(frames.count == 40 && source.loopCount == 0 && source.warnings.isEmpty)
        #expect(frames[5].raster.pixels[0...3] == [255, 0, 0, 255] && frames[6].raster.pixels[1] == 255)
    }

    @Test func aTruncatedAnimationPlaysItsGoodFramesThenEndsWithOneWarning() throws {
        let data = Self.animation(frames: 6)
        let truncated = data.prefix(data.count * 2 / 3)
        let whole = try GIFCodec().decode(truncated)
        let source = try GIFCodec().makeFrameSource(truncated, options: .default)
        let frames = try Self.loop(source)
        #expect(frames.count == whole.frames.count && frames.count >= 2 && frames.count < 6)
        #expect(source.warnings.count == 1)
        #expect(try source.nextFrame() == nil)
        try source.rewind()
        #expect(try Self.loop(source).count == frames.count)
        #expect(source.warnings.count == 1, "the same failure is not reported again")
    }

    @Test func garbageFailsBeforeTheFirstFrame() throws {
        #expect(throws: ImagoError.self) { try GIFCodec().makeFrameSource(Data("GIF89a".utf8), options: .default) }
        #expect(throws: ImagoError.self) { try GIFCodec().makeFrameSource(Data("nope".utf8), options: .default) }
    }
}
