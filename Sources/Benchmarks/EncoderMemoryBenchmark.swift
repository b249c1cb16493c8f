import Foundation
import Imago

/// Issue 33's encoder memory: each encoder's peak memory beyond its input, per output megapixel, measured in a
/// child process per case (`/proc/self/status` VmHWM against the resident size just before the encode), so no
/// encode's freed heap hides the next one's. `imago-bench encoder-memory [FORMAT…]` prints a table of the peak added
/// at each size and the bytes per pixel beyond a fixed part; the estimates of `EncoderMemoryEstimating` come from it.
///
/// The image is a photograph-like gradient with noise (every encoder's worst case is incompressible detail),
/// enlarged as `w=…,h=…,fit=fill,enlarge=1` would make it, at the encoders' default settings.
enum EncoderMemoryBenchmark {
    /// The output sizes measured, in pixels (1, 4, 12 MP; animations: 20 and 40 frames of 0.25 MP).
    static let stills = [(1000, 1000), (2000, 2000), (4000, 3000)]
    static let formats = ["jpeg", "png", "webp", "gif", "avif", "heic", "jxl"]

    static func run(_ arguments: [String]) throws {
        if arguments.first == "--child" {
            try child(Array(arguments.dropFirst()))
            return
        }
        let chosen = arguments.isEmpty ? formats : arguments.filter(formats.contains)
        print("encoder-memory: peak resident memory added by one encode, beyond its input (MiB); default settings")
        print("format  1MP    4MP    12MP   bytes/px  fixed MiB   anim 20x0.25MP  40x0.25MP")
        for format in chosen {
            let peaks = try stills.map { try measure(format, width: $0.0, height: $0.1, frames: 1) }
            // A line through the 4 MP and 12 MP points: the per-pixel slope, and what is left at zero.
            let perPixel = Double(peaks[2] - peaks[1]) / Double(12_000_000 - 4_000_000)
            let fixed = Double(peaks[1]) - perPixel * 4_000_000
            var line = "\(format.padding(toLength: 7, withPad: " ", startingAt: 0))"
            for peak in peaks { line += String(format: " %6.1f", Double(peak) / 1_048_576) }
            line += String(format: "   %6.1f    %6.1f", perPixel, fixed / 1_048_576)
            if ["gif", "webp", "avif"].contains(format) {
                let animated = try [20, 40].map { try measure(format, width: 500, height: 500, frames: $0) }
                line += String(
                    format: "        %6.1f      %6.1f", Double(animated[0]) / 1_048_576,
                    Double(animated[1]) / 1_048_576)
            }
            print(line)
        }
    }

    /// The peak added by one encode, run in a child process.
    static func measure(_ format: String, width: Int, height: Int, frames: Int) throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["encoder-memory", "--child", format, "\(width)", "\(height)", "\(frames)"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let bytes = Int(String(decoding: output, as: UTF8.self).trimmed) else {
            throw ImagoError(.encodingFailed(format: ImageFormat(format)), "the \(format) child failed")
        }
        return bytes
    }

    /// In the child: makes the image, notes the resident size, encodes, prints the peak's excess in bytes.
    static func child(_ arguments: [String]) throws {
        guard arguments.count == 4, let width = Int(arguments[1]), let height = Int(arguments[2]),
            let frames = Int(arguments[3])
        else { throw ImagoError(.invalidConfiguration, "--child FORMAT WIDTH HEIGHT FRAMES") }
        let format = ImageFormat(arguments[0])
        let encoder = PluginRegistry.standard().encoder(for: format)!
        let image = DecodedImage(
            frames: try (0..<frames).map { ImageFrame(raster: try photoLike(width, height, seed: $0), duration: 0.1) },
            format: format, hasAlpha: false)
        let before = resident()
        // The peak from here on: VmHWM is reset to the resident size now (Linux's clear_refs 5).
        try "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        let data = try encoder.encode(image, options: EncodeOptions(quality: 80, allFrames: frames > 1))
        let peak = highWaterMark()
        precondition(!data.isEmpty)
        print(max(0, peak - before))
    }

    /// A gradient with noise, like a photograph's detail at the pixel level.
    static func photoLike(_ width: Int, _ height: Int, seed: Int) throws -> Raster {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        var state = UInt64(seed + 1) &* 0x9E37_79B9_7F4A_7C15
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let noise = Int(state >> 59)
                let offset = (y * width + x) * 4
                pixels[offset] = UInt8(clamping: x * 255 / width + noise)
                pixels[offset + 1] = UInt8(clamping: y * 255 / height + noise)
                pixels[offset + 2] = UInt8(clamping: (x + y) * 127 / (width + height) + noise * 2)
            }
        }
        return try Raster(width: width, height: height, pixels: pixels)
    }

    static func resident() -> Int { status("VmRSS:") }
    static func highWaterMark() -> Int { status("VmHWM:") }

    /// A `kB` line of /proc/self/status, in bytes.
    static func status(_ key: String) -> Int {
        let text = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix(key) } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }
}

extension String {
    var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
