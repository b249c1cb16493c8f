import Foundation
import ImagoContracts
import ImagoCore
import Testing

/// The worked example detector keeps the detector contract, and is named in a configuration like every plugin.
@Suite struct DetectorContractTests {
    /// A 300x200 noisy photo stand-in with two magenta markers (one 40x30 at (20, 30), one 25x25 at (200, 120)).
    static func markedImage() throws -> (Raster, [DetectedRegion]) {
        var pixels = [UInt8](repeating: 0, count: 300 * 200 * 4)
        for y in 0..<200 {
            for x in 0..<300 {
                let offset = (y * 300 + x) * 4
                pixels[offset] = UInt8((x * 7 + y * 3) % 200)
                pixels[offset + 1] = UInt8((x * 5 + y * 11) % 180)
                pixels[offset + 2] = UInt8((x + y) % 120)
                pixels[offset + 3] = 255
            }
        }
        let markers = [
            DetectedRegion(kind: MarkerDetector.marker, x: 20, y: 30, width: 40, height: 30, confidence: 1),
            DetectedRegion(kind: MarkerDetector.marker, x: 200, y: 120, width: 25, height: 25, confidence: 1),
        ]
        for marker in markers {
            for y in marker.y..<(marker.y + marker.height) {
                for x in marker.x..<(marker.x + marker.width) {
                    let offset = (y * 300 + x) * 4
                    (pixels[offset], pixels[offset + 1], pixels[offset + 2]) = (250, 5, 250)
                }
            }
        }
        return (try Raster(width: 300, height: 200, pixels: pixels), markers)
    }

    @Test func markerDetectorKeepsTheDetectorContract() async throws {
        let (raster, markers) = try Self.markedImage()
        let contract = ImageDetectorContract(
            makeDetector: { MarkerDetector() },
            samples: [DetectorSample(name: "two markers", raster: raster, expected: markers)])
        let report = await contract.run()
        #expect(report.passed, "\(report)")
        #expect(report.results.count == ImageDetectorContract.Check.allCases.count)
    }

    @Test func markerDetectorFindsTheExactBoxes() throws {
        let (raster, markers) = try Self.markedImage()
        let found = try MarkerDetector().detect(in: raster, context: DetectionContext())
        #expect(found == markers)
    }

    @Test func aConfigurationNamesDetectorsByFactory() throws {
        var builder = PluginRegistry.Builder()
        builder.registerExampleFactories()
        let json = try JSONValue.parse(Data(#"{"detectors": [{"name": "marker", "settings": {"tolerance": 9}}]}"#.utf8))
        let configuration = try ImagoConfiguration(json: json)
        #expect(configuration.detectors == [PluginSpec("marker", settings: .object(["tolerance": .number(9)]))])
        #expect(try ImagoConfiguration(json: configuration.json) == configuration)
        let registry = try builder.build().configured(by: configuration)
        #expect(registry.detectors.map(\.identifier) == ["marker(255,0,255±9,4)"])
        #expect(registry.detector(finding: MarkerDetector.marker)?.identifier == "marker(255,0,255±9,4)")
        #expect(registry.detector(finding: .face) == nil)
        // Unknown names and bad settings are refused with their path.
        let unknown = try ImagoConfiguration(json: try JSONValue.parse(Data(#"{"detectors": ["faces"]}"#.utf8)))
        #expect(throws: ImagoError.self) { try builder.build().configured(by: unknown) }
        do {
            _ = try builder.build().configured(by: unknown)
        } catch let error as ImagoError {
            #expect(error.reason.contains("detectors[0]: unknown detector \"faces\" (known: \"marker\")"))
        }
        let bad = try ImagoConfiguration(
            json: try JSONValue.parse(
                Data(#"{"detectors": [{"name": "marker", "settings": {"tolerance": 900}}]}"#.utf8)))
        #expect(throws: ImagoError.self) { try builder.build().configured(by: bad) }
    }

    @Test func aBuilderCopiesItsDetectors() {
        var builder = PluginRegistry.Builder()
        builder.add(MarkerDetector(tolerance: 1))
        builder.add(MarkerDetector(tolerance: 2))
        let registry = builder.build()
        #expect(registry.detectors.map(\.identifier) == ["marker(255,0,255±2,4)", "marker(255,0,255±1,4)"])
        #expect(
            PluginRegistry.Builder(registry).build().detectors.map(\.identifier) == registry.detectors.map(\.identifier)
        )
    }

    @Test func detectingOnAnImageRunsOffThePoolAndTurnsItUpright() async throws {
        let (raster, markers) = try Self.markedImage()
        // Stored turned a quarter (orientation 6 shows it turned clockwise): detection sees the upright image.
        let stored = try raster.oriented(.left)
        var image = DecodedImage(raster: stored, format: ImageFormat("test"), hasAlpha: false)
        image.orientation = .right
        let result = try await MarkerDetector().detect(in: image)
        #expect(result.imageSize == PixelSize(width: 300, height: 200))
        #expect(result.regions == markers)
        #expect(result.regions(in: PixelSize(width: 150, height: 100)).first?.width == 20)
    }
}

/// The detector contract fails deliberately broken detectors on the checks they break.
@Suite struct BrokenDetectorContractTests {
    typealias Check = ImageDetectorContract.Check

    func report(_ detector: any ImageDetector) async throws -> ContractReport {
        let (raster, markers) = try DetectorContractTests.markedImage()
        return await ImageDetectorContract(
            makeDetector: { detector },
            samples: [DetectorSample(name: "two markers", raster: raster, expected: markers)]
        ).run()
    }

    @Test func regionsOutsideTheImageFail() async throws {
        let report = try await report(BrokenDetectors.OutsideTheImage())
        #expect(report.failedCheckNames.contains(Check.reportsValidRegions.rawValue), "\(report)")
        #expect(report.failedCheckNames.contains(Check.findsExpectedRegions.rawValue), "\(report)")
    }

    @Test func aDetectorIgnoringItsContextFailsCancellationAndDeadline() async throws {
        let report = try await report(BrokenDetectors.IgnoresItsContext())
        #expect(
            report.failedCheckNames == Set([Check.honoursCancellation, .honoursDeadline].map(\.rawValue)), "\(report)")
    }

    @Test func aRestlessDetectorFailsDeterminism() async throws {
        let report = try await report(BrokenDetectors.Restless())
        #expect(report.failedCheckNames.contains(Check.isDeterministic.rawValue), "\(report)")
        #expect(report.failedCheckNames.contains(Check.findsNothingOnFlatImages.rawValue), "\(report)")
    }
}
