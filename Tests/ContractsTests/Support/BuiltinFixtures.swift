import Foundation
import ImagoContracts
import ImagoCore
import ImagoTestSupport

/// Decoder fixtures for the built-in codecs, made by their own encoders from the contracts' sample images: a
/// lossless encoding must decode to exactly the original pixels, a lossy one within a tolerance.
enum BuiltinFixtures {
    static func make(
        _ encoder: any ImageEncoder, options: EncodeOptions = .default, tolerance: Int, smallTolerance: Int? = nil,
        alpha: Bool
    ) throws -> [DecoderFixture] {
        var fixtures: [DecoderFixture] = []
        for (width, height) in [(64, 48), (5, 3)] {
            let tolerance = width < 8 ? smallTolerance ?? tolerance : tolerance
            let image = try SampleImages.gradient(width: width, height: height, alpha: alpha)
            fixtures.append(
                DecoderFixture(
                    name: "\(width)x\(height) gradient", data: try encoder.encode(image, options: options),
                    width: width, height: height, pixels: .rgba(image.raster.pixels, tolerance: tolerance)))
        }
        if encoder.supportsAnimation {
            let animation = try SampleImages.animation(width: 16, height: 12, count: 3)
            fixtures.append(
                DecoderFixture(
                    name: "3-frame animation", data: try encoder.encode(animation, options: options), width: 16,
                    height: 12, frameCount: 3, pixels: .rgba(animation.raster.pixels, tolerance: tolerance)))
        }
        return fixtures
    }

    /// A PNG whose IHDR declares 100000x100000 pixels (with a valid CRC, so only the limit can refuse it).
    static func hugePNG(from png: Data) -> Data { PNGBytes.declaringSize(png, width: 100_000, height: 100_000) }

    /// A JPEG whose frame header declares 65000x65000 pixels (libjpeg's own maximum is 65500).
    static func hugeJPEG(from jpeg: Data) -> Data? {
        var bytes = [UInt8](jpeg)
        var offset = 2
        while offset + 9 < bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            if (0xC0...0xC2).contains(marker) {
                write(65000, bigEndian: 2, into: &bytes, at: offset + 5)
                write(65000, bigEndian: 2, into: &bytes, at: offset + 7)
                return Data(bytes)
            }
            offset += 2 + Int(bytes[offset + 2]) << 8 + Int(bytes[offset + 3])
        }
        return nil
    }

    /// A GIF whose screen and first image declare 65535x65535 pixels.
    static func hugeGIF(from gif: Data) -> Data? {
        var bytes = [UInt8](gif)
        guard bytes.count > 13 else { return nil }
        bytes[6] = 0xFF
        bytes[7] = 0xFF
        bytes[8] = 0xFF
        bytes[9] = 0xFF
        var offset = 13 + (bytes[10] & 0x80 != 0 ? 3 << (Int(bytes[10] & 7) + 1) : 0)
        // Skip extensions up to the first image descriptor.
        while offset < bytes.count, bytes[offset] == 0x21 {
            offset += 2
            while offset < bytes.count, bytes[offset] != 0 { offset += Int(bytes[offset]) + 1 }
            offset += 1
        }
        guard offset + 9 < bytes.count, bytes[offset] == 0x2C else { return nil }
        for index in (offset + 5)...(offset + 8) { bytes[index] = 0xFF }
        return Data(bytes)
    }

    /// An extended WebP whose canvas declares 16384x16384 pixels (268 MP, over the default 100 MP).
    static func hugeWebP(from webp: Data) -> Data? {
        var bytes = [UInt8](webp)
        guard bytes.count > 30, String(decoding: bytes[12..<16], as: UTF8.self) == "VP8X" else { return nil }
        for offset in [24, 27] {
            bytes[offset] = 0xFF
            bytes[offset + 1] = 0x3F
            bytes[offset + 2] = 0
        }
        return Data(bytes)
    }

    private static func write(_ value: Int, bigEndian count: Int, into bytes: inout [UInt8], at offset: Int) {
        for index in 0..<count { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * (count - 1 - index))) }
    }
}
