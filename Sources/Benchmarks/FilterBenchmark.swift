import Foundation
import Imago

/// `imago-bench filters`: issue 24's filters on one 2000 × 1350 opaque image against Pillow's equivalents
/// (GaussianBlur, UnsharpMask, transpose, crop, expand, a pasted canvas), timed in a `python3` child in the same
/// run (medians of the same number of runs, Pillow's timed inside Python so its start-up is not counted); and a
/// smart cover (`w=512,h=512,fit=cover,g=sm`) against a centred one (goal: at most 1.2×).
enum FilterBenchmark {
    struct Case {
        let name: String
        let pillow: String  // a Python expression on `im`
        let processor: any ImageProcessor
    }

    static func cases() throws -> [Case] {
        [
            Case(
                name: "blur sigma 2", pillow: "im.filter(ImageFilter.GaussianBlur(2))",
                processor: try BlurProcessor(sigma: 2)),
            Case(
                name: "blur sigma 20", pillow: "im.filter(ImageFilter.GaussianBlur(20))",
                processor: try BlurProcessor(sigma: 20)),
            Case(
                name: "sharpen sigma 1", pillow: "im.filter(ImageFilter.UnsharpMask(1, 150, 3))",
                processor: try SharpenProcessor(sigma: 1)),
            Case(name: "rotate 90", pillow: "im.transpose(Image.ROTATE_270)", processor: RotateProcessor(.degrees90)),
            Case(name: "rotate 180", pillow: "im.transpose(Image.ROTATE_180)", processor: RotateProcessor(.degrees180)),
            Case(name: "flip h", pillow: "im.transpose(Image.FLIP_LEFT_RIGHT)", processor: FlipProcessor(.horizontal)),
            Case(
                name: "crop 1500x1000", pillow: "im.crop((100, 100, 1600, 1100))",
                processor: CropProcessor(x: 100, y: 100, width: 1500, height: 1000)),
            Case(
                name: "pad 50", pillow: "ImageOps.expand(im, border=50, fill=(255, 255, 255))",
                processor: try PadProcessor(all: 50)),
            Case(
                name: "extend 2400x1600", pillow: "extend(im)",
                processor: try ExtendProcessor(width: 2400, height: 1600)),
        ]
    }

    static let pillowScript = """
        import sys, time, json
        from PIL import Image, ImageFilter, ImageOps
        w, h, runs = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
        im = Image.frombytes("RGBA", (w, h), open(sys.argv[1], "rb").read()).convert("RGB")
        def extend(im):
            canvas = Image.new("RGB", (2400, 1600), (255, 255, 255))
            canvas.paste(im, ((2400 - im.width) // 2, (1600 - im.height) // 2))
            return canvas
        results = []
        for expression in sys.argv[5:]:
            timings = []
            for i in range(runs + 2):
                start = time.perf_counter()
                out = eval(expression)
                out.load()
                timings.append((time.perf_counter() - start) * 1000)
            timings = sorted(timings[2:])
            results.append(timings[len(timings) // 2])
        print(json.dumps(results))
        """

    static func run(runs: Int) throws {
        let (width, height) = (2000, 1350)
        let raster = try Raster(
            width: width, height: height, pixels: SyntheticImage.pixels(width: width, height: height, grain: 12))
        let image = DecodedImage(raster: raster, format: .jpeg, hasAlpha: false)
        let cases = try cases()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("imago-filters-\(getpid()).rgba")
        try Data(raster.pixels).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let pillow = try pillowTimings(
            file: file, width: width, height: height, runs: runs, expressions: cases.map(\.pillow))
        print("imago-bench filters: \(width)x\(height) opaque, median of \(runs) runs; Pillow in a python3 child")
        for (index, filter) in cases.enumerated() {
            var timings: [Double] = []
            for run in 0..<(runs + 2) {
                let elapsed = try BenchmarkCase.milliseconds { _ = try filter.processor.process(image) }
                if run >= 2 { timings.append(elapsed) }
            }
            let ours = BenchmarkCase.median(timings)
            let theirs = index < pillow.count ? pillow[index] : .nan
            print(
                filter.name.padding(toLength: 20, withPad: " ", startingAt: 0)
                    + String(format: "imago %8.2f ms  Pillow %8.2f ms  ratio %.2f", ours, theirs, ours / theirs))
        }
        // Smart against centred cover, w=512 (the window choice is all the difference).
        let centred = ResizeProcessor(width: 512, height: 512, mode: .fill)
        let smart = ResizeProcessor(width: 512, height: 512, mode: .fill, gravity: .smart)
        var centreTimes: [Double] = []
        var smartTimes: [Double] = []
        for run in 0..<(runs + 2) {
            let a = try BenchmarkCase.milliseconds { _ = try centred.process(image) }
            let b = try BenchmarkCase.milliseconds { _ = try smart.process(image) }
            if run >= 2 {
                centreTimes.append(a)
                smartTimes.append(b)
            }
        }
        let (c, s) = (BenchmarkCase.median(centreTimes), BenchmarkCase.median(smartTimes))
        print(
            "cover w=512".padding(toLength: 20, withPad: " ", startingAt: 0)
                + String(format: "centre %8.2f ms  smart %8.2f ms  ratio %.2f (goal <= 1.2)", c, s, s / c))
    }

    /// Pillow's median milliseconds for each expression.
    static func pillowTimings(file: URL, width: Int, height: Int, runs: Int, expressions: [String]) throws -> [Double] {
        let process = Process()
        let python = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") ? "/usr/bin/python3" : "python3"
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            [python, "-c", pillowScript, file.path, "\(width)", "\(height)", "\(runs)"] + expressions
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let values = try JSONSerialization.jsonObject(with: data) as? [Double]
        else {
            print("Pillow run failed (status \(process.terminationStatus)): is python3-pil installed?")
            return []
        }
        return values
    }
}
