/// Per-pixel colour operations (grayscale, brightness, contrast): one pass, one output raster.
extension Raster {
    /// A copy with `transform` applied to every pixel's bytes (`r`, `g`, `b`, `a` at offsets 0…3), straight alpha.
    func mappingPixels(_ transform: (UnsafeMutableRawBufferPointer, Int) -> Void) throws -> Raster {
        try withUnsafeBytes { source in
            try Raster(width: width, height: height) { target in
                copyRows(from: source, into: target)
                var offset = 0
                while offset < width * 4 * height {
                    transform(target, offset)
                    offset += 4
                }
            }
        }
    }

    /// Copies this raster's rows from `source` (its bytes, rows `bytesPerRow` apart) into `target`, rows packed.
    func copyRows(from source: UnsafeRawBufferPointer, into target: UnsafeMutableRawBufferPointer) {
        let rowBytes = width * 4
        for y in 0..<height {
            UnsafeMutableRawBufferPointer(rebasing: target[(y * rowBytes)..<((y + 1) * rowBytes)])
                .copyMemory(
                    from: UnsafeRawBufferPointer(rebasing: source[(y * bytesPerRow)..<(y * bytesPerRow + rowBytes)]))
        }
    }

    /// A copy with red, green and blue each looked up in its own table (alpha kept).
    func mappingColours(through tables: [[UInt8]]) throws -> Raster {
        precondition(tables.count == 3 && tables.allSatisfy { $0.count == 256 })
        return try mappingPixels { pixels, offset in
            for channel in 0..<3 {
                pixels[offset + channel] = tables[channel][Int(pixels[offset + channel])]
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
