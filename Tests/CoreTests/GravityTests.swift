import Testing

@testable import ImagoCore

/// Gravity codes, and the `.fill` window of `ResizeProcessor` it places (edges, corners, focus points).
@Suite struct GravityTests {
    @Test func codesRoundTrip() {
        let all: [Gravity] = [
            .center, .north, .south, .east, .west, .northEast, .northWest, .southEast, .southWest,
            .focusPoint(x: 0.25, y: 0.5), .smart,
        ]
        for gravity in all { #expect(Gravity(code: gravity.code) == gravity, "\(gravity)") }
        #expect(Gravity(code: "fp:0.5") == nil)
        #expect(Gravity(code: "middle") == nil)
        #expect(throws: ImagoError.self) { try Gravity.focusPoint(x: -0.1, y: 0.5).validate() }
        #expect(throws: ImagoError.self) { try Gravity.focusPoint(x: .nan, y: 0.5).validate() }
    }

    @Test func centreKeepsTheOldIdentifierAndOthersAddTheirCode() {
        let centred = ResizeProcessor(width: 10, height: 10, mode: .fill)
        #expect(centred.identifier == "resize(10x10,fill,noupscale,lanczos3)")
        #expect(
            ResizeProcessor(width: 10, height: 10, mode: .fill, gravity: .center).identifier == centred.identifier)
        #expect(
            ResizeProcessor(width: 10, height: 10, mode: .fill, gravity: .southWest).identifier
                == "resize(10x10,fill,noupscale,lanczos3,g=sw)")
        // `.fit` has no window: the gravity changes nothing, and not the key either.
        #expect(
            ResizeProcessor(width: 10, height: 10, mode: .fit, gravity: .east).identifier
                == ResizeProcessor(width: 10, height: 10).identifier)
    }

    /// A 600 × 300 image covered by 100 × 100 keeps a 300 × 300 window: where it starts.
    @Test(arguments: [
        (Gravity.center, 150.0), (.west, 0), (.east, 300), (.north, 150), (.southEast, 300), (.northWest, 0),
        (.focusPoint(x: 0.25, y: 0.5), 0), (.focusPoint(x: 0.5, y: 0.1), 150), (.focusPoint(x: 0.6, y: 0.5), 210),
        (.focusPoint(x: 0.9, y: 0.5), 300),
    ])
    func fillWindowFollowsTheGravity(gravity: Gravity, x: Double) {
        let plan = ResizeProcessor(width: 100, height: 100, mode: .fill, gravity: gravity).plan(width: 600, height: 300)
        #expect(plan.sourceRect.x == x && plan.sourceRect.y == 0, "\(gravity): \(plan.sourceRect)")
        #expect(plan.sourceRect.width == 300 && plan.sourceRect.height == 300)
        // Portrait: the window moves vertically instead.
        let tall = ResizeProcessor(width: 100, height: 100, mode: .fill, gravity: gravity).plan(width: 300, height: 600)
        #expect(tall.sourceRect.x == 0)
        let anchorY: Double =
            switch gravity {
            case .north, .northWest, .northEast: 0
            case .south, .southEast, .southWest: 300
            case .focusPoint(_, let y): min(max(y * 600 - 150, 0), 300)
            default: 150
            }
        #expect(tall.sourceRect.y == anchorY, "\(gravity) portrait: \(tall.sourceRect)")
    }

    @Test func focusPointIsCentredInTheOutputWhereTheImageAllows() throws {
        // A 600 × 300 gradient: red = x * 255 / 599; the focus point at x = 0.6 (360 px) lands in the middle column.
        let raster = try TestImages.raster(600, 300) { x, _ in RGBA(UInt8(x * 255 / 599), 0, 0) }
        let resized = try ResizeProcessor(width: 100, height: 100, mode: .fill, gravity: .focusPoint(x: 0.6, y: 0.5))
            .process(TestImages.image(raster))
        #expect(abs(Int(resized.raster[50, 50].r) - 360 * 255 / 599) <= 2)
    }

    @Test func aBadFocusPointIsATypedErrorNotACrash() throws {
        let image = TestImages.image(try TestImages.photoLike(20, 10, alpha: false))
        let error = #expect(throws: ImagoError.self) {
            try ResizeProcessor(width: 5, height: 5, mode: .fill, gravity: .focusPoint(x: 1.5, y: 0)).process(image)
        }
        #expect(error?.kind == .processingFailed)
    }
}
