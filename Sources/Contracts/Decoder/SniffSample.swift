import Foundation
import ImagoCore

/// The first bytes of a file of some format, for checking that a decoder claims only its own.
public struct SniffSample: Sendable {
    /// Names the sample in failure messages.
    public var name: String
    /// The format the bytes belong to (`nil` for bytes of no format); a decoder of this format is not asked.
    public var format: ImageFormat?
    /// The bytes.
    public var header: Data

    /// Creates a sample.
    public init(name: String, format: ImageFormat?, header: Data) {
        self.name = name
        self.format = format
        self.header = header
    }

    /// Headers of common formats (PNG, JPEG, GIF, WebP, BMP, TIFF, ICO, AVIF, HEIC, PPM, SVG) and of no
    /// format (empty, zeros, text, noise), each as long as `ImageFormat.sniffLength` when it can be.
    public static let builtIn: [SniffSample] = {
        func sample(_ name: String, _ format: String?, _ bytes: [UInt8]) -> SniffSample {
            var padded = bytes
            var noise = SeededGenerator(seed: UInt64(bytes.count) &* 31 &+ UInt64(name.utf8.count))
            while padded.count < ImageFormat.sniffLength { padded.append(UInt8(truncatingIfNeeded: noise.next())) }
            return SniffSample(name: name, format: format.map { ImageFormat($0) }, header: Data(padded))
        }
        let ascii = { (text: String) in Array(text.utf8) }
        var noise = SeededGenerator(seed: 0x1_6A60)
        return [
            sample("png", "png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D] + ascii("IHDR")),
            sample("jpeg (JFIF)", "jpeg", [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + ascii("JFIF") + [0, 1, 1]),
            sample("jpeg (Exif)", "jpeg", [0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x22] + ascii("Exif") + [0, 0]),
            sample("gif87a", "gif", ascii("GIF87a") + [0x10, 0, 0x10, 0, 0x80, 0, 0]),
            sample("gif89a", "gif", ascii("GIF89a") + [0x10, 0, 0x10, 0, 0xF7, 0, 0]),
            sample("webp (lossy)", "webp", ascii("RIFF") + [0x24, 0, 0, 0] + ascii("WEBPVP8 ")),
            sample("webp (lossless)", "webp", ascii("RIFF") + [0x1A, 0, 0, 0] + ascii("WEBPVP8L")),
            sample("webp (extended)", "webp", ascii("RIFF") + [0x4A, 0, 0, 0] + ascii("WEBPVP8X")),
            sample("bmp", "bmp", ascii("BM") + [0x36, 0x04, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0, 0x28, 0, 0, 0]),
            sample("tiff (little-endian)", "tiff", ascii("II") + [0x2A, 0, 8, 0, 0, 0]),
            sample("tiff (big-endian)", "tiff", ascii("MM") + [0, 0x2A, 0, 0, 0, 8]),
            sample("ico", "ico", [0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0]),
            sample("avif", "avif", [0, 0, 0, 0x1C] + ascii("ftypavif") + [0, 0, 0, 0] + ascii("avifmif1")),
            sample("heic", "heic", [0, 0, 0, 0x18] + ascii("ftypheic") + [0, 0, 0, 0] + ascii("mif1heic")),
            sample("ppm", "ppm", ascii("P6\n16 16\n255\n")),
            sample("svg", "svg", ascii("<svg xmlns=\"http://www.w3.org/2000/svg\">")),
            SniffSample(name: "empty", format: nil, header: Data()),
            SniffSample(name: "zeros", format: nil, header: Data(count: ImageFormat.sniffLength)),
            SniffSample(name: "text", format: nil, header: Data("hello, this is not an image!!!!!".utf8)),
            SniffSample(name: "noise", format: nil, header: Data(noise.bytes(ImageFormat.sniffLength))),
        ]
    }()
}
