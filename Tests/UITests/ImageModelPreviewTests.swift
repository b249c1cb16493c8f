import Foundation
import ImagoCore
import ImagoTestSupport
import Testing

@testable import ImagoUI

@MainActor
@Suite(.serialized) struct ImageModelPreviewTests {
    @Test func previewsChangeThePhaseWithoutAnimationAndTheFinalCrossfades() async throws {
        let environment = SteppedEnvironment(pause: 0.004)
        let model = ImageModel(loader: environment.loader, request: environment.request)
        model.previews = PreviewPolicy(minimumInterval: 0, cpuShare: 1)
        var hookSaw: [Bool] = []
        model.hooks.append(ImagePhaseHook("record") { change, _ in hookSaw.append(change.to.isPreview) })
        var delivered: [(ImagePhase, ImageTransaction)] = []
        model.onPhaseChange { delivered.append(($0, $1)) }
        model.load()
        await waitUntil { delivered.last.map { !$0.0.isPreview } ?? false }
        let previews = delivered.filter { $0.0.isPreview }
        let final = try #require(delivered.last)
        #expect(previews.count >= 1)
        #expect(previews.allSatisfy { $0.1.effectiveTransition == .none && $0.1.disablesAnimations })
        #expect(!final.0.isPreview)
        #expect(final.1.effectiveTransition == .crossfade(duration: 0.25))
        #expect(hookSaw == delivered.map { $0.0.isPreview })
        #expect(!model.isLoading)
        #expect(model.phase.image?.raster.pixels[0] == 240)
        // Nothing arrives after the final image.
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(!(model.phase.isPreview))
    }

    @Test func withoutAPolicyTheModelShowsNoPreview() async throws {
        let environment = SteppedEnvironment(pause: 0.002)
        let model = ImageModel(loader: environment.loader, request: environment.request)
        var delivered: [ImagePhase] = []
        model.onPhaseChange { phase, _ in delivered.append(phase) }
        model.load()
        await waitUntil { !delivered.isEmpty }
        #expect(delivered.count == 1)
        #expect(delivered.first?.isPreview == false)
        #expect(environment.decoder.incrementalDecoders == 0)
    }
}
