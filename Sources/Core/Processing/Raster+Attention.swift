/// Imago's attention model, behind `Gravity.smart` (documented in Docs/Processing.md, "Smart crop").
///
/// 1. The image is reduced to a grid of at most 256 cells on its longest side: each cell averages its pixels
///    (a fixed sample of 2 × 2 of them for large cells), in premultiplied alpha.
/// 2. Each cell gets a saliency score, the sum of three cues:
///    - **edges**: twice the luminance gradient (|∂L/∂x| + |∂L/∂y|, central differences) above a noise floor of 6,
///    - **saturation**: the chroma (max − min of R, G, B) above 24,
///    - **skin**: 80 for a cell whose colour passes the RGB skin-tone rule of Peer et al. (R > 95, G > 40, B > 20,
///      R − G > 15, R > B, max − min > 15).
///    Transparent cells score nothing (the colours are premultiplied; the edge of an opaque shape does score).
/// 3. An integral image (summed-area table) of the scores gives any window's sum in four reads, so every
///    position of the target window is scored in one pass; the highest sum wins, ties going to the position
///    nearest the centre (a flat image is cut in the middle).
///
/// No face detector; the cost is one sampled pass over the image plus work on at most 256 × 256 cells.
extension Raster {
    /// The origin, in pixels, of the `width` × `height` window (no larger than the raster) with the most salient
    /// content.
    public func attentionWindow(width windowWidth: Double, height windowHeight: Double) -> (x: Double, y: Double) {
        let cell = max(1, (max(width, height) + 255) / 256)
        let gridWidth = (width + cell - 1) / cell
        let gridHeight = (height + cell - 1) / cell
        let scores = saliency(cell: cell, gridWidth: gridWidth, gridHeight: gridHeight)
        // Summed-area table, (gridWidth + 1) × (gridHeight + 1), zero first row and column.
        let stride = gridWidth + 1
        var table = [Int](repeating: 0, count: stride * (gridHeight + 1))
        for y in 0..<gridHeight {
            var rowSum = 0
            for x in 0..<gridWidth {
                rowSum += scores[y * gridWidth + x]
                table[(y + 1) * stride + x + 1] = table[y * stride + x + 1] + rowSum
            }
        }
        let cellsX = min(gridWidth, max(1, Int((windowWidth / Double(cell)).rounded())))
        let cellsY = min(gridHeight, max(1, Int((windowHeight / Double(cell)).rounded())))
        let freeX = gridWidth - cellsX
        let freeY = gridHeight - cellsY
        var best = (x: freeX / 2, y: freeY / 2, sum: Int.min, distance: Int.max)
        for y in 0...freeY {
            for x in 0...freeX {
                let sum =
                    table[(y + cellsY) * stride + x + cellsX] - table[y * stride + x + cellsX]
                    - table[(y + cellsY) * stride + x] + table[y * stride + x]
                // Twice the distance from the centred position, so half cells compare exactly.
                let distance = abs(2 * x - freeX) + abs(2 * y - freeY)
                if sum > best.sum || (sum == best.sum && distance < best.distance) {
                    best = (x, y, sum, distance)
                }
            }
        }
        // Centre the pixel window on the chosen cells' centre, inside the image.
        let centreX = (Double(best.x) + Double(cellsX) / 2) * Double(cell)
        let centreY = (Double(best.y) + Double(cellsY) / 2) * Double(cell)
        let maxX = max(0, Double(width) - windowWidth)
        let maxY = max(0, Double(height) - windowHeight)
        return (
            min(max(centreX - windowWidth / 2, 0), maxX).rounded(),
            min(max(centreY - windowHeight / 2, 0), maxY).rounded()
        )
    }

    /// The saliency score of each cell of `cell` × `cell` pixels, row by row.
    func saliency(cell: Int, gridWidth: Int, gridHeight: Int) -> [Int] {
        let step = max(1, cell / 2)
        let count = gridWidth * gridHeight
        // Premultiplied averages, 0…255.
        var red = [Float](repeating: 0, count: count)
        var green = red
        var blue = red
        withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self).baseAddress!
            for gy in 0..<gridHeight {
                let top = gy * cell
                let bottom = min(height, top + cell)
                for gx in 0..<gridWidth {
                    let left = gx * cell
                    let right = min(width, left + cell)
                    var sums = SIMD4<UInt32>(repeating: 0)
                    var samples: UInt32 = 0
                    var y = top
                    while y < bottom {
                        var pointer = bytes + y * bytesPerRow + left * 4
                        var x = left
                        while x < right {
                            let alpha = UInt32(pointer[3])
                            sums &+= SIMD4(
                                UInt32(pointer[0]) &* alpha, UInt32(pointer[1]) &* alpha,
                                UInt32(pointer[2]) &* alpha, alpha)
                            samples += 1
                            x += step
                            pointer += step * 4
                        }
                        y += step
                    }
                    let scale = 1 / (Float(samples) * 255)
                    let index = gy * gridWidth + gx
                    red[index] = Float(sums[0]) * scale
                    green[index] = Float(sums[1]) * scale
                    blue[index] = Float(sums[2]) * scale
                }
            }
        }
        var luminance = [Float](repeating: 0, count: count)
        for index in 0..<count {
            luminance[index] = 0.299 * red[index] + 0.587 * green[index] + 0.114 * blue[index]
        }
        var scores = [Int](repeating: 0, count: count)
        for gy in 0..<gridHeight {
            let up = max(0, gy - 1) * gridWidth
            let down = min(gridHeight - 1, gy + 1) * gridWidth
            for gx in 0..<gridWidth {
                let index = gy * gridWidth + gx
                let left = gy * gridWidth + max(0, gx - 1)
                let right = gy * gridWidth + min(gridWidth - 1, gx + 1)
                let gradient =
                    abs(luminance[right] - luminance[left]) + abs(luminance[down + gx] - luminance[up + gx])
                let edges = 2 * max(0, gradient - 6)
                let (r, g, b) = (red[index], green[index], blue[index])
                let high = max(r, g, b)
                let low = min(r, g, b)
                let saturation = max(0, high - low - 24)
                let skin: Float =
                    r > 95 && g > 40 && b > 20 && r - g > 15 && r > b && high - low > 15 ? 80 : 0
                scores[index] = Int(edges + saturation + skin)
            }
        }
        return scores
    }
}
