import ImagoCore

/// Geometry the tool needs on rasters: turning upright, cropping, fitting.
extension Raster {
    /// The raster turned so that an image stored with `orientation` shows upright.
    func applying(_ orientation: ImageOrientation) throws -> Raster {
        if orientation == .up { return self }
        let (outWidth, outHeight) = orientation.swapsDimensions ? (height, width) : (width, height)
        let sourceWidth = width, sourceHeight = height, stride = bytesPerRow
        return try withUnsafeBytes { source in
            try Raster(width: outWidth, height: outHeight) { output in
                for y in 0..<outHeight {
                    for x in 0..<outWidth {
                        // Where the upright pixel (x, y) is stored.
                        let (sx, sy): (Int, Int)
                        switch orientation {
                        case .up: (sx, sy) = (x, y)
                        case .upMirrored: (sx, sy) = (sourceWidth - 1 - x, y)
                        case .down: (sx, sy) = (sourceWidth - 1 - x, sourceHeight - 1 - y)
                        case .downMirrored: (sx, sy) = (x, sourceHeight - 1 - y)
                        case .leftMirrored: (sx, sy) = (y, x)
                        case .right: (sx, sy) = (y, sourceHeight - 1 - x)
                        case .rightMirrored: (sx, sy) = (sourceWidth - 1 - y, sourceHeight - 1 - x)
                        case .left: (sx, sy) = (sourceWidth - 1 - y, x)
                        }
                        let from = sy * stride + sx * 4
                        let to = (y * outWidth + x) * 4
                        output[to] = source[from]
                        output[to + 1] = source[from + 1]
                        output[to + 2] = source[from + 2]
                        output[to + 3] = source[from + 3]
                    }
                }
            }
        }
    }

    /// The part of the raster at (`x`, `y`) of `cropWidth` × `cropHeight`.
    func cropped(x: Int, y: Int, width cropWidth: Int, height cropHeight: Int) throws -> Raster {
        let stride = bytesPerRow
        return try withUnsafeBytes { source in
            try Raster(width: cropWidth, height: cropHeight) { output in
                for row in 0..<cropHeight {
                    let from = (y + row) * stride + x * 4
                    let to = row * cropWidth * 4
                    UnsafeMutableRawBufferPointer(rebasing: output[to..<(to + cropWidth * 4)])
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[from..<(from + cropWidth * 4)]))
                }
            }
        }
    }

    /// The raster scaled to fit inside `box` (aspect kept, at least 1 pixel a side); never enlarged when
    /// `enlarge` is false.
    func fitted(in box: PixelSize, enlarge: Bool = true) throws -> Raster {
        let scale = Swift.min(Double(box.width) / Double(width), Double(box.height) / Double(height))
        if !enlarge && scale >= 1 { return self }
        let newWidth = Swift.max(1, Int((Double(width) * scale).rounded()))
        let newHeight = Swift.max(1, Int((Double(height) * scale).rounded()))
        return try Resampler.resize(self, width: newWidth, height: newHeight)
    }

    /// The raster scaled to cover `box` and cropped to it, centred.
    func filled(to box: PixelSize) throws -> Raster {
        let scale = Swift.max(Double(box.width) / Double(width), Double(box.height) / Double(height))
        let scaledWidth = Swift.max(box.width, Int((Double(width) * scale).rounded()))
        let scaledHeight = Swift.max(box.height, Int((Double(height) * scale).rounded()))
        let scaled = try Resampler.resize(self, width: scaledWidth, height: scaledHeight)
        return try scaled.cropped(
            x: (scaledWidth - box.width) / 2, y: (scaledHeight - box.height) / 2, width: box.width, height: box.height)
    }
}
