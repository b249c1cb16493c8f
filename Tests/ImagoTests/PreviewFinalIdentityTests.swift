import Foundation
import Imago
import ImagoTestSupport
import Testing

/// A load with previews ends with the plain load's image, pixel for pixel: the incremental decoder that drew the
/// previews decodes with the one-shot decoder's scale and IDCT, and the final goes through the same stages.
@Suite struct PreviewFinalIdentityTests {
    static func loader(trickling data: Data) -> ImageLoader {
        var builder = PluginRegistry.Builder()
        builder.add(TricklingTransport(data: data, chunkSize: 2048, pause: 0.001))
        builder.add(Codec(decoder: PNGCodec(), encoder: PNGCodec()))
        builder.add(Codec(decoder: JPEGCodec(), encoder: JPEGCodec()))
        return ImageLoader(registry: builder.build())
    }

    /// The final image of `responses(for:)` and of a plain load of the same request, each on a loader of its own,
    /// and whether the final came from the incremental decoder (else the comparison would prove nothing).
    static func finals(_ fixture: String, processors: [any ImageProcessor]) async throws
        -> (previewed: DecodedImage, plain: DecodedImage, incremental: Bool)
    {
        let data = try ProgressiveFixtures.data(fixture)
        let request = ImageRequest(
            url: URL(string: "trickle://host/\(fixture)")!, processors: processors, cachePolicy: .none)
        let previewing = loader(trickling: data)
        var final: ImageResponse?
        for try await response in previewing.responses(
            for: request, previews: PreviewPolicy(minimumInterval: 0, cpuShare: 1))
        where !response.isPreview {
            final = response
        }
        let plain = try await loader(trickling: data).image(for: request)
        return (
            try #require(final).image, plain.image, previewing.previewStatistics.incrementalFinals == 1
        )
    }

    static let sizes = [70, 150, 200, 300, 400, 500]

    @Test(arguments: sizes)
    func aResizedProgressiveJPEGIsBitIdentical(side: Int) async throws {
        for mode in [ContentMode.fit, .fill] {
            let resize = ResizeProcessor(width: side, height: side, mode: mode)
            let (previewed, plain, incremental) = try await Self.finals(
                ProgressiveFixtures.progressiveJPEG, processors: [resize])
            #expect(incremental, "the final must come from the incremental decoder for \(mode) \(side)")
            #expect(previewed.width == plain.width && previewed.height == plain.height)
            #expect(previewed == plain, "\(mode) \(side): the preview load's final differs from the plain load's")
        }
    }

    @Test func anUnprocessedProgressiveJPEGIsBitIdentical() async throws {
        let (previewed, plain, incremental) = try await Self.finals(ProgressiveFixtures.progressiveJPEG, processors: [])
        #expect(incremental)
        #expect(previewed == plain)
    }

    @Test(arguments: [0, 150, 400])
    func anInterlacedPNGIsBitIdentical(side: Int) async throws {
        let processors: [any ImageProcessor] =
            side == 0 ? [] : [ResizeProcessor(width: side, height: side, mode: .fill)]
        let (previewed, plain, incremental) = try await Self.finals(
            ProgressiveFixtures.adam7PNG, processors: processors)
        #expect(incremental)
        #expect(previewed == plain)
    }
}
