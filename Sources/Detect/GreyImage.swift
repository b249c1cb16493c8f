import CImagoFaces
import ImagoCore

/// The shrunk, grey, histogram-equalised copy of an image the cascades run on.
struct GreyImage {
    let width: Int32
    let height: Int32
    let pixels: [UInt8]

    /// `raster` shrunk so its longest side is at most `longestSide` (never enlarged), by OpenCV.
    init(_ raster: Raster, longestSide: Int) throws {
        let scale = min(1, Double(longestSide) / Double(max(raster.width, raster.height)))
        let width = max(1, Int((Double(raster.width) * scale).rounded()))
        let height = max(1, Int((Double(raster.height) * scale).rounded()))
        var pixels = [UInt8](repeating: 0, count: width * height)
        var error = [CChar](repeating: 0, count: 512)
        let status = raster.withUnsafeBytes { source in
            pixels.withUnsafeMutableBufferPointer { grey in
                imago_faces_prepare(
                    source.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(raster.width),
                    Int32(raster.height), raster.bytesPerRow, grey.baseAddress, Int32(width), Int32(height), &error,
                    error.count)
            }
        }
        guard status == 0 else { throw FaceErrors.failure(error) }
        self.width = Int32(width)
        self.height = Int32(height)
        self.pixels = pixels
    }

    private init(width: Int32, height: Int32, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The image mirrored left to right.
    func mirrored() -> GreyImage {
        var flipped = pixels
        let (width, height) = (Int(self.width), Int(self.height))
        for row in 0..<height {
            flipped[(row * width)..<((row + 1) * width)].reverse()
        }
        return GreyImage(width: self.width, height: self.height, pixels: flipped)
    }
}

enum FaceErrors {
    /// A failure the shim described in `buffer`.
    static func failure(_ buffer: [CChar]) -> ImagoError {
        let reason = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return ImagoError(.processingFailed, "faces: " + reason)
    }
}
