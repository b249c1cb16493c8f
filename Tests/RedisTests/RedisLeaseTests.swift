import Foundation
import ImagoTestSupport
import Testing

@testable import ImagoRedis

/// Leases on a real redis-server child: one owner at a time, renewed and released by their owner only, gone by
/// themselves when nobody renews them. Leases meant to last live an hour: a starved test run can spend a minute
/// between two lines.
@Suite struct RedisLeaseTests {
    let redis: RedisServer
    let leases: RedisLease

    init() throws {
        redis = try RedisServer()
        leases = RedisLease(endpoint: try RedisEndpoint(url: redis.url()), keyPrefix: "lease-test:", timeout: 5)
    }

    @Test func oneOwnerAtATime() async throws {
        let token = try #require(try await leases.acquire("a", milliseconds: 3_600_000))
        #expect(try await leases.acquire("a", milliseconds: 3_600_000) == nil)
        #expect(try redis.cli(["GET", "lease-test:a"]) == token)
        let other = try #require(try await leases.acquire("b", milliseconds: 3_600_000))
        #expect(other != token)
    }

    @Test func onlyTheOwnerRenewsAndReleases() async throws {
        let token = try #require(try await leases.acquire("a", milliseconds: 3_600_000))
        #expect(try await leases.renew("a", token: "someone-else", milliseconds: 36_000_000) == false)
        #expect(try #require(Int(try redis.cli(["PTTL", "lease-test:a"]))) <= 3_600_000)
        #expect(try await leases.renew("a", token: token, milliseconds: 36_000_000))
        #expect(try #require(Int(try redis.cli(["PTTL", "lease-test:a"]))) > 3_600_000)
        #expect(try await leases.release("a", token: "someone-else") == false)
        #expect(try await leases.acquire("a", milliseconds: 1000) == nil, "still held by its owner")
        #expect(try await leases.release("a", token: token))
        #expect(try await leases.release("a", token: token) == false, "released once")
        #expect(try await leases.acquire("a", milliseconds: 1000) != nil)
    }

    @Test func aLeaseNobodyRenewsExpires() async throws {
        let first = try #require(try await leases.acquire("a", milliseconds: 100))
        var next: String?
        for _ in 0..<500 where next == nil {
            next = try await leases.acquire("a", milliseconds: 3_600_000)
            if next == nil { try await Task.sleep(for: .milliseconds(20)) }
        }
        let second = try #require(next, "the lease never expired")
        #expect(try await leases.renew("a", token: first, milliseconds: 3_600_000) == false)
        #expect(try await leases.release("a", token: first) == false)
        #expect(try redis.cli(["GET", "lease-test:a"]) == second)
    }

    @Test func aRedisDownOrRefusingTheLoginThrows() async throws {
        let down = RedisLease(
            endpoint: try RedisEndpoint(url: "redis://127.0.0.1:\(try RedisServer.freePort())/0"), timeout: 1)
        await #expect(throws: ImagoError.self) { try await down.acquire("a", milliseconds: 1000) }
        let locked = try RedisServer(password: "right")
        let refused = RedisLease(endpoint: try RedisEndpoint(url: locked.url(password: "wrong")), timeout: 1)
        await #expect(throws: ImagoError.self) { try await refused.acquire("a", milliseconds: 1000) }
        let allowed = RedisLease(endpoint: try RedisEndpoint(url: locked.url()), timeout: 10)
        #expect(try await allowed.acquire("a", milliseconds: 1000) != nil)
    }

    @Test func aRestartedRedisIsUsedAgainWithoutANewLease() async throws {
        _ = try await leases.acquire("a", milliseconds: 3_600_000)
        redis.kill()
        await #expect(throws: ImagoError.self) { try await leases.acquire("b", milliseconds: 1000) }
        try redis.start()
        #expect(try await leases.acquire("a", milliseconds: 1000) != nil, "a restarted Redis holds no lease")
    }
}
