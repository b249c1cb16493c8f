import Foundation
import Synchronization

@testable import ImagoCore

/// A lossy stand-in codec whose loss and size both follow its quality: each colour channel moves by a fixed
/// pseudo-random pattern scaled by `(100 − quality) × 0.25` levels (so DSSIM falls as quality rises, all but
/// monotonically), and the output carries `quality × bytesPerQuality` bytes of padding (so it grows). Without
/// alpha it flattens onto the background, as JPEG does. It counts its encodes and can be told to fail.
final class NoisyCodec: ImageEncoder, ImageDecoder {
    let format: ImageFormat
    let supportsAnimation = false
    let keepsAlpha: Bool
    let bytesPerQuality: Int
    let fails: Bool
    private let state = Mutex<[Int]>([])

    init(format: ImageFormat = .webp, keepsAlpha: Bool = true, bytesPerQuality: Int = 100, fails: Bool = false) {
        self.format = format
        self.keepsAlpha = keepsAlpha
        self.bytesPerQuality = bytesPerQuality
        self.fails = fails
    }

    /// The qualities encoded, in order.
    var qualities: [Int] { state.withLock { $0 } }

    func encode(_ image: DecodedImage, options: EncodeOptions) throws -> Data {
        state.withLock { $0.append(options.quality) }
        if fails { throw ImagoError(.encodingFailed(format: format), "told to fail") }
        let raster = keepsAlpha ? image.raster : try image.raster.flattened(onto: options.background)
        let amplitude = Double(100 - options.quality) * 0.25
        var generator = TestImages.Generator(state: 99)
        var bytes: [UInt8] = [
            UInt8(raster.width >> 8), UInt8(raster.width & 255), UInt8(raster.height >> 8),
            UInt8(raster.height & 255), keepsAlpha ? 1 : 0,
        ]
        bytes += raster.pixels.enumerated().map { index, value in
            let change = (Double(generator.next() % 2001) / 1000 - 1) * amplitude
            return index % 4 == 3 ? value : UInt8(min(255, max(0, (Double(value) + change).rounded())))
        }
        return Data(bytes) + Data(repeating: 0, count: options.quality * bytesPerQuality)
    }

    func canDecode(_ header: Data) -> Bool { true }

    func decode(_ data: Data, options: DecodeOptions) throws -> DecodedImage {
        let bytes = [UInt8](data)
        let width = Int(bytes[0]) << 8 | Int(bytes[1]), height = Int(bytes[2]) << 8 | Int(bytes[3])
        let raster = try Raster(width: width, height: height, pixels: Array(bytes[5..<(5 + width * height * 4)]))
        return DecodedImage(raster: raster, format: format, hasAlpha: bytes[4] == 1)
    }
}
