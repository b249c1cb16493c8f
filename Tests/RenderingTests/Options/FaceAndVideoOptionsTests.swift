import Foundation
import ImagoRendering
import Testing

/// Faces and video in the one options model (issue 38): `g=face` and its imgproxy/thumbor spellings, `blurfaces`,
/// `pixelatefaces`, `t`, `frames`, `fps`: read, keyed, and made into the render's detection and timeline.
@Suite struct FaceAndVideoOptionsTests: GrammarReading {
    let context = ProcessingOptions.Context()

    /// Finds one face in the left quarter of any image.
    struct LeftFace: ImageDetector {
        var identifier: String { "left-face" }
        var kinds: Set<RegionKind> { [.face] }
        func detect(in raster: Raster, context: DetectionContext) throws -> [DetectedRegion] {
            [DetectedRegion(kind: .face, x: 0, y: 0, width: raster.width / 4, height: raster.height / 4, confidence: 1)]
        }
    }

    @Test func faceGravityIsOneOptionInEveryGrammar() throws {
        // imgproxy's `fill` without `enlarge` cuts its target to the image: Imago's `adj=clamp`.
        let own = try imago("w=100,h=100,fit=cover,adj=clamp,g=face")
        #expect(own.gravityOnFaces && own.gravity == .smart)
        #expect(own.canonical.contains("g=face"))
        #expect(try imgproxy("rs:fill:100:100/g:obj:face") == own)
        #expect(try imgproxy("rs:fill:100:100/g:obj:face/g:sm").gravityOnFaces == false)
        let smart = try imago("w=100,h=100,fit=cover,adj=clamp,g=sm")
        #expect(try imgproxy("rs:fill:100:100/g:sm").canonical == smart.canonical)
        #expect(throws: OptionError.self) { try imgproxy("g:obj:cat") }
        #expect(throws: OptionError.self) { try imago("g=face:1") }
    }

    @Test func hidingAndVideoOptionsAreKeyed() throws {
        let options = try imago("blurfaces=4,t=2.5:k,frames=12,fps=3")
        #expect(options.blurFaces == 4 && options.posterTime == 2.5 && options.posterAtKeyframe)
        #expect(options.previewFrames == 12 && options.previewFrameRate == 3)
        #expect(options.canonical.hasSuffix("blurfaces=4,t=2.5:k,frames=12,fps=3"))
        #expect(try imago("pixelatefaces=8").canonical.hasSuffix("pixelatefaces=8"))
        for bad in ["blurfaces=0", "pixelatefaces=1", "t=-1", "t=2:x", "frames=0", "fps=61"] {
            #expect(throws: OptionError.self, "\(bad)") { try imago(bad) }
        }
        #expect(throws: OptionError.self) { try imago("blurfaces=4,pixelatefaces=8") }
    }

    @Test func theRenderRequestCarriesTheDetectionAndTheTimeline() throws {
        let url = URL(fileURLWithPath: "/a.jpg")
        var settings = ProcessingOptions.RenderSettings()
        // No detector: g=face is smart gravity, and hiding faces is refused naming the missing detector.
        #expect(
            try imago("w=10,h=10,fit=cover,g=face").renderRequest(url: url, format: .format(.png), settings: settings)
                .detection == nil)
        #expect {
            try imago("blurfaces=3").renderRequest(url: url, format: .format(.png), settings: settings)
        } throws: { ($0 as? OptionError)?.message.contains("no face detector is configured") == true }
        settings.faceDetector = LeftFace()
        // g=sm asks the detector only where a window is placed.
        #expect(
            try imago("w=10,g=sm").renderRequest(url: url, format: .format(.png), settings: settings).detection == nil)
        let request = try imago("w=10,h=40,fit=cover,g=sm,blurfaces=3,t=1")
            .renderRequest(url: url, format: .format(.png), settings: settings)
        let detection = try #require(request.detection)
        #expect(request.image.decodeOptions.timeline.posterTime == 1)
        let found = DetectionResult(
            detector: "left-face", imageSize: PixelSize(width: 400, height: 100),
            regions: [DetectedRegion(kind: .face, x: 0, y: 0, width: 100, height: 25, confidence: 1)])
        let processors = try detection.processors(found)
        let names = processors.map(\.identifier)
        #expect(names.first?.hasPrefix("blurregions(3.0") == true, "\(names)")
        #expect(names.contains { $0.contains("regions(") && $0.hasPrefix("resize") }, "\(names)")
    }

    @Test func onlyWindowsOfTheWholeSourceLookAtFaces() throws {
        #expect(try imago("w=10,h=10,fit=cover,g=face").wantsFaces(smartFindsFaces: false))
        #expect(try imago("crop=16:9,g=sm").wantsFaces(smartFindsFaces: true))
        #expect(try !imago("crop=16:9,g=sm").wantsFaces(smartFindsFaces: false))
        #expect(try !imago("w=10,h=10,fit=cover,g=face,trim=5").wantsFaces(smartFindsFaces: true))
        #expect(try !imago("w=10,h=10,fit=cover,g=face,crop=0:0:5:5").wantsFaces(smartFindsFaces: true))
        #expect(try imago("w=10,h=10,g=face,blurfaces=2,trim=5").wantsFaces(smartFindsFaces: false))
        // After a crop region the resize's window is smart, whatever was found.
        let found = DetectionResult(
            detector: "left-face", imageSize: PixelSize(width: 40, height: 40),
            regions: [DetectedRegion(kind: .face, x: 0, y: 0, width: 10, height: 10, confidence: 1)])
        let names = try imago("w=10,h=20,fit=cover,g=face,crop=0:0:30:30").processors(faces: found).map(\.identifier)
        #expect(names.contains { $0.hasPrefix("resize") && $0.hasSuffix(",g=sm)") }, "\(names)")
    }
}
