import Foundation

/// Short leases in Redis, so one process of a fleet does a piece of work while the others wait for its result.
///
/// A lease is one Redis string: `SET name token NX PX milliseconds` takes it when nobody holds it; the holder
/// renews it (`PEXPIRE`) while it works and releases it (`DEL`) when done, both only if the value is still its
/// own token (one Lua script each), so a holder whose lease expired never renews or releases the next holder's.
/// A holder that dies stops renewing: its lease expires after at most `milliseconds`.
///
/// Every call runs on worker threads of its own (hiredis blocks) and waits at most `timeout` seconds; a failure
/// (Redis down, slow, refusing the login, answering an error) throws `cacheFailed`, and the next call reconnects.
public final class RedisLease: Sendable {
    /// The server.
    public let endpoint: RedisEndpoint
    /// Prefix of every lease's Redis key.
    public let keyPrefix: String
    /// Seconds a call may take, connecting included.
    public let timeout: Double
    let workers: RedisWorkers

    private static let renewScript = Data(
        "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0"
            .utf8)
    private static let releaseScript = Data(
        "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0".utf8)

    /// Leases on `endpoint` under `keyPrefix`, with `connections` worker threads, each call bounded by `timeout`.
    public init(
        endpoint: RedisEndpoint, keyPrefix: String = "imago:lease:", timeout: Double = 0.25, connections: Int = 2
    ) {
        self.endpoint = endpoint
        self.keyPrefix = keyPrefix
        self.timeout = timeout
        workers = RedisWorkers(count: connections, endpoint: endpoint, timeout: timeout)
    }

    /// Takes the lease `name` for `milliseconds`: a new owner token, or `nil` when another owner holds it.
    public func acquire(_ name: String, milliseconds: Int) async throws -> String? {
        let token = Self.newToken()
        let command = [
            Data("SET".utf8), key(name), Data(token.utf8), Data("NX".utf8), Data("PX".utf8),
            Data(String(max(1, milliseconds)).utf8),
        ]
        switch try await call(command, operation: "SET NX PX") {
        case .status("OK"): return token
        case .null: return nil
        case let reply: throw Self.unexpected(reply, "SET NX PX")
        }
    }

    /// Extends the lease `name` to `milliseconds` from now if `token` still owns it; whether it did.
    public func renew(_ name: String, token: String, milliseconds: Int) async throws -> Bool {
        let command = [
            Data("EVAL".utf8), Self.renewScript, Data("1".utf8), key(name), Data(token.utf8),
            Data(String(max(1, milliseconds)).utf8),
        ]
        switch try await call(command, operation: "renew") {
        case .integer(let changed): return changed == 1
        case let reply: throw Self.unexpected(reply, "renew")
        }
    }

    /// Releases the lease `name` if `token` still owns it; whether it did.
    @discardableResult
    public func release(_ name: String, token: String) async throws -> Bool {
        let command = [Data("EVAL".utf8), Self.releaseScript, Data("1".utf8), key(name), Data(token.utf8)]
        switch try await call(command, operation: "release") {
        case .integer(let removed): return removed == 1
        case let reply: throw Self.unexpected(reply, "release")
        }
    }

    /// The Redis key of the lease `name`.
    public func redisKey(_ name: String) -> String { keyPrefix + name }

    private func key(_ name: String) -> Data { Data(redisKey(name).utf8) }

    private func call(_ command: [Data], operation: String) async throws -> RedisReply {
        let result = await workers.run(deadline: timeout) { session throws(RedisFailure) in
            try session.command(command)
        }
        switch result {
        case .success(.error(let reason)):
            throw ImagoError(.cacheFailed, "redis lease \(operation): \(reason)", source: endpoint.description)
        case .success(let reply):
            return reply
        case .failure(let failure):
            throw ImagoError(.cacheFailed, "redis lease \(operation): \(failure.message)", source: endpoint.description)
        }
    }

    private static func unexpected(_ reply: RedisReply, _ operation: String) -> ImagoError {
        ImagoError(.cacheFailed, "redis lease \(operation): unexpected reply \(reply)")
    }

    /// 128 random bits in hex: no two owners, in any process, share one.
    private static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return [generator.next(), generator.next()].map { (value: UInt64) in
            let hex = String(value, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}
