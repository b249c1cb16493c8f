import Foundation
import ImagoCodecs
import ImagoCore
import Testing

/// What each codec says from the header before decoding is what the decode then allocates.
@Suite struct DecodedSizeEstimateTests {
    static let codecs: [any ImageDecoder & ImageEncoder & DecodedSizeEstimating] = [
        JPEGCodec(), PNGCodec(), GIFCodec(), WebPCodec(),
    ]

    @Test(arguments: [
        DecodeOptions.default,
        DecodeOptions(targetSize: PixelSize(width: 100, height: 100)),
        DecodeOptions(targetSize: PixelSize(width: 30, height: 30), contentMode: .fill),
    ])
    func theEstimateMatchesTheDecode(options: DecodeOptions) throws {
        let image = DecodedImage(raster: try TestImages.gradient(width: 400, height: 300), format: .png)
        for codec in Self.codecs {
            let data = try codec.encode(image, options: .default)
            let decoded = try codec.decode(data, options: options)
            let allocated = decoded.frames.reduce(0) { $0 + $1.raster.width * $1.raster.height * 4 }
            #expect(codec.decodedByteCount(data, options: options) == allocated, "\(codec.format) \(options)")
        }
    }

    @Test func countsEveryFrameOfAGIF() throws {
        let frames = try (0..<3).map {
            ImageFrame(raster: try TestImages.noise(width: 20, height: 10, seed: UInt64($0)))
        }
        let animation = DecodedImage(frames: frames, format: .gif, hasAlpha: false)
        let data = try GIFCodec().encode(animation, options: .default)
        #expect(GIFCodec().decodedByteCount(data, options: .default) == 3 * 20 * 10 * 4)
        #expect(GIFCodec().decodedByteCount(data, options: DecodeOptions(frames: .first)) == 20 * 10 * 4)
    }

    @Test func saysNothingForBytesOfAnotherFormat() throws {
        let garbage = Data("not an image at all, just text".utf8)
        for codec in Self.codecs { #expect(codec.decodedByteCount(garbage, options: .default) == nil) }
    }
}
