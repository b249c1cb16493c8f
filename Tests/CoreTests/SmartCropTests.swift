import Testing

@testable import ImagoCore

/// Smart gravity keeps a salient object (a textured red disc) inside the window wherever it is on a flat, slightly
/// noisy background: corners, edges and centre, landscape and portrait, covers and aspect crops, and on a reduced
/// decode of the same picture.
@Suite struct SmartCropTests {
    /// A grey background with ±`noise` levels of noise and a red, striped disc of `radius` centred at (`cx`, `cy`).
    static func scene(
        _ width: Int, _ height: Int, cx: Int, cy: Int, radius: Int, seed: UInt64 = 1, noise amplitude: Int = 4
    ) throws -> Raster {
        var generator = TestImages.Generator(state: seed)
        return try TestImages.raster(width, height) { x, y in
            let noise = Int(generator.next() % UInt64(2 * amplitude + 1)) - amplitude
            let (dx, dy) = (x - cx, y - cy)
            if dx * dx + dy * dy <= radius * radius {
                return (x / 3 + y / 3) % 2 == 0 ? RGBA(220, 30, 40) : RGBA(150, 20, 30)
            }
            let grey = UInt8(150 + noise)
            return RGBA(grey, grey, grey)
        }
    }

    static let positions: [(Double, Double)] = [
        (0.08, 0.1), (0.92, 0.9), (0.5, 0.5), (0.08, 0.5), (0.92, 0.1), (0.5, 0.9), (0.3, 0.7), (0.7, 0.3),
    ]

    @Test(arguments: positions.indices)
    func coverKeepsTheDisc(index: Int) throws {
        let (fx, fy) = Self.positions[index]
        for (width, height) in [(600, 300), (300, 600)] {
            let radius = 24
            let cx = min(width - radius - 1, max(radius, Int(fx * Double(width))))
            let cy = min(height - radius - 1, max(radius, Int(fy * Double(height))))
            let raster = try Self.scene(width, height, cx: cx, cy: cy, radius: radius)
            let resize = ResizeProcessor(width: 100, height: 100, mode: .fill, gravity: .smart)
            let rect = resize.plan(width: width, height: height, raster: raster).sourceRect
            #expect(
                rect.x <= Double(cx - radius) && rect.x + rect.width >= Double(cx + radius),
                "\(width)x\(height) disc at (\(cx), \(cy)): \(rect)")
            #expect(
                rect.y <= Double(cy - radius) && rect.y + rect.height >= Double(cy + radius),
                "\(width)x\(height) disc at (\(cx), \(cy)): \(rect)")
            // The output shows the whole disc: as many red pixels as a disc of radius 24 × 100 / 300.
            let output = try resize.process(TestImages.image(raster)).raster
            var red = 0
            for y in 0..<100 {
                for x in 0..<100 where output[x, y].r > Int(output[x, y].g) + 60 { red += 1 }
            }
            #expect(red > 150, "\(width)x\(height) disc at (\(cx), \(cy)): \(red) red pixels")
        }
    }

    @Test(arguments: positions.indices)
    func aSmallWindowFindsTheDiscInBothDirections(index: Int) throws {
        let (fx, fy) = Self.positions[index]
        let radius = 20
        let cx = min(399 - radius, max(radius, Int(fx * 400)))
        let cy = min(299 - radius, max(radius, Int(fy * 300)))
        for noise in [0, 4, 8] {  // flat, slightly noisy, noisier
            let raster = try Self.scene(400, 300, cx: cx, cy: cy, radius: radius, seed: 9, noise: noise)
            let origin = raster.attentionWindow(width: 80, height: 60)
            let inside =
                origin.x <= Double(cx - radius) && origin.x + 80 >= Double(cx + radius)
                && origin.y <= Double(cy - radius) && origin.y + 60 >= Double(cy + radius)
            #expect(inside, "noise ±\(noise), disc at (\(cx), \(cy)): window at \(origin)")
        }
    }

    @Test func aspectCropWithSmartGravityKeepsTheDisc() throws {
        let raster = try Self.scene(500, 200, cx: 450, cy: 100, radius: 30)
        let rect = try CropProcessor(aspectWidth: 1, aspectHeight: 1, gravity: .smart).rectangle(in: raster)
        #expect(rect.width == 200 && rect.x <= 420 && rect.x + 200 >= 480, "\(rect)")
    }

    @Test func aFlatImageIsCutInTheMiddle() throws {
        let flat = try Raster(width: 600, height: 300, fill: RGBA(90, 90, 90))
        let rect = ResizeProcessor(width: 100, height: 100, mode: .fill, gravity: .smart).plan(
            width: 600, height: 300, raster: flat
        ).sourceRect
        #expect(rect.x == 150)
    }

    /// The window is chosen on the image the processor receives, so a reduced decode (half the size here) still
    /// keeps the object.
    @Test func aReducedDecodeKeepsTheSameWindow() throws {
        let resize = ResizeProcessor(width: 100, height: 100, mode: .fill, gravity: .smart)
        let full = try Self.scene(1200, 600, cx: 1000, cy: 300, radius: 60)
        let half = try Self.scene(600, 300, cx: 500, cy: 150, radius: 30)
        let fullRect = resize.plan(width: 1200, height: 600, raster: full).sourceRect
        let halfRect = resize.plan(width: 600, height: 300, raster: half).sourceRect
        #expect(fullRect.x <= 940 && fullRect.x + 600 >= 1060, "\(fullRect)")
        #expect(halfRect.x <= 470 && halfRect.x + 300 >= 530, "\(halfRect)")
    }

    @Test func animationsUseTheFirstFramesWindowForEveryFrame() throws {
        let first = try Self.scene(300, 100, cx: 270, cy: 50, radius: 20)
        let second = try Self.scene(300, 100, cx: 30, cy: 50, radius: 20)
        let animation = DecodedImage(
            frames: [ImageFrame(raster: first, duration: 0.1), ImageFrame(raster: second, duration: 0.1)],
            format: .gif, hasAlpha: false)
        let resized = try ResizeProcessor(width: 50, height: 50, mode: .fill, gravity: .smart).process(animation)
        #expect(resized.frames.count == 2)
        #expect(resized.frames.allSatisfy { $0.raster.width == 50 && $0.raster.height == 50 })
        // The first frame's disc is on the right: the right edge's window, where the second frame is grey.
        #expect(resized.frames[0].raster[40, 25].r > 140 && resized.frames[0].raster[40, 25].g < 60)
        #expect(resized.frames[1].raster[10, 25].r == resized.frames[1].raster[10, 25].g)
    }
}
