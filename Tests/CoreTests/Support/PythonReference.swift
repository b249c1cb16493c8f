import Foundation
import ImagoTestSupport

@testable import ImagoCore

/// Reference results computed by Python in a child process: Pillow (Debian's `python3-pil`) for the pixel
/// operations, the PyPI packages `thumbhash-python` and `blurhash` for the placeholder hashes.
///
/// The interpreter is `$IMAGO_TEST_PYTHON` when set, else `/opt/imago-test-venv/bin/python3` (the virtual
/// environment Scripts/setup.sh makes, with system site packages so Pillow is seen), else `/usr/bin/python3`.
/// A missing module is a test failure naming it, never a skip.
enum PythonReference {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static var interpreter: String {
        if let path = ProcessInfo.processInfo.environment["IMAGO_TEST_PYTHON"], !path.isEmpty { return path }
        for path in ["/opt/imago-test-venv/bin/python3", "/usr/bin/python3"]
        where FileManager.default.isExecutableFile(atPath: path) {
            return path
        }
        return "python3"
    }

    /// Runs `script` with `arguments` (its `sys.argv[1...]`) and returns what it writes to stdout. The wait for the
    /// child is off the cooperative pool: on a loaded machine a Python start takes seconds, and waits of two tests
    /// at once stopped every other test (a Redis wait measured 13 s for a 0.75 s timeout).
    static func run(_ script: String, arguments: [String] = [], interpreter: String = interpreter) async throws -> Data
    {
        try await offPool { try runBlocking(script, arguments: arguments, interpreter: interpreter) }
    }

    private static func runBlocking(_ script: String, arguments: [String], interpreter: String) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: interpreter)
        process.arguments = ["-c", script] + arguments
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("imago-py-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errors) }
        let errorHandle = try FileHandle(forWritingTo: errors)
        defer { try? errorHandle.close() }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errorHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let message = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw Failure(description: "\(interpreter) failed (\(process.terminationStatus)): \(message)")
        }
        return data
    }

    /// Writes `raster` as raw RGBA to a temporary file, passes its path, width and height (then `arguments`), and
    /// reads back the image the script leaves in `out` (any Pillow mode; converted to RGBA).
    ///
    /// The script sees `im` (the raster as an RGBA Pillow image), `args`, and Pillow's `Image`, `ImageFilter`,
    /// `ImageOps`, `ImageChops`.
    static func image(
        _ script: String, _ raster: Raster, arguments: [String] = [], interpreter: String = interpreter
    ) async throws -> Raster {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("imago-raw-\(UUID().uuidString)")
        try Data(raster.pixels).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let program = """
            import sys
            from PIL import Image, ImageFilter, ImageOps, ImageChops
            im = Image.frombytes("RGBA", (int(sys.argv[2]), int(sys.argv[3])), open(sys.argv[1], "rb").read())
            args = sys.argv[4:]
            \(script.split(separator: "\n").joined(separator: "\n"))
            out = out.convert("RGBA")
            sys.stdout.buffer.write(b"%d %d\\n" % out.size + out.tobytes())
            """
        let data = try await run(
            program, arguments: [file.path, "\(raster.width)", "\(raster.height)"] + arguments, interpreter: interpreter
        )
        guard let newline = data.firstIndex(of: UInt8(ascii: "\n")) else {
            throw Failure(description: "no header from the reference script")
        }
        let header = String(decoding: data[data.startIndex..<newline], as: UTF8.self).split(separator: " ")
        guard header.count == 2, let width = Int(header[0]), let height = Int(header[1]) else {
            throw Failure(description: "bad header \(header)")
        }
        return try Raster(width: width, height: height, pixels: Array(data[(newline + 1)...]))
    }

    /// The peak signal-to-noise ratio of two rasters' RGBA bytes, in dB (infinity when equal, 0 when the sizes
    /// differ): the measure the thumbor comparisons use (30 dB is "within tolerance").
    static func psnr(_ a: Raster, _ b: Raster) -> Double {
        guard a.width == b.width, a.height == b.height else { return 0 }
        let squares = zip(a.pixels, b.pixels).reduce(0.0) { total, pair in
            let difference = Double(pair.0) - Double(pair.1)
            return total + difference * difference
        }
        let mean = squares / Double(a.width * a.height * 4)
        return mean == 0 ? .infinity : 10 * log10(255 * 255 / mean)
    }

    /// The largest difference between two rasters' bytes (Int.max when the sizes differ).
    static func maxDifference(_ a: Raster, _ b: Raster) -> Int {
        guard a.width == b.width, a.height == b.height else { return Int.max }
        return zip(a.pixels, b.pixels).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
    }
}

/// Test images.
enum TestImages {
    /// A deterministic pseudo-random generator (PCG-like) for noise.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 24
        }
    }

    /// A raster whose pixel (x, y) is `color(x, y)`.
    static func raster(_ width: Int, _ height: Int, _ color: (Int, Int) -> RGBA) throws -> Raster {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let p = color(x, y)
                pixels += [p.r, p.g, p.b, p.a]
            }
        }
        return try Raster(width: width, height: height, pixels: pixels)
    }

    /// A smooth gradient with some noise, opaque or with alpha varying from 40 to 255.
    static func photoLike(_ width: Int, _ height: Int, alpha: Bool, seed: UInt64 = 7) throws -> Raster {
        var generator = Generator(state: seed)
        return try raster(width, height) { x, y in
            let noise = Int(generator.next() % 41) - 20
            let clamp = { (v: Int) in UInt8(min(255, max(0, v))) }
            return RGBA(
                clamp(x * 255 / max(1, width - 1) + noise), clamp(y * 255 / max(1, height - 1) - noise),
                clamp(128 + noise * 2), alpha ? clamp(40 + (x + y) * 215 / max(1, width + height - 2)) : 255)
        }
    }

    /// A still image of `raster`.
    static func image(_ raster: Raster, hasAlpha: Bool? = nil) -> DecodedImage {
        DecodedImage(raster: raster, format: .png, hasAlpha: hasAlpha)
    }

    /// The package's root folder (for Docs/samples).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
}
