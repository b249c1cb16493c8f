import Foundation
import ImagoCore
import Testing

@testable import ImagoCodecs

/// `GIFStructure` counts frames from the block structure, so an animation is checked before it is drawn.
@Suite struct GIFStructureTests {
    static func count(_ data: Data) -> Int { data.withUnsafeBytes { GIFStructure.summarize($0).frames } }

    @Test func countsTheFramesOfAnAnimation() {
        for frames in [1, 2, 7] {
            var file = GIFTestFile(width: 6, height: 4, palette: GIFCodecTests.palette)
            file.frames = Array(
                repeating: .init(width: 3, height: 2, indices: GIFCodecTests.solid(1, 3, 2)), count: frames)
            #expect(Self.count(file.data) == frames)
        }
    }

    @Test func neverCountsFewerFramesThanTheDecoderDrawsInTheCorpus() throws {
        let corpus = try CorpusReference.load()
        let gifs = corpus.entries(in: "gif")
        #expect(gifs.count > 50)
        var exact = 0
        for entry in gifs {
            let data = try corpus.data(entry)
            guard let image = try? GIFCodec().decode(data) else { continue }
            let counted = Self.count(data)
            #expect(counted >= image.frames.count, "\(entry.file): counted \(counted), decoded \(image.frames.count)")
            if entry.file.hasPrefix("gif/giflib-pic/") {
                #expect(counted == image.frames.count, "\(entry.file)")
                exact += 1
            }
        }
        #expect(exact >= 8)
    }

    /// Issue 35 took `gif/pillow/issue_2811.gif` for a regression of the block walk. The walk follows it to its
    /// trailer (one image, as both references see); what stops the decode is its LZW minimum code size of 11,
    /// which giflib refuses, as it did at 0.1.0 (82d521b, whose corpus test expected the refusal too).
    @Test func theCorpusFileWithCodeSize11IsWalkedWholeAndRefusedWithTheReason() throws {
        let corpus = try CorpusReference.load()
        let entry = try #require(corpus.entries(in: "gif").first { $0.file == "gif/pillow/issue_2811.gif" })
        let data = try corpus.data(entry)
        let summary = data.withUnsafeBytes { GIFStructure.summarize($0) }
        #expect(summary.frames == 1)
        #expect(entry.pillow.frames == 1)
        for frames in [FrameSelection.all, .first] {
            let error = #expect(throws: ImagoError.self) {
                _ = try GIFCodec().decode(data, options: DecodeOptions(frames: frames))
            }
            #expect(error?.kind == .decodingFailed(format: .gif))
            #expect(error?.reason.contains("LZW minimum code size 11") == true, "\(error?.reason ?? "")")
        }
        let source = try GIFCodec().makeFrameSource(data, options: DecodeOptions())
        #expect(throws: ImagoError.self) { _ = try source.nextFrame() }
    }

    @Test func aCodeSizeOverEightIsNamedInTheError() throws {
        var file = GIFTestFile(width: 4, height: 2, palette: GIFCodecTests.palette)
        file.frames = [.init(width: 4, height: 2, indices: GIFCodecTests.solid(1, 4, 2), hasControl: false)]
        var bytes = [UInt8](file.data)
        // The code size follows the 10-byte descriptor that comes right after the global colour table.
        let descriptor = try #require(bytes.firstIndex(of: 0x2C))
        #expect(bytes[descriptor + 10] == 8)
        bytes[descriptor + 10] = 9
        let error = #expect(throws: ImagoError.self) { _ = try GIFCodec().decode(Data(bytes)) }
        #expect(error?.reason.contains("LZW minimum code size 9") == true, "\(error?.reason ?? "")")
    }

    @Test func stopsAtTheEndOfTruncatedOrForeignData() {
        var file = GIFTestFile(width: 6, height: 4, palette: GIFCodecTests.palette)
        file.frames = Array(repeating: .init(width: 6, height: 4, indices: GIFCodecTests.solid(1, 6, 4)), count: 3)
        let data = file.data
        #expect(Self.count(data.prefix(12)) == 0)
        #expect(Self.count(data.prefix(data.count - 5)) == 3)  // the cut last frame counts: an upper bound
        #expect(Self.count(Data("GIF89a".utf8) + Data(repeating: 0xFF, count: 40)) == 0)
    }

    @Test func aManyFrameBombIsRefusedFromItsFrameCountBeforeAnyFrameIsDrawn() {
        // A big screen with many 1x1 frames: every frame is a full-screen canvas, so the total is checked first.
        var file = GIFTestFile(width: 1000, height: 1000, palette: GIFCodecTests.palette)
        file.frames = Array(repeating: .init(width: 1, height: 1, indices: [0]), count: 50)
        let options = DecodeOptions(limits: DecodeLimits(maxTotalPixels: 5_000_000))
        let error = #expect(throws: ImagoError.self) { _ = try GIFCodec().decode(file.data, options: options) }
        #expect(error?.kind == .limitExceeded)
        // The error names the whole animation, not the frame where drawing would have stopped.
        #expect(error?.reason.contains("50 frames") == true, "\(error?.reason ?? "")")
        // The first frame alone is within the limits.
        let first = DecodeOptions(limits: options.limits, frames: .first)
        #expect((try? GIFCodec().decode(file.data, options: first))?.frames.count == 1)
    }
}
