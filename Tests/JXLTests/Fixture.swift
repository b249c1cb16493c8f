import Foundation
import ImagoTestSupport

/// The committed fixtures of this target (readers and comparisons in `BundledFixtures`).
enum Fixture: BundledFixtures {
    static let folder = Bundle.module.resourceURL!.appendingPathComponent("Fixtures")
}
