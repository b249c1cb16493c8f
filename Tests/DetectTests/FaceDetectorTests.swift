import Foundation
import Imago
import ImagoContracts
import ImagoDetect
import ImagoTestSupport
import Testing

/// The face detector over OpenCV: it keeps the detector contract on a real photograph, is named in configurations,
/// and says why when it cannot run.
@Suite struct FaceDetectorTests {
    /// The astronaut's face in the 512x512 photograph (measured by hand on the image: brow to chin, ear to ear).
    static let astronautFace = DetectedRegion(kind: .face, x: 170, y: 75, width: 95, height: 110, confidence: 1)

    static func enlarged(_ raster: Raster, to side: Int) throws -> Raster {
        let image = DecodedImage(raster: raster, format: .jpeg, hasAlpha: false)
        return try ResizeProcessor(width: side, height: side, upscale: true).process(image).raster
    }

    static func astronaut() throws -> Raster {
        try JPEGCodec().decode(try Fixture.data("astronaut.jpg")).raster
    }

    @Test func findsTheAstronautsFace() throws {
        let found = try FaceDetector().detect(in: try Self.astronaut(), context: DetectionContext())
        #expect(found.count == 1, "\(found)")
        #expect((found.first?.overlap(with: Self.astronautFace) ?? 0) > 0.5, "\(found)")
        #expect(found.allSatisfy { $0.kind == .face && $0.confidence > 0.5 && $0.confidence < 1 })
    }

    @Test func keepsTheDetectorContract() async throws {
        let raster = try Self.astronaut()
        // The photograph, and a copy at twice the size.
        let wide = try Self.enlarged(raster, to: 1024)
        let contract = ImageDetectorContract(
            makeDetector: { try FaceDetector() },
            samples: [
                DetectorSample(name: "astronaut", raster: raster, expected: [Self.astronautFace]),
                DetectorSample(
                    name: "astronaut at 1024 px", raster: wide,
                    expected: [
                        Self.astronautFace.scaled(
                            from: .init(width: 512, height: 512), to: .init(width: 1024, height: 1024))!
                    ]),
            ])
        let report = await contract.run()
        #expect(report.passed, "\(report)")
    }

    @Test func findsTheFaceOnTheGreyCopyAtItsWorkingSize() async throws {
        // A 2048 px copy is shrunk to 640 before detection: the face is found at the same place (seconds of work in
        // a debug build: off the pool).
        let found = try await offPool {
            try FaceDetector().detect(
                in: try Self.enlarged(try Self.astronaut(), to: 2048), context: DetectionContext())
        }
        let expected = Self.astronautFace.scaled(
            from: .init(width: 512, height: 512), to: .init(width: 2048, height: 2048))!
        #expect(found.count == 1 && found[0].overlap(with: expected) > 0.5, "\(found)")
    }

    @Test func theFactoryBuildsFromAConfiguration() throws {
        let json = try JSONValue.parse(
            Data(#"{"detectors": [{"name": "faces", "settings": {"profiles": false, "minimumNeighbours": 6}}]}"#.utf8))
        let registry = try PluginRegistry.standardFactories().configured(by: try ImagoConfiguration(json: json))
        let detector = try #require(registry.detector(finding: .face))
        #expect(detector.identifier == "faces(haarcascade_frontalface_alt2,640,min=20,n=6,s=1.1)")
        #expect(detector.workingSize == 640)
    }

    @Test func aMissingCascadeIsReportedWithItsPath() throws {
        let json = try JSONValue.parse(
            Data(#"{"detectors": [{"name": "faces", "settings": {"frontalCascade": "/nowhere/cascade.xml"}}]}"#.utf8))
        do {
            _ = try PluginRegistry.standardFactories().configured(by: try ImagoConfiguration(json: json))
            Issue.record("a missing cascade was accepted")
        } catch let error as ImagoError {
            #expect(error.kind == .invalidConfiguration)
            #expect(error.reason.contains("detectors[0].settings"), "\(error)")
            #expect(error.reason.contains("/nowhere/cascade.xml"), "\(error)")
        }
    }

    @Test func theDefaultConfigurationNamesNoDetector() {
        #expect(PluginRegistry.standard().detectors.isEmpty)
        #expect(PluginRegistry.standardFactories().factoryNames(.detector) == ["faces"])
    }
}
