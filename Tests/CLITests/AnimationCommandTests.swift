import Foundation
import Imago
import Testing

/// `convert --all-frames` of an animation streams frame by frame; `info` reads frames, duration and loops from the
/// file's structure, even for an animation too large to decode whole.
@Suite struct AnimationCommandTests {
    @Test func convertWritesEveryFrameWithItsDurationResized() async throws {
        let fixtures = try Fixtures()
        let source = try fixtures.animation(as: .gif, name: "anim.gif", loopCount: 2)
        let destination = fixtures.path("anim.webp")
        let result = try await ImagoTool.run(["convert", source, "-o", destination, "--all-frames", "--max-size", "4"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let written = try WebPCodec().decode(try Data(contentsOf: URL(fileURLWithPath: destination)))
        let original = try GIFCodec().decode(try Data(contentsOf: URL(fileURLWithPath: source)))
        #expect(written.frames.count == 3)
        #expect(written.durations == original.durations)
        #expect(written.loopCount == 2)
        #expect(written.width == 4)
    }

    @Test func convertOfATruncatedAnimationWritesTheGoodFramesWithOneWarning() async throws {
        let fixtures = try Fixtures()
        let source = try fixtures.animation(as: .gif, name: "anim.gif")
        let data = try Data(contentsOf: URL(fileURLWithPath: source))
        let truncated = fixtures.path("truncated.gif")
        try data.prefix(data.count - 12).write(to: URL(fileURLWithPath: truncated))
        let destination = fixtures.path("out.gif")
        let result = try await ImagoTool.run(["convert", truncated, "-o", destination, "--all-frames"])
        #expect(result.status == 0)
        #expect(result.stderr.components(separatedBy: "warning").count == 2)
        let written = try GIFCodec().decode(try Data(contentsOf: URL(fileURLWithPath: destination)))
        #expect(written.frames.count == 2)
    }

    @Test func infoCountsTheFramesOfAnAnimationTooLargeToDecodeWhole() async throws {
        let fixtures = try Fixtures()
        // 20 000 frames: over the default limit of 10 000 frames decoded together.
        var bytes = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 255, 255, 255]
        for _ in 0..<20_000 {
            bytes += [0x21, 0xF9, 4, 0, 5, 0, 0, 0]
            bytes += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0]
        }
        let path = fixtures.path("many.gif")
        try Data(bytes + [0x3B]).write(to: URL(fileURLWithPath: path))
        let result = try await ImagoTool.run(["info", path])
        #expect(result.status == 0)
        #expect(result.stdout.contains("20000 frames, 1000.00 s, plays 1x"))
        let json = try await ImagoTool.run(["info", "--json", path])
        let line = try #require(try json.jsonLines().first)
        #expect(line["frames"] as? Int == 20_000)
        #expect(line["loopCount"] as? Int == 1)
    }

    @Test func infoJSONNeverListsFewerDurationsThanFrames() async throws {
        let fixtures = try Fixtures()
        // 500 frames of 60 ms on a 1000x1000 screen: 500 MP together, over the 400 MP decoded at once, so info
        // decodes the first frame only (issue 35 saw "durations":[0] for such a file).
        var bytes = Array("GIF89a".utf8) + [0xE8, 0x03, 0xE8, 0x03, 0x80, 0, 0, 0, 0, 0, 255, 255, 255]
        bytes += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]
        for _ in 0..<500 {
            bytes += [0x21, 0xF9, 4, 0, 6, 0, 0, 0]
            bytes += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0]
        }
        let path = fixtures.path("five-hundred.gif")
        try Data(bytes + [0x3B]).write(to: URL(fileURLWithPath: path))
        let line = try #require(try await ImagoTool.run(["info", "--json", path]).jsonLines().first)
        #expect(line["frames"] as? Int == 500)
        #expect(line["durations"] is NSNull, "\(line["durations"] ?? "missing")")
        let total = try #require(line["totalDuration"] as? Double)
        #expect(abs(total - 30) < 0.001)

        // A small animation is decoded whole: one duration per frame, and their sum as the total.
        let small = try fixtures.animation(as: .gif, name: "small.gif")
        let whole = try #require(try await ImagoTool.run(["info", "--json", small]).jsonLines().first)
        #expect((whole["durations"] as? [Double])?.count == 3)
        #expect(abs((whole["totalDuration"] as? Double ?? 0) - 0.6) < 0.001)
    }
}
