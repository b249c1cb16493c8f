import Foundation
import ImagoTestSupport
import Testing

@testable import ImagoRedis

/// Shared helpers of the Redis tests.
enum RedisFixtures {
    /// A cache on `url` under a prefix of its own, so caches sharing one server never see each other's keys.
    static func cache(
        url: String, prefix: String = "test-\(UUID().uuidString):", timeout: Double = 5, retryInterval: Double = 5,
        timeToLive: Int = 604_800, maxEntryBytes: Int = 10 << 20, onError: (@Sendable (ImagoError) -> Void)? = nil
    ) throws -> RedisDataCache {
        RedisDataCache(
            configuration: .init(
                endpoint: try RedisEndpoint(url: url), keyPrefix: prefix, timeToLive: timeToLive,
                maxEntryBytes: maxEntryBytes, timeout: timeout, retryInterval: retryInterval),
            onError: onError)
    }

    /// The stored value of `key`, read with the cache's own connection.
    static func storedValue(in cache: RedisDataCache, key: CacheKey) async throws -> Data? {
        let name = Data(cache.redisKey(for: key).utf8)
        let reply = try await cache.workers.run(deadline: 5) { session throws(RedisFailure) in
            try session.command([Data("GET".utf8), name])
        }.get()
        if case .string(let value) = reply { return value }
        return nil
    }

    /// Replaces the stored value of `key` with `value`, bypassing the cache's checks.
    static func setValue(_ value: Data, in cache: RedisDataCache, key: CacheKey) async throws {
        let name = Data(cache.redisKey(for: key).utf8)
        _ = try await cache.workers.run(deadline: 5) { session throws(RedisFailure) in
            try session.command([Data("SET".utf8), name, value])
        }.get()
    }

    /// Flips one byte in the middle of the stored value of `key`.
    static func flipByte(in cache: RedisDataCache, key: CacheKey) async throws {
        guard var value = try await storedValue(in: cache, key: key) else {
            throw RedisServerError(message: "nothing stored for \(key)")
        }
        value[value.count / 2] ^= 0xFF
        try await setValue(value, in: cache, key: key)
    }
}
