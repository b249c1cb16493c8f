import Testing

@testable import ImagoCore

/// Watermark layouts: offsets from the gravity's edges (imgproxy's `wm` offsets, thumbor's positions), imgproxy's
/// centred grid of tiles (`re`), thumbor's spread copies (`repeat`), thumbor's size ratios and transparency.
@Suite struct WatermarkProcessorLayoutTests {
    static let black = Result { try Raster(width: 100, height: 50, fill: RGBA(0, 0, 0)) }
    static let red = Result { try Raster(width: 10, height: 10, fill: RGBA(255, 0, 0)) }

    /// The red pixels of `raster`, as a set of (x, y).
    func redPixels(_ raster: Raster) -> Set<[Int]> {
        var found: Set<[Int]> = []
        for y in 0..<raster.height {
            for x in 0..<raster.width where raster[x, y].r > 128 { found.insert([x, y]) }
        }
        return found
    }

    /// The pixels of `width` × `height` squares at every left of `xs` with every top of `ys`, inside the canvas.
    func squares(
        xs: [Int], ys: [Int], side: Int = 10, width: Int? = nil, height: Int? = nil, canvas: (Int, Int) = (100, 50)
    ) -> Set<[Int]> {
        var found: Set<[Int]> = []
        for top in ys {
            for left in xs {
                for y in max(0, top)..<min(canvas.1, top + (height ?? side)) {
                    for x in max(0, left)..<min(canvas.0, left + (width ?? side)) { found.insert([x, y]) }
                }
            }
        }
        return found
    }

    func draw(_ configure: (inout WatermarkProcessor) -> Void, gravity: Gravity = .center) throws -> Raster {
        var processor = try WatermarkProcessor(watermark: try Self.red.get(), gravity: gravity)
        configure(&processor)
        return try processor.process(TestImages.image(try Self.black.get())).raster
    }

    @Test func offsetsMoveTheMarkAwayFromTheEdgesItsGravityNames() throws {
        // South-east, 7 px from the right and 3 from the bottom: x 83…92, y 37…46.
        var raster = try draw({ $0.offset = (7, 3) }, gravity: .southEast)
        #expect(redPixels(raster) == squares(xs: [83], ys: [37]))
        // Fractions of the sides: 10% of 100 and 20% of 50 from the top left.
        raster = try draw({ $0.offset = (0.1, 0.2) }, gravity: .northWest)
        #expect(redPixels(raster) == squares(xs: [10], ys: [10]))
        // The centre moves right and up; a mark pushed past an edge is cut.
        raster = try draw({ $0.offset = (5, -5) })
        #expect(redPixels(raster) == squares(xs: [50], ys: [15]))
        raster = try draw({ $0.offset = (95, 0) }, gravity: .west)
        #expect(redPixels(raster) == squares(xs: [95], ys: [20]))
    }

    @Test func aGridCoversTheImageWithTheMiddleTileCentred() throws {
        // Tiles of 20 px across (10 of mark, 5 of gap each side): five, the middle one at 45; down, tiles of
        // 12 (a gap of 1 above and below): five, the middle one at 20.
        let raster = try draw { $0.tiling = .grid(gapX: 10, gapY: 2) }
        #expect(redPixels(raster) == squares(xs: [5, 25, 45, 65, 85], ys: [-4, 8, 20, 32, 44]))
        // An even count is made odd, so a tile stays in the middle.
        #expect(WatermarkProcessor.grid(side: 40, mark: 10, gap: 0) == [-5, 5, 15, 25, 35])
        #expect(WatermarkProcessor.grid(side: 100, mark: 30, gap: 0) == [-25, 5, 35, 65, 95])
        #expect(WatermarkProcessor.grid(side: 7, mark: 10, gap: 4) == [-1])
    }

    @Test func spreadCopiesFollowThumborsRepeat() throws {
        // 100 / 10: ten copies across with no gap; 50 / 10: five down: 50 copies, under thumbor's cap of 100.
        var raster = try draw { $0.tiling = .spread(horizontal: true, vertical: true) }
        #expect(redPixels(raster) == squares(xs: Array(stride(from: 0, to: 100, by: 10)), ys: [0, 10, 20, 30, 40]))
        // Across only: the height placed by gravity (south, 5 px up).
        raster = try draw(
            {
                $0.tiling = .spread(horizontal: true, vertical: false)
                $0.offset = (0, 5)
            }, gravity: .south)
        #expect(redPixels(raster) == squares(xs: Array(stride(from: 0, to: 100, by: 10)), ys: [35]))
        // Fewer than two fit: two copies 10 px apart; over 100 copies: six a side, the rest shared out.
        #expect(WatermarkProcessor.spread(WatermarkProcessor.spreadCount(side: 15, mark: 10), mark: 10) == [0, 20])
        let processor = try WatermarkProcessor(watermark: try Self.red.get())
        var spread = processor
        spread.tiling = .spread(horizontal: true, vertical: true)
        let layout = spread.layout(mark: (10, 10), image: (300, 300))
        #expect(layout.xs == [0, 58, 116, 174, 232, 290] && layout.ys == layout.xs)
    }

    @Test func ratiosFitTheMarkAsThumborsCalcWatermarkSize() throws {
        // thumbor's calc_watermark_size on an 800×533 image and a 200×100 mark.
        #expect(WatermarkProcessor.fitted(mark: (200, 100), image: (800, 533), bounds: (0.5, nil)) == (400, 200))
        #expect(WatermarkProcessor.fitted(mark: (200, 100), image: (800, 533), bounds: (nil, 0.1)) == (107, 53))
        #expect(WatermarkProcessor.fitted(mark: (200, 100), image: (800, 533), bounds: (0.5, 0.1)) == (107, 53))
        // Drawn: 30% of the width of 100 → 30×30 in the middle.
        let raster = try draw { $0.fit = (0.3, nil) }
        #expect(redPixels(raster) == squares(xs: [35], ys: [10], side: 30))
    }

    @Test func evenRoundingFitsTheMarkAsImgproxysScale() throws {
        // imgproxy's wm scale 0.33 on 301×150: a box of ScaleToEven sides, 100×50 (thumbor's 99.33×49.5), the mark
        // fitted in it and enlarged, its sides rounded half up.
        let canvas = try Raster(width: 301, height: 150, fill: RGBA(0, 0, 0))
        for (mark, expected, thumbors) in [((40, 10), (100, 25), (99, 25)), ((10, 40), (13, 50), (12, 50))] {
            let bounds: (Double?, Double?) = (0.33, 0.33)
            let size = { (even: Bool) in
                WatermarkProcessor.fitted(mark: mark, image: (301, 150), bounds: bounds, roundsToEven: even)
            }
            #expect(size(true) == expected && size(false) == thumbors, "\(mark)")
            var processor = try WatermarkProcessor(
                watermark: try Raster(width: mark.0, height: mark.1, fill: RGBA(255, 0, 0)), gravity: .northWest)
            (processor.fit, processor.fitRoundsToEven) = (bounds, true)
            let red = redPixels(try processor.process(TestImages.image(canvas)).raster)
            #expect(red == squares(xs: [0], ys: [0], width: expected.0, height: expected.1, canvas: (301, 150)))
        }
        // At least one pixel a side.
        let tiny = WatermarkProcessor.fitted(mark: (40, 10), image: (3, 3), bounds: (0.1, 0.1), roundsToEven: true)
        #expect(tiny == (1, 1))
    }

    @Test func alphaReductionFadesTheMarkLikeThumborsTransparency() throws {
        let white = try Raster(width: 4, height: 4, fill: RGBA(255, 255, 255))
        var processor = try WatermarkProcessor(watermark: white, gravity: .northWest)
        processor.alphaReduction = 127  // thumbor's 50: 255 × 50 / 100
        let base = try Self.black.get()
        let raster = try processor.process(TestImages.image(base)).raster
        #expect(raster[0, 0] == RGBA(128, 128, 128) && raster[4, 4] == RGBA(0, 0, 0))
        processor.alphaReduction = 255
        #expect(try processor.process(TestImages.image(base)).raster == base)
    }

    @Test func identifiersNameTheLayoutAndBadValuesAreTypedErrors() throws {
        var processor = try WatermarkProcessor(watermark: try Self.red.get(), id: "m")
        #expect(processor.identifier == "watermark(m,1.0,g=se)")
        processor.offset = (3, 0.5)
        processor.fit = (nil, 0.2)
        processor.alphaReduction = 10
        processor.tiling = .spread(horizontal: false, vertical: true)
        #expect(processor.identifier == "watermark(m,1.0,g=se,off=3.0:0.5,fit=-:0.2,fade=10,tile=spread:v)")
        processor.fitRoundsToEven = true
        #expect(processor.identifier.contains(",fit=-:0.2:even,"))
        processor.tiling = .grid(gapX: 2, gapY: 4)
        #expect(processor.identifier.hasSuffix(",tile=grid:2:4)"))
        let image = TestImages.image(try Self.black.get())
        for configure in [
            { (p: inout WatermarkProcessor) in p.fit = (0, nil) }, { $0.fit = (nil, 101) },
            { $0.alphaReduction = 300 }, { $0.tiling = .grid(gapX: -1, gapY: 0) },
        ] {
            var bad = try WatermarkProcessor(watermark: try Self.red.get())
            configure(&bad)
            #expect(throws: ImagoError.self) { try bad.process(image) }
        }
    }
}
