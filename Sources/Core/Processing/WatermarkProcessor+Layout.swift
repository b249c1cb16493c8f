/// Where the copies of a watermark go, and drawing them.
extension WatermarkProcessor {
    /// The left edges and the top edges of the copies (every left with every top), for a `mark` on an `image`.
    func layout(mark: (width: Int, height: Int), image: (width: Int, height: Int)) -> (xs: [Int], ys: [Int]) {
        let placed = gravity.placement(
            width: mark.width, height: mark.height, canvasWidth: image.width, canvasHeight: image.height)
        let shift = gravity.offsetShift(offset, side: (Double(image.width), Double(image.height)))
        let single = (x: placed.x + Int(shift.x.rounded()), y: placed.y + Int(shift.y.rounded()))
        switch tiling {
        case nil:
            return ([single.x], [single.y])
        case .grid(let gapX, let gapY):
            return (
                Self.grid(side: image.width, mark: mark.width, gap: gapX),
                Self.grid(side: image.height, mark: mark.height, gap: gapY)
            )
        case .spread(let horizontal, let vertical):
            var across = Self.spreadCount(side: image.width, mark: mark.width)
            var down = Self.spreadCount(side: image.height, mark: mark.height)
            if horizontal, vertical, across.count * down.count > 100 {
                // thumbor's cap: at most six a side, the rest of the side shared out as gaps.
                across.count = min(6, across.count)
                across.rest = image.width - across.count * mark.width
                down.count = min(6, down.count)
                down.rest = image.height - down.count * mark.height
            }
            return (
                horizontal ? Self.spread(across, mark: mark.width) : [single.x],
                vertical ? Self.spread(down, mark: mark.height) : [single.y]
            )
        }
    }

    /// imgproxy's replication: tiles of the mark and its gap (split before and after it), an odd number of them,
    /// the middle one centred on the side.
    static func grid(side: Int, mark: Int, gap: Int) -> [Int] {
        let tile = mark + gap
        var count = (side + tile - 1) / tile
        if count % 2 == 0 { count += 1 }
        let start = -((count * tile - side) / 2) + gap / 2
        return (0..<count).map { start + $0 * tile }
    }

    /// thumbor's count of copies along a side, and the pixels left for the gaps between them.
    static func spreadCount(side: Int, mark: Int) -> (count: Int, rest: Int) {
        if side < 2 * mark { return ((side + mark - 1) / mark, 10) }
        let (count, rest) = side.quotientAndRemainder(dividingBy: mark)
        return (count, rest)
    }

    /// The copies' edges along a side: from 0, with the rest shared out as equal gaps (rounded down, as Python's
    /// `//`).
    static func spread(_ counted: (count: Int, rest: Int), mark: Int) -> [Int] {
        let parts = max(counted.count, 2) - 1
        let gap = Int((Double(counted.rest) / Double(parts)).rounded(.down))
        return (0..<counted.count).map { $0 * (gap + mark) }
    }
}

extension Raster {
    /// This raster with a copy of `overlay` drawn at every left edge of `origins.xs` with every top edge of
    /// `origins.ys`, in order (parts outside are cut off), its alpha times `opacity`, straight alpha in and out.
    func composited(_ overlay: Raster, at origins: (xs: [Int], ys: [Int]), opacity: Double) throws -> Raster {
        let strength = Float(opacity) / 255
        return try withUnsafeBytes { base in
            try overlay.withUnsafeBytes { top in
                try Raster(width: width, height: height) { target in
                    for row in 0..<height {
                        UnsafeMutableRawBufferPointer(rebasing: target[(row * width * 4)..<((row + 1) * width * 4)])
                            .copyMemory(
                                from: UnsafeRawBufferPointer(
                                    rebasing: base[(row * bytesPerRow)..<(row * bytesPerRow + width * 4)]))
                    }
                    for y in origins.ys {
                        for x in origins.xs {
                            draw(top, overlay, x: x, y: y, strength: strength, into: target)
                        }
                    }
                }
            }
        }
    }

    /// One copy of `overlay` (its bytes `top`) drawn over `target` (this raster's size, tightly packed).
    private func draw(
        _ top: UnsafeRawBufferPointer, _ overlay: Raster, x: Int, y: Int, strength: Float,
        into target: UnsafeMutableRawBufferPointer
    ) {
        let left = max(0, x)
        let right = min(width, x + overlay.width)
        let first = max(0, y)
        let last = min(height, y + overlay.height)
        guard left < right, first < last else { return }
        for row in first..<last {
            for column in left..<right {
                let t = (row * width + column) * 4
                let s = (row - y) * overlay.bytesPerRow + (column - x) * 4
                let alphaTop = Float(top[s + 3]) * strength
                guard alphaTop > 0 else { continue }
                let alphaBase = Float(target[t + 3]) / 255
                let alpha = alphaTop + alphaBase * (1 - alphaTop)
                let baseWeight = alphaBase * (1 - alphaTop)
                for channel in 0..<3 {
                    let mixed = (Float(top[s + channel]) * alphaTop + Float(target[t + channel]) * baseWeight) / alpha
                    target[t + channel] = UInt8(min(255, max(0, mixed.rounded())))
                }
                target[t + 3] = UInt8(min(255, (alpha * 255).rounded()))
            }
        }
    }

    /// This raster with `levels` taken from every alpha value (down to 0).
    func reducingAlpha(by levels: Int) throws -> Raster {
        try withUnsafeBytes { source in
            try Raster(width: width, height: height) { target in
                for row in 0..<height {
                    for column in 0..<width {
                        let s = row * bytesPerRow + column * 4
                        let t = (row * width + column) * 4
                        for channel in 0..<3 { target[t + channel] = source[s + channel] }
                        target[t + 3] = UInt8(max(0, Int(source[s + 3]) - levels))
                    }
                }
            }
        }
    }
}
