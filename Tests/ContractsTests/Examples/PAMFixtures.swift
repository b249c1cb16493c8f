import Foundation
import ImagoContracts
import ImagoCore

/// Sample files for `PAMCodec`'s contract: bytes and the pixels they must decode to.
enum PAMFixtures {
    /// A 3x2 `P6` with a comment in its header.
    static let rgb: DecoderFixture = {
        let pixels: [UInt8] = [255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30, 40, 50, 60, 255, 255, 255]
        var data = Data("P6\n# made by hand\n3 2\n255\n".utf8)
        data.append(contentsOf: pixels)
        return DecoderFixture(name: "3x2 P6", data: data, width: 3, height: 2, pixels: .rgba(rgba(fromRGB: pixels)))
    }()

    /// A 5x4 `P7 RGB_ALPHA` with varying alpha.
    static let rgba: DecoderFixture = {
        var pixels: [UInt8] = []
        for y in 0..<4 {
            for x in 0..<5 {
                let alpha = UInt8(255 - x * 40 - y * 10)
                pixels += [UInt8(x * 50), UInt8(y * 60), 128, alpha]
            }
        }
        var data = Data("P7\nWIDTH 5\nHEIGHT 4\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n".utf8)
        data.append(contentsOf: pixels)
        return DecoderFixture(name: "5x4 P7 RGB_ALPHA", data: data, width: 5, height: 4, pixels: .rgba(pixels))
    }()

    /// A 16x12 `P6` with MAXVAL 15, checked by hash.
    static let lowDepth: DecoderFixture = {
        var samples: [UInt8] = []
        var expected: [UInt8] = []
        for y in 0..<12 {
            for x in 0..<16 {
                let rgb = [UInt8(x), UInt8(y), UInt8((x + y) % 16)]
                samples += rgb
                expected += rgb.map { (sample: UInt8) -> UInt8 in UInt8(Int(sample) * 255 / 15) }
                expected.append(255)
            }
        }
        var data = Data("P6 16 12 15\n".utf8)
        data.append(contentsOf: samples)
        return DecoderFixture(
            name: "16x12 P6 MAXVAL 15", data: data, width: 16, height: 12, pixels: .sha256(SHA256.hex(expected)))
    }()

    static let all = [rgb, rgba, lowDepth]

    /// Headers declaring 100000x100000 pixels, which the default 100 MP limit refuses.
    static let hugeHeaders = [
        Data("P6\n100000 100000\n255\n".utf8),
        Data("P7\nWIDTH 100000\nHEIGHT 100000\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n".utf8),
    ]

    /// Samples of other formats; PPM headers are PAMCodec's own.
    static let foreignHeaders = SniffSample.builtIn.filter { $0.format != ImageFormat("ppm") }

    private static func rgba(fromRGB rgb: [UInt8]) -> [UInt8] {
        var pixels: [UInt8] = []
        for offset in stride(from: 0, to: rgb.count, by: 3) { pixels += rgb[offset..<(offset + 3)] + [255] }
        return pixels
    }
}
