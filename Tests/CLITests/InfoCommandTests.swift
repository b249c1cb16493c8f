import Foundation
import Imago
import Testing

@Suite struct InfoCommandTests {
    @Test func describesAStillPNGWithTheContractKeys() async throws {
        let fixtures = try Fixtures()
        let path = try fixtures.redOverBluePNG(width: 16, height: 8)
        let result = try await ImagoTool.run(["info", "--json", path])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let line = try #require(try result.jsonLines().first)
        #expect(
            Set(line.keys) == [
                "source", "format", "width", "height", "storedWidth", "storedHeight", "frames", "loopCount",
                "durations", "totalDuration",
                "orientation", "hasAlpha", "bytes", "iccProfile", "colorProfile", "thumbhash", "blurhash", "warnings",
            ])
        #expect(line["iccProfile"] is NSNull)
        #expect((line["thumbhash"] as? String).flatMap { Data(base64Encoded: $0) }?.isEmpty == false)
        #expect((line["blurhash"] as? String)?.count == 28)
        #expect(line["colorProfile"] is NSNull)
        #expect((line["warnings"] as? [Any])?.isEmpty == true)
        #expect(line["source"] as? String == path)
        #expect(line["format"] as? String == "png")
        #expect(line["width"] as? Int == 16)
        #expect(line["height"] as? Int == 8)
        #expect(line["frames"] as? Int == 1)
        #expect(line["loopCount"] as? Int == 0)
        #expect(line["durations"] as? [Double] == [0])
        #expect(line["totalDuration"] as? Double == 0)
        #expect(line["orientation"] as? Int == 1)
        #expect(line["hasAlpha"] as? Bool == false)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        #expect(line["bytes"] as? Int == size)
    }

    @Test func describesAnAnimatedGIF() async throws {
        let fixtures = try Fixtures()
        let path = try fixtures.animation(as: .gif, name: "anim.gif")
        let line = try #require(try await ImagoTool.run(["info", "--json", path]).jsonLines().first)
        #expect(line["format"] as? String == "gif")
        #expect(line["frames"] as? Int == 3)
        #expect(line["loopCount"] as? Int == 0)
        let durations = try #require(line["durations"] as? [Double])
        #expect(durations.count == 3)
        #expect(zip(durations, [0.1, 0.2, 0.3]).allSatisfy { abs($0 - $1) < 0.011 })
    }

    @Test func reportsAFiniteLoopCount() async throws {
        let fixtures = try Fixtures()
        let path = try fixtures.animation(as: .gif, name: "twice.gif", loopCount: 2)
        let line = try #require(try await ImagoTool.run(["info", "--json", path]).jsonLines().first)
        #expect(line["loopCount"] as? Int == 2)
    }

    @Test func reportsTheUprightAndStoredSizesAndTheEXIFOrientation() async throws {
        let fixtures = try Fixtures()
        let path = try fixtures.orientedJPEG(name: "rotated.jpg", width: 12, height: 6, orientation: 6)
        let line = try #require(try await ImagoTool.run(["info", "--json", path]).jsonLines().first)
        #expect(line["format"] as? String == "jpeg")
        #expect(line["width"] as? Int == 6 && line["height"] as? Int == 12)
        #expect(line["storedWidth"] as? Int == 12)
        #expect(line["storedHeight"] as? Int == 6)
        #expect(line["orientation"] as? Int == 6)
    }

    @Test func readsDataURIs() async throws {
        let fixtures = try Fixtures()
        let path = try fixtures.redOverBluePNG()
        let uri = "data:image/png;base64," + (try Data(contentsOf: URL(fileURLWithPath: path))).base64EncodedString()
        let result = try await ImagoTool.run(["info", "--json", uri])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try result.jsonLines().first?["format"] as? String == "png")
    }

    @Test func eachFailedSourceGivesOneErrorLineAndExit1() async throws {
        let fixtures = try Fixtures()
        let good = try fixtures.redOverBluePNG()
        let text = try fixtures.notAnImage()
        let missing = fixtures.path("missing.png")
        let result = try await ImagoTool.run(["info", "--json", good, text, missing])
        #expect(result.status == 1)
        #expect(result.errorLines.count == 2, "\(result.stderr)")
        #expect(result.errorLines.first == "\(text): not an image: unknown format")
        #expect(result.errorLines.last?.hasPrefix("\(missing): ") == true)
        let lines = try result.jsonLines()
        #expect(lines.count == 3)
        let failure = try #require(lines[1]["error"] as? [String: Any])
        #expect(lines[1]["source"] as? String == text)
        #expect(failure["kind"] as? String == "decodingFailed")
        #expect(failure["message"] as? String == "not an image: unknown format")
        #expect(Set(lines[1].keys) == ["source", "error"])
    }

    @Test func textOutputNamesEachSource() async throws {
        let fixtures = try Fixtures()
        let path = try fixtures.redOverBluePNG()
        let result = try await ImagoTool.run(["info", path])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("\(path): png 16x8"))
    }

    @Test func aHugeHeaderIsRefusedBeforeDecoding() async throws {
        let fixtures = try Fixtures()
        // A GIF whose screen and only frame claim 60000x60000 pixels (3.6 gigapixels), with no pixel data.
        var bytes: [UInt8] = Array("GIF89a".utf8) + [0x60, 0xEA, 0x60, 0xEA, 0x00, 0x00, 0x00]
        bytes += [0x2C, 0x00, 0x00, 0x00, 0x00, 0x60, 0xEA, 0x60, 0xEA, 0x00, 0x02, 0x00, 0x3B]
        let path = fixtures.path("bomb.gif")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let result = try await ImagoTool.run(["info", path])
        #expect(result.status == 1)
        #expect(result.errorLines == ["\(path): too large: 60000x60000 exceeds the 100 MP limit"])
    }
}
