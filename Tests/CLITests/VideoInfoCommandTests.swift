import Foundation
import Imago
import Testing

/// `imago info` describes a video: its poster's size and the container's facts (issue 38).
@Suite struct VideoInfoCommandTests {
    @Test func infoReportsTheVideosFacts() async throws {
        let fixtures = try Fixtures()
        let clip = fixtures.path("clip.mp4")
        let make = Process()
        make.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        make.arguments = [
            "-y", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=96x64:rate=8:duration=2", "-c:v", "libx264",
            "-preset", "ultrafast", "-pix_fmt", "yuv420p", clip,
        ]
        make.standardInput = FileHandle.nullDevice
        try make.run()
        make.waitUntilExit()
        #expect(make.terminationStatus == 0)
        let json = try await ImagoTool.run(["info", "--json", clip])
        #expect(json.status == 0, "\(json.stderr)")
        let line = try #require(try json.jsonLines().first)
        #expect(line["format"] as? String == "video")
        #expect(line["width"] as? Int == 96 && line["height"] as? Int == 64)
        let video = try #require(line["video"] as? [String: Any])
        #expect(video["codec"] as? String == "h264")
        #expect(video["frameCount"] as? Int == 16)
        #expect(video["duration"] as? Double == 2)
        let text = try await ImagoTool.run(["info", clip])
        #expect(
            text.stdout.contains("video: mov,mp4,m4a,3gp,3g2,mj2 h264 96x64, 2.00 s at 8 fps (16 frames)"),
            "\(text.stdout)")
    }
}
