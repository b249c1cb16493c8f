import Foundation
import ImagoCore

/// A sample file a decoder author supplies, with what decoding it must give.
public struct DecoderFixture: Sendable {
    /// Names the sample in failure messages.
    public var name: String
    /// The encoded bytes.
    public var data: Data
    /// Expected width in pixels (stored, before orientation).
    public var width: Int
    /// Expected height in pixels.
    public var height: Int
    /// Expected frame count (1 for still images).
    public var frameCount: Int
    /// What the first frame's pixels must be.
    public var pixels: PixelExpectation

    /// Creates a fixture.
    public init(
        name: String, data: Data, width: Int, height: Int, frameCount: Int = 1, pixels: PixelExpectation = .sizeOnly
    ) {
        self.name = name
        self.data = data
        self.width = width
        self.height = height
        self.frameCount = frameCount
        self.pixels = pixels
    }
}

/// What a decoded frame's pixels must be.
public enum PixelExpectation: Sendable {
    /// Tightly packed RGBA (`width * height * 4` bytes), each channel within `tolerance`.
    case rgba([UInt8], tolerance: Int = 0)
    /// The lowercase hex SHA-256 of the tightly packed RGBA: an exact match.
    case sha256(String)
    /// Only the size and frame count are checked.
    case sizeOnly

    /// Why `raster` does not meet the expectation, or `nil` when it does.
    func mismatch(_ raster: Raster) -> String? {
        switch self {
        case .rgba(let expected, let tolerance):
            guard let delta = PixelDifference.maxChannelDelta(raster.pixels, expected) else {
                return "expected \(expected.count) RGBA bytes, decoded \(raster.width * raster.height * 4)"
            }
            return delta <= tolerance ? nil : "pixels differ by up to \(delta) per channel (tolerance \(tolerance))"
        case .sha256(let expected):
            let actual = SHA256.hex(raster.pixels)
            return actual == expected.lowercased() ? nil : "pixel SHA-256 is \(actual), expected \(expected)"
        case .sizeOnly:
            return nil
        }
    }
}
