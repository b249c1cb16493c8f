/// Pixel-exact geometry: crops and the eight EXIF orientations.
extension Raster {
    /// The pixels of the rectangle at (`x`, `y`) of `width` × `height`, which must lie inside the raster.
    public func cropped(x: Int, y: Int, width: Int, height: Int) throws -> Raster {
        guard x >= 0, y >= 0, width > 0, height > 0, x + width <= self.width, y + height <= self.height else {
            throw ImagoError(
                .processingFailed,
                "crop \(width)x\(height) at (\(x), \(y)) is outside the \(self.width)x\(self.height) image")
        }
        return try withUnsafeBytes { source in
            try Raster(width: width, height: height) { target in
                let rowBytes = width * 4
                for row in 0..<height {
                    let from = (y + row) * bytesPerRow + x * 4
                    UnsafeMutableRawBufferPointer(rebasing: target[(row * rowBytes)..<((row + 1) * rowBytes)])
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[from..<(from + rowBytes)]))
                }
            }
        }
    }

    /// The pixels turned upright as `orientation` says the stored ones must be shown.
    public func oriented(_ orientation: ImageOrientation) throws -> Raster {
        if orientation == .up { return self }
        return try transposed(orientation)
    }

    /// `oriented` computed pixel by pixel: the reference the fast paths (`transposed`) are tested against.
    func orientedByIndex(_ orientation: ImageOrientation) throws -> Raster {
        let (outWidth, outHeight) = orientation.swapsDimensions ? (height, width) : (width, height)
        // Target position of source (x, y): tx = ax*x + bx*y + cx, ty = ay*x + by*y + cy.
        let w = width - 1
        let h = height - 1
        let (ax, bx, cx, ay, by, cy): (Int, Int, Int, Int, Int, Int) =
            switch orientation {
            case .up: (1, 0, 0, 0, 1, 0)
            case .upMirrored: (-1, 0, w, 0, 1, 0)
            case .down: (-1, 0, w, 0, -1, h)
            case .downMirrored: (1, 0, 0, 0, -1, h)
            case .leftMirrored: (0, 1, 0, 1, 0, 0)
            case .right: (0, -1, h, 1, 0, 0)
            case .rightMirrored: (0, -1, h, -1, 0, w)
            case .left: (0, 1, 0, -1, 0, w)
            }
        return try withUnsafeBytes { sourceBytes in
            try Raster(width: outWidth, height: outHeight) { targetBytes in
                let target = targetBytes.bindMemory(to: UInt32.self).baseAddress!
                let source = sourceBytes.baseAddress!
                // Tiles keep both the reads and the (transposed) writes within the cache.
                let tile = 64
                for tileY in stride(from: 0, to: height, by: tile) {
                    for tileX in stride(from: 0, to: width, by: tile) {
                        for y in tileY..<min(height, tileY + tile) {
                            let row = source + y * bytesPerRow
                            for x in tileX..<min(width, tileX + tile) {
                                let tx = ax * x + bx * y + cx
                                let ty = ay * x + by * y + cy
                                target[ty * outWidth + tx] = row.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
                            }
                        }
                    }
                }
            }
        }
    }
}
