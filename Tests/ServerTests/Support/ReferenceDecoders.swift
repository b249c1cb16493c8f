import Foundation
import Imago

/// The reference ThumbHash and BlurHash decoders (PyPI `thumbhash-python`, `blurhash`) in a Python child: the
/// interpreter is `$IMAGO_TEST_PYTHON`, else `/opt/imago-test-venv/bin/python3` (Scripts/setup.sh makes it). A
/// missing module fails the test.
enum ReferenceDecoders {
    struct Failure: Error, CustomStringConvertible { var description: String }

    static let script = """
        import sys, base64, json
        import blurhash
        from thumbhash.decode import thumbhash_to_rgba
        def average(pixels):
            s = [0.0, 0.0, 0.0]
            n = len(pixels) // 4
            for i in range(0, len(pixels), 4):
                for c in range(3): s[c] += pixels[i + c]
            return [v / n for v in s]
        width, height, rgba = thumbhash_to_rgba(base64.b64decode(sys.argv[1]))
        rows = blurhash.decode(sys.argv[2], 32, 32)
        flat = [v for row in rows for p in row for v in (p[0], p[1], p[2], 255)]
        print(json.dumps({"thumbhash": average(rgba), "blurhash": average(flat)}))
        """

    /// The average colour of the pictures the reference decoders draw.
    static func averages(thumbhash: String, blurhash: String) throws -> (thumbhash: [Double], blurhash: [Double]) {
        let environment = ProcessInfo.processInfo.environment["IMAGO_TEST_PYTHON"]
        let python = environment.flatMap { $0.isEmpty ? nil : $0 } ?? "/opt/imago-test-venv/bin/python3"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script, thumbhash, blurhash]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            let object = try JSONSerialization.jsonObject(with: data) as? [String: [Double]],
            let thumb = object["thumbhash"], let blur = object["blurhash"]
        else { throw Failure(description: "\(python) failed (\(process.terminationStatus))") }
        return (thumb, blur)
    }

    /// The average sRGB colour of `raster` (alpha ignored).
    static func average(_ raster: Raster) -> [Double] {
        var sums = [0.0, 0.0, 0.0]
        for y in 0..<raster.height {
            for x in 0..<raster.width {
                let pixel = raster[x, y]
                sums[0] += Double(pixel.r)
                sums[1] += Double(pixel.g)
                sums[2] += Double(pixel.b)
            }
        }
        return sums.map { $0 / Double(raster.width * raster.height) }
    }
}
