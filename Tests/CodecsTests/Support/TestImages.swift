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

    /// CRC-32 (ISO-HDLC), as PNG chunks use.
    static func crc32<Bytes: Sequence>(_ bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// A PNG chunk: length, type, data, CRC.
    static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return bigEndian(UInt32(data.count)) + typeBytes + data + bigEndian(crc32(typeBytes + data))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [
            UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8),
            UInt8(truncatingIfNeeded: value),
        ]
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
