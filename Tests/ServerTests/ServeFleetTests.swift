import Foundation
import ImagoTestSupport
import Synchronization
import Testing

@testable import ImagoServer

/// `ServeFleet.once` over a real redis-server child: two fleets on one Redis stand for two processes.
@Suite struct ServeFleetTests {
    let redis: RedisServer

    init() throws { redis = try RedisServer() }

    func fleet(_ url: String? = nil, leaseMilliseconds: Int = 1000, timeout: Double = 2) throws -> ServeFleet {
        var settings = ServeSettings()
        settings.fleet.redis = url ?? redis.url()
        settings.fleet.keyPrefix = "fleet-test:"
        settings.fleet.leaseMilliseconds = leaseMilliseconds
        settings.fleet.timeout = timeout
        return try ServeFleet(settings: settings)
    }

    @Test func identicalWorkInTwoProcessesRunsOnce() async throws {
        // A lease far longer than the work and a generous timeout: a starved machine must not expire the lease or
        // time out Redis (either makes the second process work alone, by design).
        let (first, second) = (
            try fleet(leaseMilliseconds: 3_600_000, timeout: 30), try fleet(leaseMilliseconds: 3_600_000, timeout: 30)
        )
        let store = Mutex<String?>(nil)
        let runs = Atomic(0)
        let lookup = { @Sendable () async -> String? in store.withLock { $0 } }
        let work = { @Sendable () async throws -> String in
            runs.add(1, ordering: .relaxed)
            try await Task.sleep(for: .milliseconds(50))
            store.withLock { $0 = "rendered" }
            return "rendered"
        }
        async let a = first.once("render:x", lookup: lookup, work: work)
        async let b = second.once("render:x", lookup: lookup, work: work)
        async let c = second.once("render:x", lookup: lookup, work: work)
        #expect(try await [a, b, c] == ["rendered", "rendered", "rendered"])
        let count = runs.load(ordering: .relaxed)
        #expect(count == 1)
        #expect(try redis.cli(["EXISTS", "fleet-test:render:x"]) == "0", "released")
    }

    @Test func aLeaseLeftByADeadProcessDelaysTheWorkOnlyUntilItExpires() async throws {
        try redis.cli(["SET", "fleet-test:render:y", "a-dead-owner", "PX", "300"])
        let ran = try await fleet().once("render:y", lookup: { nil }, work: { "done" })
        #expect(ran == "done")
    }

    @Test func aFailedWorkReleasesTheLeaseAndTheNextOneWorks() async throws {
        let fleet = try fleet(leaseMilliseconds: 600_000)
        await #expect(throws: ServeFailure.self) {
            _ = try await fleet.once("render:z", lookup: { nil }) { () async throws -> String in
                throw ServeFailure(404, "gone")
            }
        }
        #expect(try redis.cli(["EXISTS", "fleet-test:render:z"]) == "0")
        #expect(try await fleet.once("render:z", lookup: { nil }, work: { "second" }) == "second")
    }

    @Test func aLongWorkRenewsItsLeaseWithItsToken() async throws {
        var settings = ServeSettings()
        settings.fleet.leaseMilliseconds = 300
        let recorder = RenewalRecorder(
            RedisLease(endpoint: try RedisEndpoint(url: redis.url()), keyPrefix: "fleet-test:", timeout: 5))
        let fleet = try ServeFleet(settings: settings, coordinator: recorder)
        let renewals = try await fleet.once("render:long", lookup: { nil }) { () async throws -> [Bool] in
            for _ in 0..<1000 where recorder.renewals.count < 2 { try await Task.sleep(for: .milliseconds(20)) }
            return recorder.renewals
        }
        #expect(renewals.count >= 2 && renewals.allSatisfy { $0 }, "\(renewals)")
        #expect(try redis.cli(["EXISTS", "fleet-test:render:long"]) == "0", "released")
    }

    @Test func aRedisDownSlowOrRefusingIsCountedAndTheWorkRunsHere() async throws {
        let down = try fleet("redis://127.0.0.1:\(try RedisServer.freePort())/0")
        #expect(try await down.once("a", lookup: { nil }, work: { "local" }) == "local")
        #expect(down.errors.map(\.op) == ["acquire"])
        // Within retryInterval the coordinator is left alone: no second error, no wait.
        #expect(try await down.once("a", lookup: { nil }, work: { "local" }) == "local")
        #expect(down.errors.first?.count == 1)

        let locked = try RedisServer(password: "right")
        let refused = try fleet(locked.url(password: "wrong"))
        #expect(try await refused.once("a", lookup: { nil }, work: { "local" }) == "local")
        #expect(refused.errors.first?.store == "lease")

        var settings = ServeSettings()
        settings.fleet.redis = redis.url()
        settings.fleet.timeout = 0.2
        let slow = try ServeFleet(settings: settings)
        redis.pause()
        #expect(try await slow.once("a", lookup: { nil }, work: { "local" }) == "local")
        redis.resume()
        #expect(slow.errors.map(\.op) == ["acquire"])
    }

    @Test func withoutRedisTheWorkRunsAsBefore() async throws {
        let alone = try ServeFleet(settings: ServeSettings())
        #expect(!alone.shares)
        #expect(try await alone.once("a", lookup: { "stored" }, work: { "rendered" }) == "rendered")
    }
}

/// Leases that live an hour in Redis whatever the fleet asks (so a slow machine cannot let one expire), recording
/// each renewal's outcome.
private final class RenewalRecorder: FleetCoordinator {
    let leases: RedisLease
    private let outcomes = Mutex<[Bool]>([])

    init(_ leases: RedisLease) { self.leases = leases }

    var renewals: [Bool] { outcomes.withLock { $0 } }

    func acquire(_ name: String, milliseconds: Int) async throws -> String? {
        try await leases.acquire(name, milliseconds: 3_600_000)
    }

    func renew(_ name: String, token: String, milliseconds: Int) async throws -> Bool {
        let renewed = try await leases.renew(name, token: token, milliseconds: 3_600_000)
        outcomes.withLock { $0.append(renewed) }
        return renewed
    }

    func release(_ name: String, token: String) async throws -> Bool {
        try await leases.release(name, token: token)
    }
}
