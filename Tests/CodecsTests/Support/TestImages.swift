import Foundation
import ImagoContracts
import ImagoCore
import ImagoTestSupport

/// Deterministic images for round trips.
enum TestImages {
    /// A raster of pseudo-random pixels; alpha is 255 unless `alpha`, and grey (r = g = b) when `gray`.
    static func noise(width: Int, height: Int, seed: UInt64 = 1, alpha: Bool = false, gray: Bool = false) throws
        -> Raster
    {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for index in stride(from: 0, to: pixels.count, by: 4) {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            let r = UInt8(truncatingIfNeeded: state)
            pixels[index] = r
            pixels[index + 1] = gray ? r : UInt8(truncatingIfNeeded: state >> 8)
            pixels[index + 2] = gray ? r : UInt8(truncatingIfNeeded: state >> 16)
            pixels[index + 3] = alpha ? UInt8(truncatingIfNeeded: state >> 24) : 255
        }
        return try Raster(width: width, height: height, pixels: pixels)
    }

    /// A smooth opaque gradient (what lossy codecs keep well): the contracts' sample gradient.
    static func gradient(width: Int, height: Int) throws -> Raster {
        try SampleImages.gradient(width: width, height: height).raster
    }

    /// The largest difference between two rasters' channels.
    static func maxDifference(_ a: Raster, _ b: Raster) -> Int {
        zip(a.pixels, b.pixels).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
    }

    /// A corpus file's bytes; a test calling this is skipped when the corpus is absent (failed with
    /// `IMAGO_REQUIRE_CORPUS=1`).
    static func corpusFile(_ path: String) throws -> Data {
        try SharedCorpus.require()
        return try Data(contentsOf: SharedCorpus.file(path))
    }
}

/// The error a throwing call threw, as an `ImagoError` (nil when it did not throw or threw something else).
func imagoError<T>(_ body: () throws -> T) -> ImagoError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error as? ImagoError
    }
}
