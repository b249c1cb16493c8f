import Foundation
import Imago

/// Test images, made in memory and encoded with the toolkit's own encoders, in a temporary folder.
final class Fixtures {
    let folder: URL
    let registry = PluginRegistry.standard()

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("imago-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// A path in the folder.
    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// A raster whose top half is `top` and bottom half `bottom`.
    static func split(width: Int, height: Int, top: RGBA, bottom: RGBA) throws -> Raster {
        var pixels: [UInt8] = []
        for y in 0..<height {
            let color = y < height / 2 ? top : bottom
            for _ in 0..<width { pixels += [color.r, color.g, color.b, color.a] }
        }
        return try Raster(width: width, height: height, pixels: pixels)
    }

    /// Encodes `image` as `format` with the registry's encoder.
    func encode(_ image: DecodedImage, as format: ImageFormat, options: EncodeOptions = .default) throws -> Data {
        guard let encoder = registry.encoder(for: format) else { throw TestFailure("no \(format) encoder") }
        return try encoder.encode(image, options: options)
    }

    /// Writes `image` as `name` in `format`; returns its path.
    @discardableResult
    func write(_ image: DecodedImage, as format: ImageFormat, name: String, options: EncodeOptions = .default) throws
        -> String
    {
        let path = path(name)
        try encode(image, as: format, options: options).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A red-over-blue PNG of `width` × `height`.
    @discardableResult
    func redOverBluePNG(name: String = "red-over-blue.png", width: Int = 16, height: Int = 8) throws -> String {
        let raster = try Self.split(width: width, height: height, top: RGBA(255, 0, 0), bottom: RGBA(0, 0, 255))
        return try write(DecodedImage(raster: raster, format: .png), as: .png, name: name)
    }

    /// A three-frame animation (red, green, blue; 0.1, 0.2, 0.3 s) looping forever, as `format`.
    func animation(as format: ImageFormat, name: String, loopCount: Int = 0) throws -> String {
        let colors = [RGBA(255, 0, 0), RGBA(0, 255, 0), RGBA(0, 0, 255)]
        let frames = try colors.enumerated().map { index, color in
            ImageFrame(raster: try Raster(width: 8, height: 6, fill: color), duration: Double(index + 1) / 10)
        }
        let image = DecodedImage(frames: frames, loopCount: loopCount, format: format, hasAlpha: false)
        return try write(image, as: format, name: name, options: EncodeOptions(lossless: true, allFrames: true))
    }

    /// A JPEG of `width` × `height` (left half white, right half black) carrying EXIF orientation `orientation`.
    func orientedJPEG(name: String, width: Int = 12, height: Int = 6, orientation: Int) throws -> String {
        var pixels: [UInt8] = []
        for _ in 0..<height {
            for x in 0..<width { pixels += x < width / 2 ? [255, 255, 255, 255] : [0, 0, 0, 255] }
        }
        let image = DecodedImage(raster: try Raster(width: width, height: height, pixels: pixels), format: .jpeg)
        let jpeg = try encode(image, as: .jpeg, options: EncodeOptions(quality: 95))
        let path = path(name)
        try Self.insertingEXIF(orientation: orientation, into: jpeg).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// `jpeg` with an APP1 EXIF segment holding only the orientation tag, right after SOI.
    static func insertingEXIF(orientation: Int, into jpeg: Data) -> Data {
        // TIFF little-endian header, one IFD with one entry: tag 0x0112 (orientation), SHORT, count 1.
        var tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0x01, 0x00]
        tiff += [0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, UInt8(orientation), 0x00, 0x00, 0x00]
        tiff += [0x00, 0x00, 0x00, 0x00]
        let payload: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        var result = Data(jpeg.prefix(2))
        result.append(contentsOf: segment)
        result.append(jpeg.dropFirst(2))
        return result
    }

    /// A file that is not an image.
    func notAnImage(name: String = "notes.txt") throws -> String {
        let path = path(name)
        try Data("hello, this is text".utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The decoded image at `path`, as stored.
    func decode(_ path: String) throws -> DecodedImage {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard let decoder = registry.decoder(for: data) else { throw TestFailure("\(path) is not an image") }
        return try decoder.decode(data)
    }

    /// A noisy picture (deterministic), which compresses differently at different qualities.
    func noisePNG(name: String, width: Int = 64, height: Int = 64) throws -> String {
        var state: UInt32 = 12345
        var pixels: [UInt8] = []
        for _ in 0..<(width * height) {
            for _ in 0..<3 {
                state = state &* 1_103_515_245 &+ 12345
                pixels.append(UInt8(truncatingIfNeeded: state >> 16))
            }
            pixels.append(255)
        }
        let raster = try Raster(width: width, height: height, pixels: pixels)
        return try write(DecodedImage(raster: raster, format: .png), as: .png, name: name)
    }
}
