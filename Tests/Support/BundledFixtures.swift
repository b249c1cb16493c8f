import Foundation
import ImagoCore

/// A test target's committed fixtures (made by Scripts/make-new-format-fixtures.sh) and their reference decoders'
/// pixels. A target conforms with its own `Bundle.module` folder; the readers and comparisons come from here.
public protocol BundledFixtures {
    /// The folder holding the fixtures.
    static var folder: URL { get }
}

extension BundledFixtures {
    /// Decoding that leaves an embedded profile alone, for comparing with reference decoders that do.
    public static var storedPixels: DecodeOptions { DecodeOptions(colorProfiles: .ignore) }

    /// The bytes of `name` (with its extension).
    public static func data(_ name: String) throws -> Data { try Data(contentsOf: folder.appendingPathComponent(name)) }

    /// Reference pixels `NAME.rgba` (tightly packed RGBA8) with their size from `NAME.size`.
    public static func reference(_ name: String) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        let size = try String(contentsOf: folder.appendingPathComponent(name + ".size"), encoding: .utf8)
            .split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        let pixels = [UInt8](try data(name + ".rgba"))
        return (size[0], size[1], pixels)
    }

    /// The largest difference of any channel between two rasters of one size (`Int.max` when the sizes differ).
    public static func maxDelta(_ raster: Raster, _ other: Raster) -> Int {
        maxDelta(raster, (other.width, other.height, other.pixels))
    }

    /// The largest difference of any channel, or `Int.max` when the sizes differ.
    public static func maxDelta(_ raster: Raster, _ reference: (width: Int, height: Int, pixels: [UInt8])) -> Int {
        guard raster.width == reference.width, raster.height == reference.height else { return Int.max }
        return zip(raster.pixels, reference.pixels).reduce(0) { Swift.max($0, abs(Int($1.0) - Int($1.1))) }
    }

    /// `data` with the first `ispe` box (image spatial extents) rewritten to declare `width` x `height`.
    public static func declaring(width: UInt32, height: UInt32, in data: Data) -> Data {
        var bytes = [UInt8](data)
        guard let index = (0..<(bytes.count - 16)).first(where: { bytes[$0..<($0 + 4)].elementsEqual("ispe".utf8) })
        else { return data }
        for (offset, value) in [(index + 8, width), (index + 12, height)] {
            for byte in 0..<4 { bytes[offset + byte] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(byte))) }
        }
        return Data(bytes)
    }
}
