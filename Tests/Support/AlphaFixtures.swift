import ImagoCore

/// An RGBA image as a PNG with an alpha channel often is: 4 x 4 cells of 16 x 16 pixels (whole JPEG blocks, so a
/// cell's centre keeps its colour through 4:2:0 chroma), each one of `Cell`.
public enum AlphaFixtures {
    /// What a cell holds.
    public enum Cell: CaseIterable, Sendable {
        /// Fully transparent pixels whose hidden colour is green: the corners.
        case transparentGreen
        /// Blue at alpha 128 (50 %).
        case halfBlue
        /// Fully transparent black.
        case transparentBlack
        /// Opaque red.
        case opaqueRed

        /// The stored pixel.
        public var pixel: RGBA {
            switch self {
            case .transparentGreen: RGBA(0, 255, 0, 0)
            case .halfBlue: RGBA(0, 0, 255, 128)
            case .transparentBlack: RGBA(0, 0, 0, 0)
            case .opaqueRed: RGBA(255, 0, 0)
            }
        }
    }

    public static let cellSize = 16
    public static let side = 4 * cellSize

    /// Row by row: transparent green corners, a row of half-transparent blue, transparent black in the middle of
    /// the third row, opaque red elsewhere.
    public static let layout: [[Cell]] = [
        [.transparentGreen, .opaqueRed, .opaqueRed, .transparentGreen],
        [.halfBlue, .halfBlue, .halfBlue, .halfBlue],
        [.opaqueRed, .transparentBlack, .transparentBlack, .opaqueRed],
        [.transparentGreen, .opaqueRed, .opaqueRed, .transparentGreen],
    ]

    /// The image, 64 x 64.
    public static func raster() throws -> Raster {
        var pixels: [UInt8] = []
        for y in 0..<side {
            for x in 0..<side {
                let pixel = layout[y / cellSize][x / cellSize].pixel
                pixels += [pixel.r, pixel.g, pixel.b, pixel.a]
            }
        }
        return try Raster(width: side, height: side, pixels: pixels)
    }

    /// The centre pixel of every cell holding `cell` in `raster` (the image decoded again).
    public static func centres(of cell: Cell, in raster: Raster) -> [RGBA] {
        var found: [RGBA] = []
        for (row, cells) in layout.enumerated() {
            for (column, each) in cells.enumerated() where each == cell {
                found.append(raster[column * cellSize + cellSize / 2, row * cellSize + cellSize / 2])
            }
        }
        return found
    }

    /// Whether every channel of `pixel` is within `tolerance` of `expected` (alpha included).
    public static func isClose(_ pixel: RGBA, _ expected: RGBA, tolerance: Int) -> Bool {
        abs(Int(pixel.r) - Int(expected.r)) <= tolerance && abs(Int(pixel.g) - Int(expected.g)) <= tolerance
            && abs(Int(pixel.b) - Int(expected.b)) <= tolerance && abs(Int(pixel.a) - Int(expected.a)) <= tolerance
    }

    /// The cell centres of `raster` farther than `tolerance` from `expected`, described; empty when all match.
    public static func mismatches(in raster: Raster, expected: [Cell: RGBA], tolerance: Int) -> [String] {
        expected.flatMap { cell, want in
            centres(of: cell, in: raster).filter { !isClose($0, want, tolerance: tolerance) }
                .map { "\(cell): \($0), expected \(want)" }
        }
    }
}
