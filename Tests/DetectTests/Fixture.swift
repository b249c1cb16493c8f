import Foundation
import ImagoTestSupport

/// This target's fixtures: `astronaut.jpg`, scikit-image's `astronaut.png` (Eileen Collins, a NASA photograph in the
/// public domain) as a JPEG.
enum Fixture: BundledFixtures {
    static let folder = Bundle.module.resourceURL!.appendingPathComponent("Fixtures")
}
