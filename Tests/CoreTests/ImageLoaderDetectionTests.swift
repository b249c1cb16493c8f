import Foundation
import ImagoTestSupport
import Synchronization
import Testing

@testable import ImagoCore

/// Finds one "thing" covering the image's left half; counts its runs and remembers the sizes it saw.
final class CountingDetector: ImageDetector {
    let runs = Mutex<[PixelSize]>([])
    let workingSize: Int?
    let waitsForCancellation: Bool

    init(workingSize: Int? = nil, waitsForCancellation: Bool = false) {
        self.workingSize = workingSize
        self.waitsForCancellation = waitsForCancellation
    }

    var identifier: String { "counting" }
    var kinds: Set<RegionKind> { ["thing"] }
    var runCount: Int { runs.withLock { $0.count } }

    func detect(in raster: Raster, context: DetectionContext) throws -> [DetectedRegion] {
        runs.withLock { $0.append(PixelSize(width: raster.width, height: raster.height)) }
        while waitsForCancellation {
            try context.checkpoint()
            Thread.sleep(forTimeInterval: 0.01)
        }
        return [
            DetectedRegion(
                kind: "thing", x: 0, y: 0, width: max(1, raster.width / 2), height: raster.height, confidence: 0.5)
        ]
    }
}

@Suite(.timeLimit(.minutes(2))) struct ImageLoaderDetectionTests {
    static let request = ImageRequest(url: URL(string: "fake://host/a")!)

    static func loader(transport: FakeTransport, cache: FakeDataCache) -> ImageLoader {
        var builder = PluginRegistry.Builder()
        builder.add(transport)
        builder.add(FakeDecoder())
        builder.dataCache = cache
        return ImageLoader(registry: builder.build())
    }

    @Test func anAnswerIsReusedFromMemoryThenFromTheDataCacheAcrossLoaders() async throws {
        let transport = FakeTransport(cachePolicy: nil)
        transport.serve("/a", data: FakeDecoder.encode(width: 40, height: 20))
        let cache = FakeDataCache()
        let detector = CountingDetector()
        let first = Self.loader(transport: transport, cache: cache)
        let result = try await first.detect(detector, in: Self.request)
        #expect(result.imageSize == PixelSize(width: 40, height: 20))
        #expect(result.regions == [DetectedRegion(kind: "thing", x: 0, y: 0, width: 20, height: 20, confidence: 0.5)])
        #expect(try await first.detect(detector, in: Self.request) == result)
        #expect(detector.runCount == 1)
        await first.waitForPendingWrites()
        let stats = first.statistics
        #expect(stats.detections == 1 && stats.detectionCacheHits == 1 && stats.detectionCPUSeconds >= 0)
        // Another loader sharing the data cache (a fleet) reuses the stored answer.
        let second = Self.loader(transport: transport, cache: cache)
        #expect(try await second.detect(detector, in: Self.request) == result)
        #expect(detector.runCount == 1)
        #expect(second.statistics.detectionCacheHits == 1 && second.statistics.detections == 0)
        let stored = try #require(cache.peek(DetectionCacheEntry.key(for: Self.request, detector: "counting")))
        #expect(stored.data.count < 1024)
    }

    @Test func newBytesBehindTheSameSourceAreDetectedAgain() async throws {
        let transport = FakeTransport(cachePolicy: nil)
        transport.serve("/a", data: FakeDecoder.encode(width: 40, height: 20))
        let cache = FakeDataCache()
        let detector = CountingDetector()
        let first = Self.loader(transport: transport, cache: cache)
        _ = try await first.detect(detector, in: Self.request)
        await first.waitForPendingWrites()
        transport.serve("/a", data: FakeDecoder.encode(width: 30, height: 30))
        let loader = Self.loader(transport: transport, cache: cache)
        let result = try await loader.detect(detector, in: Self.request)
        #expect(result.imageSize == PixelSize(width: 30, height: 30))
        #expect(detector.runCount == 2)
    }

    @Test func aDamagedOrForeignEntryIsAMiss() async throws {
        let transport = FakeTransport(cachePolicy: nil)
        transport.serve("/a", data: FakeDecoder.encode(width: 40, height: 20))
        let cache = FakeDataCache()
        let detector = CountingDetector()
        let key = DetectionCacheEntry.key(for: Self.request, detector: "counting")
        let digest = DetectionCacheEntry.digest(of: FakeDecoder.encode(width: 40, height: 20))
        let outside = DetectionResult(
            detector: "counting", imageSize: PixelSize(width: 40, height: 20),
            regions: [DetectedRegion(kind: "thing", x: 30, y: 0, width: 20, height: 20, confidence: 0.5)])
        for body in [
            Data("not json".utf8), Data(),
            // A region outside the image it names; another source's entry; another detector's.
            DetectionCacheEntry(source: Self.request.dataCacheKey, digest: digest, result: outside).encoded,
            DetectionCacheEntry(source: CacheKey("other"), digest: digest, result: outside).encoded,
        ] {
            cache.put(DataCacheEntry(data: body), for: key)
            let loader = Self.loader(transport: transport, cache: cache)
            let result = try await loader.detect(detector, in: Self.request)
            #expect(result.regions.first?.width == 20)
            // The answer's own write goes before the next damaged entry is put.
            await loader.waitForPendingWrites()
        }
        #expect(detector.runCount == 4)
    }

    @Test func theDetectorSeesAnUprightReducedDecode() async throws {
        let transport = FakeTransport(cachePolicy: nil)
        // 60x20 stored, orientation 6: 20x60 upright.
        transport.serve("/a", data: FakeDecoder.encode(width: 60, height: 20, orientation: 6))
        let decoder = FakeDecoder()
        var builder = PluginRegistry.Builder()
        builder.add(transport)
        builder.add(decoder)
        let loader = ImageLoader(registry: builder.build())
        let detector = CountingDetector(workingSize: 16)
        let result = try await loader.detect(detector, in: Self.request)
        #expect(detector.runs.withLock { $0 } == [PixelSize(width: 20, height: 60)])
        #expect(result.imageSize == PixelSize(width: 20, height: 60))
        #expect(decoder.options.first?.targetSize == PixelSize(width: 16, height: 16))
        #expect(decoder.options.first?.frames == .first)
        // Without a data cache or memory writes nothing else is kept: the memory cache holds no reduced decode.
        #expect(loader.cachedImage(for: Self.request) == nil)
    }

    @Test func cancellationAndDeadlinesStopADetector() async throws {
        let transport = FakeTransport(cachePolicy: nil)
        transport.serve("/a", data: FakeDecoder.encode())
        let loader = Self.loader(transport: transport, cache: FakeDataCache())
        let detector = CountingDetector(waitsForCancellation: true)
        let task = Task { try await loader.detect(detector, in: Self.request) }
        while detector.runCount == 0 { try await Task.sleep(nanoseconds: 10_000_000) }
        task.cancel()
        do {
            _ = try await task.value
            Issue.record("a cancelled detection answered")
        } catch let error as ImagoError {
            #expect(error.kind == .cancelled)
        }
        do {
            _ = try await loader.detect(detector, in: Self.request, deadline: .now + .milliseconds(200))
            Issue.record("a detection past its deadline answered")
        } catch let error as ImagoError {
            #expect(error.kind == .timedOut)
        }
    }
}
