import Foundation
import ImagoTestSupport
import Testing

@testable import ImagoCore

/// Every preview before the final response, as `responses(for:previews:)` yields them.
func collect(_ stream: ImageResponses) async throws -> [ImageResponse] {
    var responses: [ImageResponse] = []
    for try await response in stream { responses.append(response) }
    return responses
}

@Suite(.serialized) struct ImageLoaderPreviewTests {
    let eager = PreviewPolicy(minimumInterval: 0, cpuShare: 1)

    @Test func previewsComeBeforeTheFinalWithItsSizeAndAreNotCached() async throws {
        let environment = SteppedEnvironment()
        var request = environment.request
        request.processors = [ResizeProcessor(width: 4, height: 3)]
        let responses = try await collect(environment.loader.responses(for: request, previews: eager))
        let previews = responses.dropLast()
        let final = try #require(responses.last)
        #expect(previews.count >= 2)
        #expect(previews.allSatisfy { $0.isPreview })
        #expect(!final.isPreview)
        #expect(responses.allSatisfy { $0.image.width == 4 && $0.image.height == 3 })
        // Each preview shows a later step than the one before: greys grow, and the final is the last step's.
        let greys = responses.map { $0.image.raster.pixels[0] }
        #expect(greys == greys.sorted() && Set(greys).count == greys.count)
        #expect(greys.last == 240)
        #expect(previews.allSatisfy { $0.metrics.byteCount < environment.data.count })
        // Only the final went into the memory cache, and the incremental decoder gave it: no second decode.
        #expect(environment.imageCache.storeCount == 1)
        #expect(environment.loader.cachedImage(for: request) == final.image)
        #expect(environment.decoder.oneShotDecodes == 0)
        #expect(environment.loader.previewStatistics.incrementalFinals == 1)
        #expect(environment.loader.statistics.decodes == 1)
    }

    @Test func bytesArrivingAtOnceGiveNoPreview() async throws {
        let environment = SteppedEnvironment(chunkSize: .max, pause: 0)
        let responses = try await collect(environment.loader.responses(for: environment.request, previews: eager))
        #expect(responses.count == 1)
        #expect(responses.first?.isPreview == false)
        #expect(environment.loader.previewStatistics.previews == 0)
    }

    @Test func theIntervalSpacesPreviewsFromTheFirstByteOn() async throws {
        // Three steps a chunk, chunks 60 ms apart: a preview at most per chunk, none within 50 ms of the last.
        let environment = SteppedEnvironment(steps: 12, chunkSize: 64 * 3, pause: 0.06)
        let policy = PreviewPolicy(minimumInterval: 0.05, cpuShare: 1)
        let responses = try await collect(environment.loader.responses(for: environment.request, previews: policy))
        let times = responses.filter { $0.isPreview }.map(\.metrics.totalDuration)
        #expect(times.count >= 1)
        #expect(times.first! >= 0.05)
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 >= 0.05 })
        // Fewer previews than steps: at most one per chunk (the first chunk has none: it starts the interval).
        #expect(times.count <= 4)
        #expect(responses.last?.isPreview == false)
    }

    @Test func aMemoryHitGivesTheFinalOnly() async throws {
        let environment = SteppedEnvironment()
        _ = try await environment.loader.image(for: environment.request)
        let responses = try await collect(environment.loader.responses(for: environment.request, previews: eager))
        #expect(responses.count == 1)
        #expect(responses.first?.origin == .memory)
    }

    @Test func aLoadWithoutPreviewsMakesNoIncrementalDecoder() async throws {
        let environment = SteppedEnvironment()
        _ = try await environment.loader.image(for: environment.request)
        #expect(environment.decoder.incrementalDecoders == 0)
        #expect(environment.decoder.oneShotDecodes == 1)
        #expect(environment.loader.previewStatistics.previews == 0)
    }

    @Test func aCoalescedWaiterWithoutPreviewsSharesTheLoadAndGetsNoPreview() async throws {
        let environment = SteppedEnvironment(pause: 0.005)
        let loader = environment.loader
        let request = environment.request
        let stream = loader.responses(for: request, previews: eager)
        let previewing = Task { try await collect(stream) }
        await eventually { loader.previewStatistics.liveDecoders == 1 }
        let plain = try await loader.image(for: request)
        let responses = try await previewing.value
        #expect(!plain.isPreview)
        #expect(plain.image == responses.last?.image)
        #expect(responses.filter { $0.isPreview }.count >= 1)
        #expect(environment.transport.fetches == 1)
        #expect(loader.statistics.decodes == 1)
        #expect(environment.decoder.oneShotDecodes == 0)
    }

    @Test func cancellingMidStreamStopsTheFetchAndFreesTheDecoder() async throws {
        let environment = SteppedEnvironment(pause: 0.001, stallAfter: 32 + 64 * 3)
        let loader = environment.loader
        let previews = Counter()
        let consumer = Task {
            for try await response in loader.responses(for: environment.request, previews: eager)
            where response.isPreview {
                previews.increment()
            }
        }
        await eventually { previews.count >= 2 }
        #expect(previews.count >= 2)
        consumer.cancel()
        // The consumer never ends quietly: without the final image, the iteration throws `cancelled`.
        let ending = await consumer.result
        #expect(throws: ImagoError.self) { try ending.get() }
        #expect((try? ending.get()) == nil)
        if case .failure(let error as ImagoError) = ending { #expect(error.kind == .cancelled) }
        await eventually {
            loader.previewStatistics.liveDecoders == 0 && environment.decoder.live.value == 0
        }
        #expect(loader.previewStatistics.liveDecoders == 0)
        #expect(environment.decoder.live.value == 0)
        await eventually { environment.transport.terminations == 1 }
        #expect(environment.transport.terminations == 1)
        #expect(environment.imageCache.storeCount == 0)
    }

    @Test func aTruncatedImageFailsAfterItsPreviews() async throws {
        let truncated = SteppedEnvironment.truncatedTransport(SteppedDecoder.encode().prefix(32 + 64 * 4 + 10))
        let environment = SteppedEnvironment(extraTransport: truncated)
        var request = environment.request
        request.url = URL(string: "truncated://host/image")!
        var previews = 0
        let error = await #expect(throws: ImagoError.self) {
            for try await response in environment.loader.responses(for: request, previews: eager) {
                if response.isPreview { previews += 1 }
            }
        }
        #expect(error?.kind == .decodingFailed(format: ImageFormat("step")))
        #expect(previews >= 2)
        // The one-shot decode has the final word on bytes the incremental decoder could not finish.
        #expect(environment.decoder.oneShotDecodes == 1)
    }
}
