import Foundation
import ImagoCore
import Synchronization
import Testing

@testable import ImagoCodecs

/// Transforms are built once per profile (its bytes' hash) and layout, and shared across threads.
@Suite struct ColorTransformCacheTests {
    @Test func buildsATransformOncePerProfileAndLayout() throws {
        let cache = ColorTransformCache(capacity: 4)
        let kept = try ICCFixtures.decode("rgb-adobe.png", options: DecodeOptions(colorProfiles: .keep))
        let profile = try #require(kept.iccProfile)
        let first = cache.entry(for: profile, layout: .rgba)
        let second = cache.entry(for: Data(profile), layout: .rgba)
        #expect(first.transform != nil && first.transform === second.transform)
        #expect(cache.count == 1)
        // The same bytes read as another layout are another entry (and an RGB profile cannot describe grey).
        #expect(cache.entry(for: profile, layout: .grayInRGBA).problem != nil)
        #expect(cache.count == 2)
    }

    @Test func staysWithinItsCapacity() throws {
        let cache = ColorTransformCache(capacity: 2)
        for file in ["rgb-adobe.png", "rgb-romm.png", "srgb.png"] {
            let profile = try #require(
                try ICCFixtures.decode(file, options: DecodeOptions(colorProfiles: .keep)).iccProfile)
            _ = cache.entry(for: profile, layout: .rgba)
            #expect(cache.count <= 2)
        }
    }

    @Test func anSRGBProfileNeedsNoTransform() throws {
        let profile = try #require(
            try ICCFixtures.decode("srgb.png", options: DecodeOptions(colorProfiles: .keep)).iccProfile)
        let entry = ColorTransformCache(capacity: 2).entry(for: profile, layout: .rgba)
        #expect(entry.problem == nil && entry.transform == nil)
    }

    @Test func oneSharedTransformConvertsOnManyThreadsAlike() throws {
        let data = try ICCFixtures.data("rgb-romm.webp")
        let expected = try ICCFixtures.decode(data).raster
        let results = Mutex<[Raster]>([])
        // Real threads (decoding is CPU work, kept off the cooperative pool).
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            if let raster = try? ICCFixtures.decode(data).raster { results.withLock { $0.append(raster) } }
        }
        let decoded = results.withLock { $0 }
        #expect(decoded.count == 8 && decoded.allSatisfy { $0 == expected })
    }
}
