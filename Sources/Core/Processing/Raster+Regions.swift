/// Changing only some rectangles of an image (hiding faces): the rest of the pixels are copied as they are.
extension Raster {
    /// A rectangle of pixels.
    struct Rectangle: Equatable {
        var x: Int, y: Int, width: Int, height: Int
    }

    /// A copy whose `rectangles` are blurred by a Gaussian of `sigma`, computed with `padding` pixels of the
    /// surroundings (so a rectangle's edge blurs like its middle) and written back inside the rectangle only.
    func blurring(_ rectangles: [Rectangle], sigma: Double, premultiply: Bool) throws -> Raster {
        let padding = Int((3 * sigma).rounded(.up))
        let patches = try rectangles.map { rect in
            let left = max(0, rect.x - padding)
            let top = max(0, rect.y - padding)
            let right = min(width, rect.x + rect.width + padding)
            let bottom = min(height, rect.y + rect.height + padding)
            let blurred = try cropped(x: left, y: top, width: right - left, height: bottom - top)
                .boxBlurred(sigma: sigma, premultiply: premultiply)
            return (rect, blurred, left, top)
        }
        return try copy { target, targetStride in
            for (rect, patch, left, top) in patches {
                patch.withUnsafeBytes { source in
                    for row in 0..<rect.height {
                        let from = (rect.y - top + row) * patch.bytesPerRow + (rect.x - left) * 4
                        let to = (rect.y + row) * targetStride + rect.x * 4
                        UnsafeMutableRawBufferPointer(rebasing: target[to..<(to + rect.width * 4)])
                            .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[from..<(from + rect.width * 4)]))
                    }
                }
            }
        }
    }

    /// A copy whose `rectangles` are cut into `cell` × `cell` squares (from each rectangle's top-left corner; the
    /// last row and column may be narrower), each filled with its average colour (weighted by alpha).
    func pixelating(_ rectangles: [Rectangle], cell: Int) throws -> Raster {
        try copy { target, stride in
            for rect in rectangles {
                var cellTop = rect.y
                while cellTop < rect.y + rect.height {
                    let cellBottom = min(cellTop + cell, rect.y + rect.height)
                    var cellLeft = rect.x
                    while cellLeft < rect.x + rect.width {
                        let cellRight = min(cellLeft + cell, rect.x + rect.width)
                        var sums = SIMD4<UInt64>(repeating: 0)
                        for y in cellTop..<cellBottom {
                            for x in cellLeft..<cellRight {
                                let offset = y * stride + x * 4
                                let alpha = UInt64(target[offset + 3])
                                sums &+= SIMD4(
                                    UInt64(target[offset]) * alpha, UInt64(target[offset + 1]) * alpha,
                                    UInt64(target[offset + 2]) * alpha, alpha)
                            }
                        }
                        let count = UInt64((cellBottom - cellTop) * (cellRight - cellLeft))
                        let alpha = sums[3]
                        let pixel: SIMD4<UInt8> =
                            alpha == 0
                            ? .zero
                            : SIMD4(
                                UInt8((sums[0] + alpha / 2) / alpha), UInt8((sums[1] + alpha / 2) / alpha),
                                UInt8((sums[2] + alpha / 2) / alpha), UInt8((alpha + count / 2) / count))
                        for y in cellTop..<cellBottom {
                            for x in cellLeft..<cellRight {
                                target.storeBytes(of: pixel, toByteOffset: y * stride + x * 4, as: SIMD4<UInt8>.self)
                            }
                        }
                        cellLeft = cellRight
                    }
                    cellTop = cellBottom
                }
            }
        }
    }

    /// A copy of the pixels (rows as far apart as here) that `change` may alter before it is shared.
    private func copy(_ change: (UnsafeMutableRawBufferPointer, Int) throws -> Void) throws -> Raster {
        try Raster(width: width, height: height, bytesPerRow: bytesPerRow) { target in
            withUnsafeBytes { target.copyMemory(from: $0) }
            try change(target, bytesPerRow)
        }
    }
}

extension DetectionResult {
    /// The regions placed on an image of `size`, each grown by `margin` of its width and height on every side (hair
    /// and ears lie outside a detector's face box), kept inside the image.
    func rectangles(in size: PixelSize, margin: Double) -> [Raster.Rectangle] {
        regions(in: size).compactMap { region in
            let grownX = Int((Double(region.width) * margin).rounded())
            let grownY = Int((Double(region.height) * margin).rounded())
            return DetectedRegion(
                kind: region.kind, x: region.x - grownX, y: region.y - grownY, width: region.width + 2 * grownX,
                height: region.height + 2 * grownY, confidence: region.confidence
            ).clamped(to: size).map { Raster.Rectangle(x: $0.x, y: $0.y, width: $0.width, height: $0.height) }
        }
    }
}
