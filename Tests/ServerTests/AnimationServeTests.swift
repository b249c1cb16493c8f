import Foundation
import Imago
import Testing

/// `imago serve` converts an animated source into an animated format frame by frame: every frame, its duration and
/// the loop count kept, each frame resized.
@Suite struct AnimationServeTests {
    @Test(arguments: ["webp", "gif", "avif"])
    func resizesEveryFrameAndKeepsTheDurations(format: String) async throws {
        let fixture = try ServerFixture()
        let response = try await fixture.get(fixture.path("w=4,f=\(format)", origin: "img/anim.gif"))
        #expect(response.status == 200)
        let registry = PluginRegistry.standard()
        let decoder = try #require(registry.decoder(for: ImageFormat(format)))
        let image = try decoder.decode(response.body)
        #expect(image.frames.count == 3)
        #expect(image.width == 4 && image.height == 3)
        #expect(image.durations.map { ($0 * 1000).rounded() } == [100, 100, 100])
        if format != "avif" { #expect(image.loopCount == 0) }
    }
}
