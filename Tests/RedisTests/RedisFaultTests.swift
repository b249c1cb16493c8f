import Foundation
import Imago
import ImagoTestSupport
import Testing

/// Redis down, killed, restarted, slow or refusing the login: every load still succeeds from the network with the
/// exact pixels, each cache wait is bounded by the timeout, the failure is reported once, and Redis is used again
/// after the retry interval.
@Suite(.serialized) struct RedisFaultTests {
    @Test func downAtStartThenStarted() async throws {
        let server = try RedisServer(startsNow: false)
        let rig = try FaultRig(url: server.url())
        try await rig.loadAll(expecting: .network)
        try await rig.loadAll(expecting: .network)
        #expect(rig.reported.count == 1, "\(rig.reported)")
        #expect(rig.events.count == 1, "one event per outage: \(rig.events)")
        #expect(rig.reported.first?.kind == .cacheFailed)
        #expect(rig.cache.stats.skipped > 0, "the cache stood aside instead of trying Redis on every call")

        try server.start()
        try await rig.waitRetryInterval()
        try await rig.loadAll(expecting: .network)  // these loads write to Redis again
        try await rig.loadAll(expecting: .dataCache)
        #expect(try await rig.cache.contents().entries == FaultRig.names.count)
        #expect(rig.cache.lastError == nil)
    }

    @Test func killedMidRunThenRestarted() async throws {
        let server = try RedisServer()
        let rig = try FaultRig(url: server.url())
        try await rig.loadAll(expecting: .network)
        try await rig.loadAll(expecting: .dataCache)
        server.kill()
        try await rig.loadAll(expecting: .network)
        try await rig.loadAll(expecting: .network)
        #expect(rig.reported.count == 1, "\(rig.reported)")
        #expect(rig.events.count == 1, "one event per outage: \(rig.events)")

        try server.start()  // empty: nothing was saved
        try await rig.waitRetryInterval()
        try await rig.loadAll(expecting: .network)
        try await rig.loadAll(expecting: .dataCache)
        for name in FaultRig.names {
            #expect(try await rig.origin.count(name) == 4, "network only while Redis was not")
        }
        #expect(rig.reported.count == 1)
    }

    @Test func slowRedisCostsAtMostTheTimeout() async throws {
        let server = try RedisServer()
        let rig = try FaultRig(url: server.url())
        try await rig.loadAll(expecting: .network)
        server.pause()
        // Stopped until resumed: a wait the timeout did not bound would never end, so loads that finish while it is
        // stopped prove the bound; the wall-clock limit only catches a gross overrun.
        try await rig.loadAll(expecting: .network, maxWait: 30)
        #expect(rig.reported.count == 1, "\(rig.reported)")
        #expect(rig.events.count == 1, "one event per outage: \(rig.events)")
        #expect(rig.reported.first?.reason.contains("no answer") == true, "\(rig.reported)")
        // Once running again, and after the retry interval, Redis answers.
        server.resume()
        var hit = false
        let deadline = Date().addingTimeInterval(8)
        while !hit && Date() < deadline {
            try await rig.waitRetryInterval()
            hit = try await rig.load("a.png").response.origin == .dataCache
        }
        #expect(hit, "Redis is not used again after it woke up")
        #expect(rig.reported.count == 1)
    }

    @Test func wrongOrMissingPasswordIsReportedAndLoadsGoOn() async throws {
        let server = try RedisServer(password: "right-password")
        let wrong = try FaultRig(url: server.url(password: "wrong-password"))
        try await wrong.loadAll(expecting: .network)
        try await wrong.loadAll(expecting: .network)
        #expect(wrong.reported.count == 1, "\(wrong.reported)")
        #expect(wrong.events.count == 1, "one event per outage: \(wrong.events)")
        #expect(wrong.reported.first?.reason.contains("refused the login") == true, "\(wrong.reported)")
        #expect(wrong.reported.first?.description.contains("wrong-password") == false, "the password is not shown")

        let missing = try FaultRig(url: "redis://127.0.0.1:\(server.port)/0")
        try await missing.loadAll(expecting: .network)
        #expect(missing.reported.count == 1, "\(missing.reported)")
        #expect(missing.events.count == 1, "one event per outage: \(missing.events)")

        let right = try FaultRig(url: server.url())
        try await right.loadAll(expecting: .network)
        try await right.loadAll(expecting: .dataCache)
        #expect(right.reported.isEmpty)
    }

    @Test func aDownRedisUnderADiskLayerIsOneEvent() async throws {
        let (png, raster) = try NoiseImage.png(seed: 21)
        let origin = try CountingOrigin(files: ["t.png": png])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imago-tier-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let redis = try RedisFixtures.cache(url: "redis://127.0.0.1:\(try RedisServer.freePort())/0", timeout: 0.75)
        let factories = PluginRegistry.standardFactories()
        var configuration = factories.standardConfiguration()
        configuration.imageCache = nil
        configuration.dataCache = nil
        var builder = PluginRegistry.Builder(try factories.configured(by: configuration))
        builder.dataCache = TieredDataCache(layers: [
            .init(name: "disk", cache: DiskDataCache(configuration: .init(directory: folder))),
            .init(name: "redis", cache: redis),
        ])
        let registry = builder.build()
        let events = ErrorLog()
        let listener = ImageLoadEventClosure { event in
            switch event.kind {
            case .dataCacheReadFailed(let error), .cacheWriteFailed(.data, let error): events.append(error)
            default: break
            }
        }
        for _ in 0..<3 {
            let loader = ImageLoader(registry: registry, eventListeners: [listener])
            let response = try await loader.image(
                for: ImageRequest(url: origin.url("t.png"), cachePolicy: [.readDisk, .writeDisk]))
            #expect(response.image.raster == raster)
        }
        #expect(events.all.count == 1, "\(events.all)")
        #expect(events.all.first?.description.contains("redis") == true)
    }
}
