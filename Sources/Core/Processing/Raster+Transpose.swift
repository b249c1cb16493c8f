/// Fast paths for `oriented`: mirrors and half turns move whole rows (reversed or not), quarter turns walk the
/// source down its columns in 32 × 32 tiles, writing each target row in order. Pointer steps, no index arithmetic
/// per pixel.
extension Raster {
    /// The pixels turned as `orientation` says (any but `.up`).
    func transposed(_ orientation: ImageOrientation) throws -> Raster {
        switch orientation {
        case .up: return self
        case .upMirrored: return try rowsMapped(reverseRows: false, reversePixels: true)
        case .downMirrored: return try rowsMapped(reverseRows: true, reversePixels: false)
        case .down: return try rowsMapped(reverseRows: true, reversePixels: true)
        // Target (tx, ty) reads source column sx = f(ty), row sy = g(tx).
        case .right: return try quarterTurned(mirrorColumn: false, mirrorRow: true)
        case .left: return try quarterTurned(mirrorColumn: true, mirrorRow: false)
        case .leftMirrored: return try quarterTurned(mirrorColumn: false, mirrorRow: false)
        case .rightMirrored: return try quarterTurned(mirrorColumn: true, mirrorRow: true)
        }
    }

    private func rowsMapped(reverseRows: Bool, reversePixels: Bool) throws -> Raster {
        let (width, height, stride) = (self.width, self.height, bytesPerRow)
        return try withUnsafeBytes { raw in
            let source = raw.baseAddress!
            return try Raster(width: width, height: height) { buffer in
                let target = buffer.baseAddress!
                for y in 0..<height {
                    let from = source + (reverseRows ? height - 1 - y : y) * stride
                    let to = target + y * width * 4
                    if !reversePixels {
                        to.copyMemory(from: from, byteCount: width * 4)
                        continue
                    }
                    let words = to.assumingMemoryBound(to: UInt32.self)
                    var read = from + (width - 1) * 4
                    for x in 0..<width {
                        words[x] = read.loadUnaligned(as: UInt32.self)
                        read -= 4
                    }
                }
            }
        }
    }

    /// Target pixel (tx, ty) of the `height` × `width` result is source pixel (sx, sy) with sx = ty (or
    /// width − 1 − ty when `mirrorColumn`) and sy = tx (or height − 1 − tx when `mirrorRow`).
    private func quarterTurned(mirrorColumn: Bool, mirrorRow: Bool) throws -> Raster {
        let (width, height, stride) = (self.width, self.height, bytesPerRow)
        let (outWidth, outHeight) = (height, width)
        return try withUnsafeBytes { raw in
            let source = raw.baseAddress!
            return try Raster(width: outWidth, height: outHeight) { buffer in
                let target = buffer.baseAddress!.assumingMemoryBound(to: UInt32.self)
                let rowStep = mirrorRow ? -stride : stride
                let tile = 32
                for tileX in Swift.stride(from: 0, to: outWidth, by: tile) {
                    let count = min(tile, outWidth - tileX)
                    let firstRow = mirrorRow ? height - 1 - tileX : tileX
                    for ty in 0..<outHeight {
                        let column = mirrorColumn ? width - 1 - ty : ty
                        var read = source + firstRow * stride + column * 4
                        let write = target + ty * outWidth + tileX
                        for i in 0..<count {
                            write[i] = read.loadUnaligned(as: UInt32.self)
                            read += rowStep
                        }
                    }
                }
            }
        }
    }
}
