import Foundation
import ImagoCore
import Synchronization

/// What one embedded profile means for one source layout, worked out once and shared by every decode of an
/// image with the same profile (keyed by the SHA-256 of the profile's bytes).
struct ColorProfileEntry: Sendable {
    /// The profile's description, nil when it has none or cannot be read.
    let description: String?
    /// The transform to sRGB; nil when the profile is sRGB already (the transform would change nothing).
    let transform: ColorTransform?
    /// Why the profile cannot be used (malformed, or for another colour space), nil when it can.
    let problem: String?
}

/// Transforms cached per profile hash and layout. Bounded: when full it starts again, which costs only the
/// rebuilding of a few transforms (a photo library holds few distinct profiles).
final class ColorTransformCache: Sendable {
    static let shared = ColorTransformCache()

    private struct Key: Hashable {
        let profileHash: [UInt8]
        let layout: ColorSourceLayout
    }

    private let entries = Mutex<[Key: ColorProfileEntry]>([:])
    private let capacity: Int

    init(capacity: Int = 64) { self.capacity = capacity }

    /// The entry for `profile` read as `layout`, built on a miss.
    func entry(for profile: Data, layout: ColorSourceLayout) -> ColorProfileEntry {
        var hasher = SHA256()
        profile.withUnsafeBytes { hasher.update($0) }
        let key = Key(profileHash: hasher.finalize(), layout: layout)
        if let cached = entries.withLock({ $0[key] }) { return cached }
        // Built outside the lock: two threads may build the same entry once each, never block each other.
        let built = Self.build(profile, layout: layout)
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = built
        }
        return built
    }

    /// How many entries are cached (for tests).
    var count: Int { entries.withLock { $0.count } }

    private static func build(_ profile: Data, layout: ColorSourceLayout) -> ColorProfileEntry {
        guard let opened = OpenedColorProfile(profile) else {
            return ColorProfileEntry(description: nil, transform: nil, problem: "malformed ICC profile ignored")
        }
        let description = opened.description
        guard opened.colorSpace == layout.profileSpace else {
            return ColorProfileEntry(
                description: description, transform: nil,
                problem: "ICC profile ignored: it is not for the image's \(layout.name) colour space")
        }
        guard let transform = ColorTransform(profile: opened.handle, layout: layout) else {
            return ColorProfileEntry(
                description: description, transform: nil, problem: "ICC profile ignored: lcms2 cannot use it")
        }
        return ColorProfileEntry(
            description: description, transform: transform.isIdentity ? nil : transform, problem: nil)
    }
}
