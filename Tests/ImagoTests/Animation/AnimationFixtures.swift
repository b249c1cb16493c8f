import Foundation
import Imago

/// Animations made in memory for the streaming tests: few colours a frame (so GIF keeps them exactly), each frame
/// different, durations of 40, 50 and 60 ms in turn.
enum AnimationFixtures {
    static func animation(frames count: Int, width: Int = 48, height: Int = 32, loopCount: Int = 3) throws
        -> DecodedImage
    {
        let frames = try (0..<count).map { index in
            var pixels = [UInt8](repeating: 255, count: width * height * 4)
            for y in 0..<height {
                for x in 0..<width {
                    let offset = (y * width + x) * 4
                    pixels[offset] = UInt8((x / 8 * 40 + index * 30) & 0xFF)
                    pixels[offset + 1] = UInt8((y / 8 * 50 + index * 10) & 0xFF)
                    pixels[offset + 2] = UInt8((index * 60) & 0xFF)
                }
            }
            return ImageFrame(
                raster: try Raster(width: width, height: height, pixels: pixels),
                duration: 0.04 + 0.01 * Double(index % 3))
        }
        return DecodedImage(frames: frames, loopCount: loopCount, format: .gif, hasAlpha: false)
    }

    /// `webp` (an animated WebP, so an extended `VP8X` file) with an `EXIF` chunk giving `orientation`: the flag set
    /// in `VP8X`, the chunk appended, the RIFF size fixed.
    static func withEXIFOrientation(_ webp: Data, _ orientation: UInt8) -> Data {
        var bytes = [UInt8](webp)
        precondition(bytes.count > 30 && String(decoding: bytes[12..<16], as: UTF8.self) == "VP8X")
        bytes[20] |= 0x08  // the EXIF flag
        // Little-endian TIFF, one IFD0 entry: tag 274 (orientation), SHORT, count 1.
        let tiff: [UInt8] = [
            0x49, 0x49, 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, orientation, 0, 0, 0, 0, 0, 0, 0,
        ]
        bytes += Array("EXIF".utf8) + littleEndian(UInt32(tiff.count)) + tiff
        bytes.replaceSubrange(4..<8, with: littleEndian(UInt32(bytes.count - 8)))
        return Data(bytes)
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// A GIF of `count` 1x1 frames written byte by byte (about 20 bytes a frame), to count many frames cheaply, on a
    /// canvas of `width` × `height` (a 7000 × 7000 one is the decompression bomb of issue 33: 269 bytes for 10
    /// frames).
    static func tinyFrameGIF(frames count: Int, width: Int = 1, height: Int = 1) -> Data {
        let size = [UInt8(width & 0xFF), UInt8(width >> 8), UInt8(height & 0xFF), UInt8(height >> 8)]
        var bytes = Array("GIF89a".utf8) + size + [0x80, 0, 0, 0, 0, 0, 255, 255, 255]
        bytes += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]
        for _ in 0..<count {
            // A graphics control extension of 2 centiseconds, then a 1x1 image: clear, index 0, end of information.
            bytes += [0x21, 0xF9, 4, 0, 2, 0, 0, 0]
            bytes += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0]
        }
        return Data(bytes + [0x3B])
    }

    /// What `/usr/bin/python3` with Pillow reads from `data`: the frame count, each frame's duration in ms, the size.
    static func pillowFrames(_ data: Data) throws -> (count: Int, durations: [Int], width: Int, height: Int) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("imago-anim-\(UUID().uuidString)")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let script = """
            import sys
            from PIL import Image
            im = Image.open(sys.argv[1])
            durations = []
            for i in range(im.n_frames):
                im.seek(i)
                im.load()
                durations.append(str(int(im.info.get("duration", 0))))
            print(im.n_frames, im.size[0], im.size[1], ",".join(durations))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let fields = text.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard process.terminationStatus == 0, fields.count == 4, let count = Int(fields[0]),
            let width = Int(fields[1]), let height = Int(fields[2])
        else { throw PillowFailure(output: text) }
        return (count, fields[3].split(separator: ",").compactMap { Int($0) }, width, height)
    }

    struct PillowFailure: Error {
        var output: String
    }
}
