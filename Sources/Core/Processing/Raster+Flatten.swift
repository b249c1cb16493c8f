extension Raster {
    /// The raster composited onto an opaque `background`: `a * pixel + (1 - a) * background` per channel on the
    /// straight alpha a `Raster` stores, rounded to nearest, alpha 255. For encoders of formats without alpha:
    /// dropping alpha instead would show the colours transparent pixels hide. An opaque raster is returned as is.
    public func flattened(onto background: RGBColor) throws -> Raster {
        guard hasTransparency else { return self }
        return try Raster(width: width, height: height) { target in
            withUnsafeBytes { source in
                let (bgR, bgG, bgB) = (UInt32(background.r), UInt32(background.g), UInt32(background.b))
                let rowBytes = width * 4
                for y in 0..<height {
                    var from = y * bytesPerRow
                    var to = y * rowBytes
                    for _ in 0..<width {
                        let alpha = UInt32(source[from + 3])
                        let rest = 255 - alpha
                        // (t + 127) / 255 rounds t / 255 to nearest: t / 255 never ends in exactly .5 (255 is odd).
                        target[to] = UInt8((alpha * UInt32(source[from]) + rest * bgR + 127) / 255)
                        target[to + 1] = UInt8((alpha * UInt32(source[from + 1]) + rest * bgG + 127) / 255)
                        target[to + 2] = UInt8((alpha * UInt32(source[from + 2]) + rest * bgB + 127) / 255)
                        target[to + 3] = 255
                        from += 4
                        to += 4
                    }
                }
            }
        }
    }
}

extension DecodedImage {
    /// Every frame composited onto `background` (see `Raster.flattened(onto:)`); `hasAlpha` becomes false.
    /// The image itself when no frame has a transparent pixel.
    public func flattened(onto background: RGBColor) throws -> DecodedImage {
        guard hasAlpha || frames.contains(where: { $0.raster.hasTransparency }) else { return self }
        var flat = self
        flat.frames = try frames.map {
            ImageFrame(raster: try $0.raster.flattened(onto: background), duration: $0.duration)
        }
        flat.hasAlpha = false
        return flat
    }
}
