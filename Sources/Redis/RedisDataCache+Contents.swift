import Foundation

/// Counting and clearing what lives under the key prefix, with `SCAN` (never `KEYS`, which blocks the server).
extension RedisDataCache {
    /// The keys under the prefix and the bytes of their values. Throws `cacheFailed` when Redis fails.
    public func contents() async throws(ImagoError) -> Contents {
        let pattern = Self.matchPattern(forPrefix: configuration.keyPrefix)
        let result = await workers.run(deadline: nil) { session throws(RedisFailure) -> Contents in
            var seen = Set<Data>()
            var bytes = 0
            try Self.scan(session, pattern: pattern) { keys throws(RedisFailure) in
                let fresh = keys.filter { seen.insert($0).inserted }
                let lengths = try session.pipeline(fresh.map { [Data("STRLEN".utf8), $0] })
                for case .integer(let length) in lengths { bytes += length }
            }
            return Contents(entries: seen.count, bytes: bytes)
        }
        return try result.mapError { self.adminError($0) }.get()
    }

    /// Deletes every key under the prefix and returns how many there were. Throws `cacheFailed` when Redis fails.
    @discardableResult
    public func removeAllEntries() async throws(ImagoError) -> Int {
        let pattern = Self.matchPattern(forPrefix: configuration.keyPrefix)
        let result = await workers.run(deadline: nil) { session throws(RedisFailure) -> Int in
            var removed = 0
            try Self.scan(session, pattern: pattern) { keys throws(RedisFailure) in
                guard !keys.isEmpty else { return }
                if case .integer(let count) = try session.command([Data("DEL".utf8)] + keys) { removed += count }
            }
            return removed
        }
        return try result.mapError { self.adminError($0) }.get()
    }

    /// Walks the keys matching `pattern` with `SCAN`, a batch at a time.
    private static func scan(
        _ session: RedisSession, pattern: Data, batch: ([Data]) throws(RedisFailure) -> Void
    ) throws(RedisFailure) {
        var cursor = Data("0".utf8)
        repeat {
            let reply = try session.command([
                Data("SCAN".utf8), cursor, Data("MATCH".utf8), pattern, Data("COUNT".utf8), Data("1000".utf8),
            ])
            guard case .array(let parts) = reply, parts.count == 2, case .string(let next) = parts[0],
                case .array(let keys) = parts[1]
            else { throw RedisFailure(message: "unexpected reply to SCAN: \(reply)") }
            try batch(keys.compactMap { if case .string(let key) = $0 { key } else { nil } })
            cursor = next
        } while cursor != Data("0".utf8)
    }

    /// A `MATCH` pattern for the keys starting with `prefix`, its glob characters escaped.
    static func matchPattern(forPrefix prefix: String) -> Data {
        var pattern = Data()
        for byte in prefix.utf8 {
            if "*?[]\\^".utf8.contains(byte) { pattern.append(UInt8(ascii: "\\")) }
            pattern.append(byte)
        }
        pattern.append(UInt8(ascii: "*"))
        return pattern
    }

    private func adminError(_ failure: RedisFailure) -> ImagoError {
        ImagoError(.cacheFailed, failure.message, source: configuration.endpoint.description)
    }
}
