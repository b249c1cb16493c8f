import CImagoShim
import CPNG
import CSPNG
import Foundation
import Imago

/// Issue 28, PNG: libspng against libpng (what `PNGCodec` uses) on the serve floor's photo, interleaved, and the
/// whole public corpus decoded by both, compared byte for byte (`PNGCodec` with colour management off, since
/// libspng has none); then zlib levels and filters for the serve output (the floor's 512 px resize).
///
///     imago-bench png-spng [--runs N]
enum PNGSpngBenchmark {
    static func run(runs: Int) throws {
        let file = try ServeFloorInputs.files().first { $0.format == .png }!.url
        let data = try Data(contentsOf: file)
        let codec = PNGCodec()
        var plain = DecodeOptions()
        plain.colorProfiles = .ignore
        let floor = imago_floor_create()!
        defer { imago_floor_destroy(floor) }
        var buffer = [UInt8]()
        var spngBuffer = [UInt8]()
        let paths: [(String, () throws -> Void)] = [
            ("libpng (simplified API, floor)", { _ = try libpngDecode(data, into: &buffer) }),
            ("libspng RGBA8 (reused buffer)", { _ = try spngDecode(data, into: &spngBuffer) }),
            ("PNGCodec (libpng)", { _ = try codec.decode(data, options: plain) }),
        ]
        var times = [[Double]](repeating: [], count: paths.count)
        for _ in 0..<runs {
            for (index, path) in paths.enumerated() {
                let start = processCPUMilliseconds()
                try path.1()
                times[index].append(processCPUMilliseconds() - start)
            }
        }
        print(
            "png-spng: decode of \(file.lastPathComponent) (\(data.count / 1024) KB), CPU ms, median (best) of \(runs)")
        for (index, path) in paths.enumerated() {
            print(
                String(format: "    %@ %7.2f (%7.2f)", path.0, BenchmarkCase.median(times[index]), times[index].min()!))
        }
        try compareCorpus(codec: codec, options: plain)
        try compressionLevels(data: data, floor: floor, runs: runs)
    }

    /// Every corpus PNG through both decoders.
    static func compareCorpus(codec: PNGCodec, options: DecodeOptions) throws {
        let corpus =
            ProcessInfo.processInfo.environment["IMAGO_CORPUS"]
            ?? FileManager.default.currentDirectoryPath + "/../shared/corpus"
        guard let walker = FileManager.default.enumerator(atPath: corpus) else { return }
        var (same, different, onlyOurs, onlySpng, neither) = (0, [String](), [String](), [String](), 0)
        for case let path as String in walker where path.hasSuffix(".png") {
            guard let data = FileManager.default.contents(atPath: corpus + "/" + path) else { continue }
            let ours = try? codec.decode(data, options: options)
            var pixels = [UInt8]()
            let theirs = try? spngDecode(data, into: &pixels)
            switch (ours, theirs) {
            case (let ours?, let theirs?):
                let ourPixels = ours.raster.withUnsafeBytes { Array($0) }
                if ours.width == theirs.width && ours.height == theirs.height && ourPixels == pixels {
                    same += 1
                } else {
                    different.append(path)
                }
            case (_?, nil): onlyOurs.append(path)
            case (nil, _?): onlySpng.append(path)
            case (nil, nil): neither += 1
            }
        }
        print(
            "    corpus: \(same) identical, \(different.count) different, \(onlyOurs.count) refused by libspng only, "
                + "\(onlySpng.count) refused by PNGCodec only, \(neither) refused by both")
        for path in different.prefix(12) { print("      different: \(path)") }
        for path in onlyOurs.prefix(6) { print("      libspng refuses: \(path)") }
        for path in onlySpng.prefix(6) { print("      PNGCodec refuses: \(path)") }
    }

    /// The serve output (512x340 RGB) at each zlib level, with libpng's default filters and with none.
    static func compressionLevels(data: Data, floor: OpaquePointer, runs: Int) throws {
        var buffer = [UInt8]()
        let (width, height) = try libpngDecode(data, into: &buffer)
        let (outWidth, outHeight) = (UInt32(512), UInt32((height * 512 + width / 2) / width))
        _ = buffer.withUnsafeBytes {
            imago_floor_resize(
                floor, $0.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt32(width), UInt32(height), width * 4,
                outWidth, outHeight)
        }
        print("    PNG output \(outWidth)x\(outHeight): zlib level, filters: CPU ms median, KB")
        for level in [1, 3, 6, 9] {
            for (name, filters) in [
                ("default", Int32(0)), ("none", Int32(0x08)), ("sub", Int32(0x10)), ("paeth", Int32(0x80)),
            ] {
                var times: [Double] = []
                var size = 0
                for _ in 0..<runs {
                    let start = processCPUMilliseconds()
                    size = imago_floor_png_encode(floor, outWidth, outHeight, Int32(level), filters)
                    times.append(processCPUMilliseconds() - start)
                }
                print(
                    String(
                        format: "      level %d %-8@ %6.2f ms %6d KB", level, name, BenchmarkCase.median(times),
                        size / 1024))
            }
        }
    }

    /// libspng to RGBA8 (tRNS applied, no gamma) into `buffer`, which is grown when too small.
    static func spngDecode(_ data: Data, into buffer: inout [UInt8]) throws -> (width: Int, height: Int) {
        guard let context = spng_ctx_new(0) else { throw BenchmarkFailure("spng_ctx_new") }
        defer { spng_ctx_free(context) }
        return try data.withUnsafeBytes { bytes in
            guard spng_set_png_buffer(context, bytes.baseAddress, bytes.count) == 0 else {
                throw BenchmarkFailure("spng buffer")
            }
            var header = spng_ihdr()
            guard spng_get_ihdr(context, &header) == 0, header.width * header.height <= 50_000_000 else {
                throw BenchmarkFailure("spng header")
            }
            var size = 0
            let format = Int32(SPNG_FMT_RGBA8.rawValue)
            guard spng_decoded_image_size(context, format, &size) == 0 else { throw BenchmarkFailure("spng size") }
            if buffer.count != size { buffer = [UInt8](repeating: 0, count: size) }
            let status = buffer.withUnsafeMutableBytes {
                spng_decode_image(context, $0.baseAddress, size, format, Int32(SPNG_DECODE_TRNS.rawValue))
            }
            guard status == 0 else { throw BenchmarkFailure("spng decode \(status)") }
            return (Int(header.width), Int(header.height))
        }
    }

    /// libpng's simplified API into a reused buffer (the serve floor's decode).
    static func libpngDecode(_ data: Data, into buffer: inout [UInt8]) throws -> (width: Int, height: Int) {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        let ok = data.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        guard ok != 0 else { throw BenchmarkFailure("libpng header") }
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        let count = Int(image.width * image.height * 4)
        if buffer.count < count { buffer = [UInt8](repeating: 0, count: count) }
        let done = buffer.withUnsafeMutableBytes {
            png_image_finish_read(&image, nil, $0.baseAddress, Int32(image.width * 4), nil)
        }
        guard done != 0 else { throw BenchmarkFailure("libpng decode") }
        return (Int(image.width), Int(image.height))
    }
}
