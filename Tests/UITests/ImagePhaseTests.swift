import Foundation
import ImagoCore
import ImagoTestSupport
import Testing

@testable import ImagoUI

@MainActor
@Suite struct ImagePhaseTests {
    @Test func phaseAccessors() throws {
        let image = DecodedImage(raster: try Raster(width: 4, height: 2, fill: RGBA(1, 2, 3)), format: .png)
        var scaled = image
        scaled.scale = 2
        let response = ImageResponse(
            image: scaled, request: ImageRequest(url: URL(string: "fake://h/a")!), origin: .dataCache, attempts: 0,
            metrics: LoadMetrics())
        let success = ImagePhase.success(response)
        #expect(try #require(success.image).pointSize == (2, 1))
        #expect(success.origin == .dataCache)
        #expect(success.error == nil && !success.isEmpty)
        let failure = ImagePhase.failure(ImagoError(.timedOut, "timed out"))
        #expect(failure.error?.kind == .timedOut && failure.image == nil)
        #expect(ImagePhase.empty.isEmpty && ImagePhase.empty.image == nil)
    }

    @Test func networkLoadDeliversSuccessWithCrossfade() async throws {
        let env = FakeEnvironment()
        env.transport.serve("/a", data: FakeDecoder.encode())
        var request = env.request("/a")
        request.scale = 2
        let model = ImageModel(loader: env.loader, request: request)
        var delivered: [(ImagePhase, ImageTransaction)] = []
        model.onPhaseChange { delivered.append(($0, $1)) }
        #expect(model.phase.isEmpty)
        model.load()
        #expect(model.isLoading)
        await waitUntil { !delivered.isEmpty }
        #expect(delivered.count == 1)
        let (phase, transaction) = try #require(delivered.first)
        #expect(phase.origin == .network)
        #expect(transaction.origin == .network)
        #expect(transaction.scale == 2)
        #expect(transaction.effectiveTransition == .crossfade(duration: 0.25))
        #expect(try #require(model.phase.image).pointSize == (2, 1.5))
        #expect(model.transaction == transaction)
        #expect(!model.isLoading)
    }

    @Test func memoryHitsAreDeliveredWithoutAnimation() async throws {
        let env = FakeEnvironment()
        env.transport.serve("/a", data: FakeDecoder.encode())
        _ = try await env.loader.image(for: env.request("/a"))
        let model = ImageModel(loader: env.loader, request: env.request("/a"))
        model.load()
        // Served synchronously, before load() returns.
        #expect(model.phase.origin == .memory)
        #expect(model.transaction.disablesAnimations)
        #expect(model.transaction.effectiveTransition == .none)

        let withoutHook = ImageModel(loader: env.loader, request: env.request("/a"), hooks: [])
        withoutHook.load()
        #expect(withoutHook.phase.origin == .memory)
        #expect(!withoutHook.transaction.disablesAnimations)
    }

    @Test func hooksRunInOrderBeforeObserversAndMayChangeTheTransaction() async throws {
        let env = FakeEnvironment()
        env.transport.serve("/a", data: FakeDecoder.encode())
        var log: [String] = []
        let first = ImagePhaseHook("first") { change, transaction in
            log.append("first \(change.from.isEmpty) \(transaction.effectiveTransition)")
            transaction.transition = .crossfade(duration: 1)
        }
        let second = ImagePhaseHook("second") { _, transaction in
            log.append("second \(transaction.transition)")
            transaction.disablesAnimations = true
        }
        let model = ImageModel(loader: env.loader, request: env.request("/a"), hooks: [first, second])
        model.onPhaseChange { phase, transaction in
            log.append("did \(phase.origin!) \(transaction.disablesAnimations)")
        }
        model.load()
        await waitUntil { log.count == 3 }
        #expect(log == ["first true crossfade(duration: 0.25)", "second crossfade(duration: 1.0)", "did network true"])
    }

    @Test func failuresAreDelivered() async throws {
        let env = FakeEnvironment()
        let model = ImageModel(loader: env.loader, request: env.request("/missing"))
        model.load()
        await waitUntil { model.phase.error != nil }
        #expect(model.phase.error?.statusCode == 404)
        #expect(model.transaction.effectiveTransition == .crossfade(duration: 0.25))
    }

    @Test func changingTheRequestCancelsTheLoadAndLoadsTheNewOne() async throws {
        let env = FakeEnvironment()
        let gate = AsyncGate()
        env.transport.serve("/slow", FakeTransport.Behavior(data: FakeDecoder.encode(), gate: gate))
        env.transport.serve("/b", data: FakeDecoder.encode(width: 6))
        let model = ImageModel(loader: env.loader, request: env.request("/slow"))
        var phases: [String] = []
        model.onPhaseChange { phase, _ in phases.append(phase.description) }
        model.load()
        await waitUntil { gate.waiterCount == 1 }
        model.request = env.request("/b")
        await waitUntil { env.transport.terminations == 1 }
        #expect(env.transport.terminations == 1)
        await waitUntil { model.phase.image?.width == 6 }
        #expect(model.phase.image?.width == 6)
        gate.open()
        // The replaced load delivered nothing: only the new image.
        #expect(phases == ["success(6x3, network)"])
    }

    @Test func droppingTheModelCancelsItsLoad() async throws {
        let env = FakeEnvironment()
        let gate = AsyncGate()
        env.transport.serve("/slow", FakeTransport.Behavior(data: FakeDecoder.encode(), gate: gate))
        var model: ImageModel? = ImageModel(loader: env.loader, request: env.request("/slow"))
        model?.load()
        await waitUntil { gate.waiterCount == 1 }
        weak let weakModel = model
        model = nil
        #expect(weakModel == nil)
        await waitUntil { env.transport.terminations == 1 }
        #expect(env.transport.terminations == 1)
        gate.open()
    }

    @Test func changesCausedByObserversAreDeliveredInOrder() async throws {
        let env = FakeEnvironment()
        env.transport.serve("/a", data: FakeDecoder.encode())
        env.transport.serve("/b", data: FakeDecoder.encode(width: 2))
        _ = try await env.loader.image(for: env.request("/a"))
        _ = try await env.loader.image(for: env.request("/b"))
        let model = ImageModel(loader: env.loader, request: env.request("/a"))
        var seen: [String] = []
        model.onPhaseChange { phase, _ in
            seen.append(phase.description)
            // An observer switching the request in the middle of a delivery.
            if phase.image?.width == 4 { model.request = env.request("/b") }
        }
        model.load()
        #expect(seen == ["success(4x3, memory)", "empty", "success(2x3, memory)"])
    }
}
