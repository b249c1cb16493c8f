import Foundation
import Testing

@testable import ImagoCore

/// `ResizeAdjustments`: thumbor's `no_upscale()` and `focal()` as its transformer computes them, imgproxy's `zoom`,
/// minimum sizes and gravity offsets as its `calcScale` and `calcPosition` do (worked out by hand below).
@Suite struct ResizeAdjustmentsTests {
    func plan(
        _ width: Int, _ height: Int, to target: (Int, Int), mode: ContentMode = .fill, upscale: Bool = true,
        gravity: Gravity = .center, _ adjust: (inout ResizeAdjustments) -> Void
    ) -> ResizeProcessor.Plan {
        var resize = ResizeProcessor(
            width: target.0, height: target.1, mode: mode, upscale: upscale, gravity: gravity)
        adjust(&resize.adjustments)
        return resize.plan(width: width, height: height)
    }

    @Test func aClampedTargetKeepsASmallImageWhole() {
        // thumbor 1000x1000/filters:no_upscale() of a 200×150 source: 200×150 (issue 35 got 150×150).
        let whole = plan(200, 150, to: (1000, 1000)) { $0.clampsTargetToImage = true }
        #expect(whole.outputWidth == 200 && whole.outputHeight == 150 && whole.isIdentity)
        // 300×100 becomes 200×100: the window of that ratio, as thumbor's auto-crop and imgproxy's fill give.
        let cut = plan(200, 150, to: (300, 100)) { $0.clampsTargetToImage = true }
        #expect(cut.outputWidth == 200 && cut.outputHeight == 100)
        #expect(cut.sourceRect.height == 100 && cut.sourceRect.y == 25)
        // Without upscale, imgproxy's fill (not fill-down) of a smaller image: the same.
        let imgproxy = plan(200, 150, to: (300, 100), upscale: false) { $0.clampsTargetToImage = true }
        #expect(imgproxy.outputWidth == 200 && imgproxy.outputHeight == 100)
    }

    @Test func focalRegionsCentreTheWindowAsThumborsAutoCrop() {
        // 400×200 filled to 100×100: a 200×200 window. Region (300,50) 40×40 centres it at x 320: thumbor's
        // crop_left = round(min(max(320 − 100, 0), 400 − 200)) = 200.
        let right = plan(400, 200, to: (100, 100)) {
            $0.focalRegions = [.init(x: 300, y: 50, width: 40, height: 40)]
        }
        #expect(right.sourceRect.x == 200 && right.sourceRect.width == 200)
        // Two regions: weighted by area. (0,0) 20×20 weighs 400, (200,0) 60×60 weighs 3600: centre x =
        // (10·400 + 230·3600) / 4000 = 208 → origin 108.
        let weighted = plan(400, 200, to: (100, 100)) {
            $0.focalRegions = [.init(x: 0, y: 0, width: 20, height: 20), .init(x: 200, y: 0, width: 60, height: 60)]
        }
        #expect(weighted.sourceRect.x == 108)
        // A region whose centre is outside: the gravity applies.
        let outside = plan(400, 200, to: (100, 100), gravity: .west) {
            $0.focalRegions = [.init(x: 500, y: 0, width: 10, height: 10)]
        }
        #expect(outside.sourceRect.x == 0)
    }

    @Test func zoomMultipliesTheScale() {
        // fit 100×100 of 400×200: 0.25; zoom 2 → 0.5 → 200×100.
        let fit = plan(400, 200, to: (100, 100), mode: .fit, upscale: false) { $0.zoom = (2, 2) }
        #expect(fit.outputWidth == 200 && fit.outputHeight == 100)
        // Without upscale a zoom past 1 is cut back to 1.
        let capped = plan(400, 200, to: (100, 100), mode: .fit, upscale: false) { $0.zoom = (8, 8) }
        #expect(capped.outputWidth == 400 && capped.outputHeight == 200)
        // A fill keeps the target and shows less: 0.5 × 2 = 1, a 100×100 window of source pixels.
        let fill = plan(400, 200, to: (100, 100)) { $0.zoom = (2, 2) }
        #expect(fill.outputWidth == 100 && fill.sourceRect.width == 100 && fill.sourceRect.x == 150)
        // Per axis: fit 100×100 of 400×200 zoomed 1×2 → 100×100.
        let stretched = plan(400, 200, to: (100, 100), mode: .fit, upscale: false) { $0.zoom = (1, 2) }
        #expect(stretched.outputWidth == 100 && stretched.outputHeight == 100)
    }

    @Test func minimumSizesEnlargeEvenWithoutUpscale() {
        // fit 100×100 of 1000×500 → 100×50; min-width 300 → 300×150.
        let fit = plan(1000, 500, to: (100, 100), mode: .fit, upscale: false) { $0.minimumWidth = 300 }
        #expect(fit.outputWidth == 300 && fit.outputHeight == 150)
        // fill 100×100 → scale 0.2 (200×100); min-width 300 → 0.3; the output stays 100×100, a 333×333 window.
        let fill = plan(1000, 500, to: (100, 100), upscale: false) { $0.minimumWidth = 300 }
        #expect(fill.outputWidth == 100 && fill.outputHeight == 100)
        #expect(abs(fill.sourceRect.width - 1000.0 / 3) < 0.001)
        // min-height past the image itself enlarges it.
        let tall = plan(100, 50, to: (50, 50), mode: .fit, upscale: false) { $0.minimumHeight = 200 }
        #expect(tall.outputWidth == 400 && tall.outputHeight == 200)
    }

    @Test func offsetsMoveTheWindowInwardFromTheGravitysEdge() {
        // fill 100×100 of 400×200: scale 0.5, the scaled image 200×100. imgproxy's calcPosition in scaled pixels:
        // west +50 → left 50 (source 100); east +50 → 200 − 100 − 50 = 50 (source 100); centre +30 → 50 + 30 = 80
        // (source 160).
        let west = plan(400, 200, to: (100, 100), gravity: .west) { $0.offset = (50, 0) }
        #expect(west.sourceRect.x == 100)
        let east = plan(400, 200, to: (100, 100), gravity: .east) { $0.offset = (50, 0) }
        #expect(east.sourceRect.x == 100)
        let centre = plan(400, 200, to: (100, 100)) { $0.offset = (30, 0) }
        #expect(centre.sourceRect.x == 160)
        // Fractions of the side: 0.1 of the scaled 200 = 20 px (source 40) from the west edge; clamped at the edge.
        let fraction = plan(400, 200, to: (100, 100), gravity: .west) { $0.offset = (0.1, 0) }
        #expect(fraction.sourceRect.x == 40)
        let clamped = plan(400, 200, to: (100, 100), gravity: .west) { $0.offset = (5000, 0) }
        #expect(clamped.sourceRect.x == 200)
        // A focus point ignores offsets.
        let point = plan(400, 200, to: (100, 100), gravity: .focusPoint(x: 0.5, y: 0.5)) { $0.offset = (50, 0) }
        #expect(point.sourceRect.x == 100)
    }

    /// Runs thumbor's own `Transformer` (from its virtual environment) on an engine that only records its calls:
    /// thumbor's crop box and resize for each case `[source w, h, target w, h, halign, valign, focal squares]`.
    static func thumborsCalls(_ cases: String) async throws -> [(crop: [Int]?, resize: [Int]?)] {
        let output = try await PythonReference.run(
            Self.transformerScript, arguments: [cases], interpreter: ColourProcessorTests.thumborPython)
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
        let json = try #require(lines.last.flatMap { $0.data(using: .utf8) })
        let calls = try #require(try JSONSerialization.jsonObject(with: json) as? [[String: Any]])
        return calls.map { ($0["crop"] as? [Int], $0["resize"] as? [Int]) }
    }

    static let transformerScript = """
        import asyncio, json, sys
        from thumbor.config import Config
        from thumbor.context import Context, RequestParameters
        from thumbor.importer import Importer
        from thumbor.point import FocalPoint
        from thumbor.storages.no_storage import Storage
        from thumbor.transformer import Transformer

        class Engine:
            def __init__(self, size):
                self.size, self.crops, self.resizes, self.extension = size, [], [], ".png"
            def reorientate(self): pass
            def resize(self, width, height): self.resizes.append((int(width), int(height)))
            def crop(self, left, top, right, bottom): self.crops.append((int(left), int(top), int(right), int(bottom)))
            def flip_horizontally(self): pass
            def flip_vertically(self): pass
            def get_proportional_width(self, new_height): return float(new_height) * self.size[0] / self.size[1]
            def get_proportional_height(self, new_width): return float(new_width) * self.size[1] / self.size[0]
            def focus(self, points): pass

        out = []
        for sw, sh, tw, th, halign, valign, focal in json.loads(sys.argv[1]):
            engine = Engine((sw, sh))
            importer = Importer(None)
            importer.detectors, importer.storage = [], Storage
            context = Context(server=None, config=Config(), importer=importer)
            context.modules.engine = engine
            context.request = RequestParameters(
                buffer=None, debug=False, meta=False, crop={"left": None, "top": None, "right": None, "bottom": None},
                adaptive=False, full=False, fit_in=False, horizontal_flip=False, vertical_flip=False, width=tw, height=th,
                halign=halign, valign=valign, focal_points=[FocalPoint.from_square(*f) for f in focal], smart=False,
                extension="PNG", filters=[], quality=80, image="x.png", stretch=False)
            context.request.engine = engine
            asyncio.run(Transformer(context).transform())
            out.append({"crop": engine.crops[-1] if engine.crops else None, "resize": engine.resizes[-1] if engine.resizes else None})
        print(json.dumps(out))
        """

    @Test func wholePixelWindowsAreThumborsTransformers() async throws {
        let cases: [(Int, Int, Int, Int, String, String, [ResizeAdjustments.Region])] = [
            (500, 600, 300, 250, "right", "middle", []), (800, 600, 400, 150, "center", "middle", []),
            (200, 140, 180, 100, "center", "middle", []), (350, 700, 200, 600, "right", "middle", []),
            (700, 300, 150, 300, "right", "middle", []), (8, 6, 4, 2, "left", "top", []),
            (301, 200, 300, 200, "center", "middle", []), (300, 225, 150, 100, "center", "middle", []),
            (333, 517, 120, 97, "left", "bottom", []), (517, 333, 97, 120, "right", "top", []),
            (
                400, 200, 100, 200, "center", "middle",
                [.init(x: 100, y: 150, width: 1, height: 1), .init(x: 300, y: 150, width: 1, height: 1)]
            ),
            (800, 533, 400, 100, "center", "middle", [.init(x: 146, y: 156, width: 133, height: 52)]),
        ]
        let json =
            "["
            + cases.map { c in
                "[\(c.0),\(c.1),\(c.2),\(c.3),\"\(c.4)\",\"\(c.5)\",["
                    + c.6.map { "[\($0.x),\($0.y),\($0.width),\($0.height)]" }.joined(separator: ",") + "]]"
            }.joined(separator: ",") + "]"
        let expected = try await Self.thumborsCalls(json)
        #expect(expected.count == cases.count)
        for (c, calls) in zip(cases, expected) {
            let gravity =
                Gravity(
                    code: ["top": "n", "bottom": "s"][c.5, default: ""] + ["left": "w", "right": "e"][c.4, default: ""])
                ?? .center
            let planned = plan(c.0, c.1, to: (c.2, c.3), gravity: gravity) {
                $0.cropsWholePixels = true
                $0.roundsSidesDown = true
                $0.focalRegions = c.6
            }
            let rect = planned.sourceRect
            let crop = [Int(rect.x), Int(rect.y), Int(rect.x + rect.width), Int(rect.y + rect.height)]
            #expect(crop == (calls.crop ?? [0, 0, c.0, c.1]), "\(c)")
            #expect([planned.outputWidth, planned.outputHeight] == (calls.resize ?? [c.0, c.1]), "\(c)")
        }
        // A side thumbor computes is rounded down: 0x350 of 600×800 is 262×350 (262.5), as thumbor resizes it.
        let computed = try await Self.thumborsCalls("[[600,800,0,350,\"center\",\"middle\",[]]]")
        var fit = ResizeProcessor(width: 8192, height: 350, mode: .fit, upscale: true)
        fit.adjustments.roundsSidesDown = true
        let side = fit.plan(width: 600, height: 800)
        #expect([side.outputWidth, side.outputHeight] == computed.first?.resize)
    }

    @Test func aSideOfTheSourceStandsForOrig() {
        // thumbor origx100 of 400×200 (fill, enlarging): the target is 400×100, a 400×100 window.
        let orig = plan(400, 200, to: (1, 100)) { $0.usesSourceWidth = true }
        #expect(orig.outputWidth == 400 && orig.outputHeight == 100 && orig.sourceRect.height == 100)
        let both = plan(400, 200, to: (1, 1)) {
            $0.usesSourceWidth = true
            $0.usesSourceHeight = true
        }
        #expect(both.isIdentity)
    }

    @Test func anEnlargingFitRoundsDownOnlyWhenAsked() {
        // thumbor's upscale() after fit-in: 80×53 into 120×100 is 120×79.5, truncated to 79; rounded, 80.
        let enlarged = plan(80, 53, to: (120, 100), mode: .fit) { $0.roundsEnlargedSidesDown = true }
        #expect(enlarged.outputWidth == 120 && enlarged.outputHeight == 79)
        let rounded = plan(80, 53, to: (120, 100), mode: .fit) { $0.zoom = (1, 1) }
        #expect(rounded.outputHeight == 80)
        // Shrinking still rounds (thumbor's fit-in: 26.5 is 27).
        let shrunk = plan(80, 53, to: (40, 40), mode: .fit) { $0.roundsEnlargedSidesDown = true }
        #expect(shrunk.outputWidth == 40 && shrunk.outputHeight == 27)
    }

    @Test func adjustmentsOnSourcePixelsAskForAFullSizeDecode() {
        // thumbor's focal() on a 400x100 fill of an 800×533 JPEG: a reduced decode (400×267) placed the source's
        // focal point on half-size pixels, 180 px too low.
        var resize = ResizeProcessor(width: 400, height: 100, mode: .fill, upscale: true)
        #expect(resize.decodeSizeNeed == .covering(PixelSize(width: 400, height: 100)))
        resize.adjustments.focalRegions = [.init(x: 146, y: 156, width: 133, height: 52)]
        #expect(resize.decodeSizeNeed == .fullSize)
        resize.adjustments.cropsWholePixels = true
        let window = resize.plan(width: 800, height: 533)
        #expect(window.sourceRect.y == 82 && window.sourceRect.height == 200)
        for adjust in [
            { (a: inout ResizeAdjustments) in a.roundsSidesDown = true }, { $0.usesSourceWidth = true },
            { $0.minimumWidth = 5 }, { $0.zoom = (2, 2) }, { $0.roundsEnlargedSidesDown = true },
        ] {
            var adjustments = ResizeAdjustments()
            adjust(&adjustments)
            #expect(adjustments.needsFullSizeImage)
        }
        var imgproxy = ResizeAdjustments()
        imgproxy.clampsTargetToImage = true
        imgproxy.offset = (5, 0)
        #expect(!imgproxy.needsFullSizeImage)
    }

    @Test func anAspectExtensionHoldsTheImage() throws {
        let image = TestImages.image(try TestImages.photoLike(40, 30, alpha: false), hasAlpha: false)
        let square = try AspectExtendProcessor(aspectWidth: 1, aspectHeight: 1, background: RGBA(9, 9, 9))
            .process(image)
        #expect(square.raster.width == 40 && square.raster.height == 40)
        #expect(square.raster[0, 0] == RGBA(9, 9, 9) && square.raster[20, 20] == image.raster[20, 15])
        let wide = try AspectExtendProcessor(
            aspectWidth: 16, aspectHeight: 9, gravity: .west, background: RGBA(0, 0, 0, 0)
        ).process(image)
        #expect(wide.raster.width == 53 && wide.raster.height == 30 && wide.hasAlpha)
        #expect(wide.raster[0, 0] == image.raster[0, 0])
        let same = try AspectExtendProcessor(aspectWidth: 4, aspectHeight: 3, background: RGBA(0, 0, 0))
        #expect(try same.process(image) == image)
        #expect(same.identifier == "extend-aspect(4:3,g=c,000000ff)")
        #expect(throws: ImagoError.self) {
            try AspectExtendProcessor(aspectWidth: 0, aspectHeight: 1, background: RGBA(0, 0, 0))
        }
    }

    @Test func adjustmentsArePartOfTheIdentifierOnlyWhenSet() throws {
        var resize = ResizeProcessor(width: 10, height: 10, mode: .fill)
        let plain = resize.identifier
        #expect(!plain.contains("clamp"))
        resize.adjustments.clampsTargetToImage = true
        resize.adjustments.offset = (5, -0.5)
        // The plain identifier (whatever the default filter is), then the adjustments.
        #expect(resize.identifier == plain.dropLast() + ",clamp,off=5.0:-0.5)")
        resize.adjustments.zoom = (0, 1)
        let image = TestImages.image(try TestImages.photoLike(20, 20, alpha: false))
        #expect(throws: ImagoError.self) { try resize.process(image) }
        #expect(ResizeAdjustments().isEmpty)
    }
}
