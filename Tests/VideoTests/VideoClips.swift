import Foundation
import Synchronization

/// Test clips made once per run by Debian's `ffmpeg` command, in a temporary folder.
enum VideoClips {
    static let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("imago-video-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()
    private static let made = Mutex<[String: Data]>([:])

    /// The clip `name`, made with `arguments` (inputs and encoding; the output path is added) the first time.
    static func clip(_ name: String, _ arguments: [String]) throws -> Data {
        if let data = made.withLock({ $0[name] }) { return data }
        let url = folder.appendingPathComponent(name)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-y", "-loglevel", "error", "-threads", "1"] + arguments + [url.path]
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "ffmpeg failed for \(name)"])
        }
        let data = try Data(contentsOf: url)
        made.withLock { $0[name] = data }
        return data
    }

    /// 160x120, 10 fps, 3 s of FFmpeg's test pattern, H.264 in MP4 (moov first).
    static func testPattern() throws -> Data {
        try clip(
            "pattern.mp4",
            [
                "-f", "lavfi", "-i", "testsrc=size=160x120:rate=10:duration=3", "-c:v", "libx264", "-preset",
                "ultrafast",
                "-pix_fmt", "yuv420p", "-movflags", "+faststart",
            ])
    }

    /// 1.5 s of black, then 1.5 s of the test pattern (H.264, MP4).
    static func blackLeadIn() throws -> Data {
        try clip(
            "black-lead-in.mp4",
            [
                "-f", "lavfi", "-i", "color=black:size=160x120:rate=10:duration=1.5", "-f", "lavfi", "-i",
                "testsrc=size=160x120:rate=10:duration=1.5", "-filter_complex", "[0:v][1:v]concat=n=2:v=1[v]", "-map",
                "[v]", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
            ])
    }

    /// The test pattern with a 90° rotation in the container's display matrix (FFmpeg 5.1 writes one when remuxing).
    static func rotated() throws -> Data {
        _ = try testPattern()
        return try clip(
            "rotated.mp4",
            ["-i", folder.appendingPathComponent("pattern.mp4").path, "-c", "copy", "-metadata:s:v:0", "rotate=90"])
    }

    /// 2 s of the test pattern in WebM (VP9).
    static func webm() throws -> Data {
        try clip(
            "pattern.webm",
            [
                "-f", "lavfi", "-i", "testsrc=size=160x120:rate=10:duration=2", "-c:v", "libvpx-vp9", "-deadline",
                "realtime", "-cpu-used", "8", "-b:v", "200k",
            ])
    }

    /// One frame at `seconds` of `name`'s clip as FFmpeg's own decoder and scaler give it, RGBA at `width` x `height`.
    static func referenceFrame(_ name: String, at seconds: Double, width: Int, height: Int) throws -> [UInt8] {
        let output = folder.appendingPathComponent("\(name)-\(seconds).rgba")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = [
            "-y", "-loglevel", "error", "-i", folder.appendingPathComponent(name).path, "-ss", "\(seconds)",
            "-frames:v", "1", "-s", "\(width)x\(height)", "-f", "rawvideo", "-pix_fmt", "rgba", output.path,
        ]
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return [UInt8](try Data(contentsOf: output))
    }

    /// `data` with every `avc1` sample entry's width and height set to 65535 (the most its 16-bit fields hold).
    static func claimingHugeSize(_ data: Data) -> Data {
        var bytes = [UInt8](data)
        let tag = Array("avc1".utf8)
        var index = 0
        while index + 40 < bytes.count {
            if Array(bytes[index..<(index + 4)]) == tag {
                // After the tag: 6 reserved, 2 data reference index, 16 pre-defined and reserved, then width, height.
                for offset in (index + 4 + 24)..<(index + 4 + 28) { bytes[offset] = 0xFF }
            }
            index += 1
        }
        return Data(bytes)
    }
}
