import Foundation
import ImagoAVIF
import ImagoCore
import Testing

/// AVIF image sequences frame by frame: the all-frames decode's frames, loop after loop.
@Suite struct AVIFFrameSourceTests {
    static func loop(_ source: any AnimationFrameSource) throws -> [ImageFrame] {
        var frames: [ImageFrame] = []
        while let frame = try source.nextFrame() { frames.append(frame) }
        return frames
    }

    @Test func framesOnDemandEqualTheAllFramesDecodeOnEveryLoop() throws {
        let data = try Fixture.data("anim.avif")
        let whole = try AVIFCodec().decode(data)
        #expect(whole.frames.count > 1)
        let source = try AVIFCodec().makeFrameSource(data, options: .default)
        for _ in 0..<2 {
            let frames = try Self.loop(source)
            #expect(frames.map(\.raster) == whole.frames.map(\.raster))
            #expect(frames.map(\.duration) == whole.durations)
            try source.rewind()
        }
        #expect(source.canvasSize == PixelSize(width: whole.width, height: whole.height))
        #expect(source.loopCount == 0 && source.warnings.isEmpty)
    }

    @Test func aStillAVIFIsAOneFrameSource() throws {
        let data = try Fixture.data("alpha.avif")
        let frames = try Self.loop(try AVIFCodec().makeFrameSource(data, options: .default))
        #expect(frames.map(\.raster) == [try AVIFCodec().decode(data).raster])
    }

    @Test func garbageIsRefusedWithATypedError() {
        #expect(throws: ImagoError.self) { try AVIFCodec().makeFrameSource(Data("nope".utf8), options: .default) }
    }
}
