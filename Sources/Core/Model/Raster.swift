import Foundation

/// One RGBA pixel, 8 bits a channel, straight (unpremultiplied) alpha.
public struct RGBA: Hashable, Sendable, CustomStringConvertible {
    public var r: UInt8, g: UInt8, b: UInt8, a: UInt8

    /// Creates a pixel.
    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    public var description: String { "(\(r), \(g), \(b), \(a))" }
}

/// A portable bitmap: RGBA, 8 bits a channel, straight alpha, rows `bytesPerRow` apart.
///
/// Rasters are immutable values; the pixel memory comes from a `PixelBufferPool` and goes back to it
/// when the last copy is released.
public struct Raster: Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Distance between the starts of two rows, in bytes (at least `width * 4`).
    public let bytesPerRow: Int
    let storage: PixelStorage
    /// How much of the raster the picture covers, in its own pixels, when a reduced decode rounded its size up: a
    /// JPEG 1275 rows high decoded at 1/2 scale has 638 rows, the last one half covered, so its extent is 637.5 rows.
    /// The resampler maps source rectangles onto it, so the reduced image lines up with the full-size one (a half-row
    /// misalignment cost more SSIM than the reduction itself). nil: exactly `width` × `height`. Not part of `==`; a
    /// raster made from this one's pixels does not inherit it.
    package var extent: (width: Double, height: Double)?

    /// Bytes of memory the pixels take.
    public var cost: Int { bytesPerRow * height }

    /// Allocates a raster and lets `fill` write every byte of it (rows `bytesPerRow` apart) before it is shared.
    ///
    /// Throws `limitExceeded` when the size is not positive or overflows, or when the memory cannot be allocated.
    public init(
        width: Int, height: Int, bytesPerRow: Int? = nil, pool: PixelBufferPool = .shared,
        initializingWith fill: (UnsafeMutableRawBufferPointer) throws -> Void
    ) throws {
        let stride = bytesPerRow ?? width &* 4
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max), stride >= width * 4 else {
            throw ImagoError(.limitExceeded, "invalid raster size \(width)x\(height)")
        }
        let (count, overflow) = stride.multipliedReportingOverflow(by: height)
        guard !overflow else { throw ImagoError(.limitExceeded, "raster \(width)x\(height) is too large") }
        self.width = width
        self.height = height
        self.bytesPerRow = stride
        self.storage = try PixelStorage(byteCount: count, pool: pool)
        try fill(UnsafeMutableRawBufferPointer(rebasing: storage.buffer[0..<count]))
    }

    /// A raster from tightly packed RGBA bytes (`width * height * 4` of them).
    public init(width: Int, height: Int, pixels: [UInt8]) throws {
        guard pixels.count == width * height * 4 else {
            throw ImagoError(.invalidSource, "expected \(width * height * 4) RGBA bytes, got \(pixels.count)")
        }
        try self.init(width: width, height: height) { buffer in
            pixels.withUnsafeBytes { buffer.copyMemory(from: $0) }
        }
    }

    /// A raster of one colour.
    public init(width: Int, height: Int, fill color: RGBA) throws {
        try self.init(width: width, height: height) { buffer in
            let pixels = buffer.bindMemory(to: UInt32.self)
            let value = UInt32(color.r) | UInt32(color.g) << 8 | UInt32(color.b) << 16 | UInt32(color.a) << 24
            pixels.initialize(repeating: UInt32(littleEndian: value))
        }
    }

    /// Reads the pixel memory (`bytesPerRow * height` bytes).
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(rebasing: storage.buffer[0..<storage.byteCount]))
    }

    /// The pixels packed tightly (`width * 4` bytes a row), as a copy.
    public var pixels: [UInt8] {
        withUnsafeBytes { source in
            let rowBytes = width * 4
            if rowBytes == bytesPerRow { return Array(source) }
            var packed = [UInt8](repeating: 0, count: rowBytes * height)
            packed.withUnsafeMutableBytes { target in
                for y in 0..<height {
                    let from = UnsafeRawBufferPointer(
                        rebasing: source[(y * bytesPerRow)..<(y * bytesPerRow + rowBytes)])
                    UnsafeMutableRawBufferPointer(rebasing: target[(y * rowBytes)..<((y + 1) * rowBytes)])
                        .copyMemory(from: from)
                }
            }
            return packed
        }
    }

    /// The pixel at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> RGBA {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
        return withUnsafeBytes { bytes in
            let offset = y * bytesPerRow + x * 4
            return RGBA(bytes[offset], bytes[offset + 1], bytes[offset + 2], bytes[offset + 3])
        }
    }

    /// Whether any pixel is not fully opaque.
    public var hasTransparency: Bool {
        withUnsafeBytes { bytes in
            for y in 0..<height {
                var offset = y * bytesPerRow + 3
                for _ in 0..<width {
                    if bytes[offset] != 255 { return true }
                    offset += 4
                }
            }
            return false
        }
    }
}

extension Raster: Equatable {
    /// Rasters are equal when their size and visible pixels are (row padding is ignored).
    public static func == (lhs: Raster, rhs: Raster) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height && (lhs.storage === rhs.storage || lhs.pixels == rhs.pixels)
    }
}

extension UnsafeMutableRawBufferPointer {
    /// Allocates like `allocate(byteCount:alignment:)` (and is freed by `deallocate()`), but answers `nil` when the
    /// memory cannot be had instead of stopping the process: an image header may claim any size.
    static func allocateIfPossible(byteCount: Int, alignment: Int) -> UnsafeMutableRawBufferPointer? {
        var pointer: UnsafeMutableRawPointer?
        guard posix_memalign(&pointer, Swift.max(alignment, MemoryLayout<Int>.size), byteCount) == 0, let pointer
        else { return nil }
        return UnsafeMutableRawBufferPointer(start: pointer, count: byteCount)
    }
}

extension Raster {
    /// `xxh64:` and a hash of the pixels (seeded with the width): how a processor names an image it draws in its
    /// identifier when the caller gives no name (a watermark, a nine-patch frame).
    var pixelID: String {
        withUnsafeBytes { bytes in "xxh64:" + String(XXHash64.hash(bytes, seed: UInt64(width)), radix: 16) }
    }
}
