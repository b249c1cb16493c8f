/// Per-pixel colour operations (grayscale, brightness, contrast): one pass, one output raster.
extension Raster {
    /// A copy with `transform` applied to every pixel's bytes (`r`, `g`, `b`, `a` at offsets 0…3), straight alpha.
    func mappingPixels(_ transform: (UnsafeMutableRawBufferPointer, Int) -> Void) throws -> Raster {
        try withUnsafeBytes { source in
            try Raster(width: width, height: height) { target in
                let rowBytes = width * 4
                for y in 0..<height {
                    let from = UnsafeRawBufferPointer(
                        rebasing: source[(y * bytesPerRow)..<(y * bytesPerRow + rowBytes)])
                    UnsafeMutableRawBufferPointer(rebasing: target[(y * rowBytes)..<((y + 1) * rowBytes)])
                        .copyMemory(from: from)
                }
                var offset = 0
                while offset < rowBytes * height {
                    transform(target, offset)
                    offset += 4
                }
            }
        }
    }

    /// A copy with each colour byte (not alpha) looked up in `table`.
    func mappingColours(through table: [UInt8]) throws -> Raster {
        try table.withUnsafeBufferPointer { table in
            try mappingPixels { pixels, offset in
                pixels[offset] = table[Int(pixels[offset])]
                pixels[offset + 1] = table[Int(pixels[offset + 1])]
                pixels[offset + 2] = table[Int(pixels[offset + 2])]
            }
        }
    }
}
