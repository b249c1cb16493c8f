import Foundation
import ImagoCore

/// Deliberately broken detectors, each breaking one promise, to show the detector contract catches them.
enum BrokenDetectors {
    /// Reports every marker a little to the right of where it is, past the image's edge for one at the edge.
    struct OutsideTheImage: ImageDetector {
        var identifier: String { "outside" }
        var kinds: Set<RegionKind> { [MarkerDetector.marker] }
        func detect(in raster: Raster, context: DetectionContext) throws -> [DetectedRegion] {
            try MarkerDetector().detect(in: raster, context: context).map { region in
                var moved = region
                moved.x = raster.width - region.width / 2
                return moved
            }
        }
    }

    /// Finds its markers, but never looks at its context.
    struct IgnoresItsContext: ImageDetector {
        var identifier: String { "ignores-context" }
        var kinds: Set<RegionKind> { [MarkerDetector.marker] }
        func detect(in raster: Raster, context: DetectionContext) throws -> [DetectedRegion] {
            try MarkerDetector().detect(in: raster, context: DetectionContext())
        }
    }

    /// Reports a region somewhere different each call.
    struct Restless: ImageDetector {
        var identifier: String { "restless" }
        var kinds: Set<RegionKind> { [MarkerDetector.marker] }
        func detect(in raster: Raster, context: DetectionContext) throws -> [DetectedRegion] {
            try context.checkpoint()
            let side = max(1, min(raster.width, raster.height) / 4)
            return [
                DetectedRegion(
                    kind: MarkerDetector.marker, x: Int.random(in: 0...(raster.width - side)),
                    y: Int.random(in: 0...(raster.height - side)), width: side, height: side, confidence: 0.5)
            ]
        }
    }
}
