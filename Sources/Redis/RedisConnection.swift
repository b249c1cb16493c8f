import CHiredis
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Why a Redis call failed: the server could not be reached, did not answer in time, refused the login, or
/// answered with an error.
struct RedisFailure: Error, Sendable, Equatable {
    /// What happened, for the reported error.
    var message: String
    /// Whether the connection was closed under the call (the server restarted, say): worth one try on a new one.
    var connectionLost = false

    static func timedOut(after seconds: Double) -> RedisFailure {
        RedisFailure(message: "no answer within \(seconds) s")
    }
}

/// One blocking hiredis connection. Not thread-safe: each belongs to one worker thread of a `RedisWorkers`, and is
/// thrown away after any failure (hiredis leaves a context that failed or timed out unusable).
final class RedisConnection {
    private let context: UnsafeMutablePointer<redisContext>

    /// Connects to `endpoint`, logs in and selects the database, each step bounded by `timeout` seconds.
    init(_ endpoint: RedisEndpoint, timeout: Double) throws(RedisFailure) {
        context = try Self.connect(endpoint, timeout: timeout)
        // From here `deinit` frees the context.
        if let password = endpoint.password {
            let login = [endpoint.user, password].compactMap { $0 }.map { Data($0.utf8) }
            if case .error(let reason) = try command([Data("AUTH".utf8)] + login) {
                throw RedisFailure(message: "refused the login: \(reason)")
            }
        }
        if endpoint.database != 0,
            case .error(let reason) = try command([Data("SELECT".utf8), Data(String(endpoint.database).utf8)])
        {
            throw RedisFailure(message: "refused SELECT \(endpoint.database): \(reason)")
        }
    }

    deinit { redisFree(context) }

    /// A connected context with its command timeout set; freed here if that fails (a class whose stored
    /// properties are all set runs `deinit` when its initializer throws, so `init` must not free it too).
    private static func connect(
        _ endpoint: RedisEndpoint, timeout: Double
    ) throws(RedisFailure) -> UnsafeMutablePointer<redisContext> {
        let interval = Self.interval(timeout)
        guard let context = redisConnectWithTimeout(endpoint.host, Int32(endpoint.port), interval) else {
            throw RedisFailure(message: "cannot allocate a connection")
        }
        if context.pointee.err != 0 {
            let reason = Self.errorText(context)
            redisFree(context)
            throw RedisFailure(message: "cannot connect: \(reason)")
        }
        guard redisSetTimeout(context, interval) == REDIS_OK else {
            redisFree(context)
            throw RedisFailure(message: "cannot set the connection's timeout")
        }
        return context
    }

    /// Sends one command (binary-safe arguments) and waits for its reply.
    func command(_ arguments: [Data]) throws(RedisFailure) -> RedisReply {
        let raw = Self.withArgv(arguments) { count, argv, lengths in
            redisCommandArgv(context, count, argv, lengths)
        }
        guard let raw else { throw Self.failure(context) }
        defer { freeReplyObject(raw) }
        return RedisReply(raw.assumingMemoryBound(to: redisReply.self))
    }

    /// Sends several commands at once and reads their replies, in order.
    func pipeline(_ commands: [[Data]]) throws(RedisFailure) -> [RedisReply] {
        for arguments in commands {
            let status = Self.withArgv(arguments) { count, argv, lengths in
                redisAppendCommandArgv(context, count, argv, lengths)
            }
            guard status == REDIS_OK else { throw Self.failure(context) }
        }
        var replies: [RedisReply] = []
        replies.reserveCapacity(commands.count)
        for _ in commands {
            var raw: UnsafeMutableRawPointer?
            guard redisGetReply(context, &raw) == REDIS_OK, let raw else { throw Self.failure(context) }
            replies.append(RedisReply(raw.assumingMemoryBound(to: redisReply.self)))
            freeReplyObject(raw)
        }
        return replies
    }

    /// Calls `body` with hiredis's `argc`, `argv` and `argvlen` for `arguments`, which may hold any bytes.
    private static func withArgv<Result>(
        _ arguments: [Data],
        _ body: (Int32, UnsafeMutablePointer<UnsafePointer<CChar>?>, UnsafePointer<Int>) -> Result
    ) -> Result {
        var buffer = [UInt8]()
        buffer.reserveCapacity(arguments.reduce(1) { $0 + $1.count })
        var offsets: [Int] = []
        for argument in arguments {
            offsets.append(buffer.count)
            buffer.append(contentsOf: argument)
        }
        buffer.append(0)  // never an empty buffer, so there is always a base address
        let lengths = arguments.map(\.count)
        return buffer.withUnsafeBytes { bytes in
            let base = bytes.baseAddress!.assumingMemoryBound(to: CChar.self)
            var pointers: [UnsafePointer<CChar>?] = offsets.map { UnsafePointer(base + $0) }
            return pointers.withUnsafeMutableBufferPointer { argv in
                lengths.withUnsafeBufferPointer { body(Int32(arguments.count), argv.baseAddress!, $0.baseAddress!) }
            }
        }
    }

    /// The failure a broken context shows: a timeout, or a lost connection (end of file, reset).
    private static func failure(_ context: UnsafeMutablePointer<redisContext>) -> RedisFailure {
        let text = errorText(context)
        let lost = context.pointee.err == REDIS_ERR_EOF || (context.pointee.err == REDIS_ERR_IO && text != timeoutText)
        return RedisFailure(message: text, connectionLost: lost)
    }

    private static let timeoutText = "no answer in time"

    private static func errorText(_ context: UnsafeMutablePointer<redisContext>) -> String {
        let text = withUnsafeBytes(of: &context.pointee.errstr) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        // A socket timeout shows as EAGAIN.
        if text == "Resource temporarily unavailable" { return timeoutText }
        return text.isEmpty ? "connection failed" : text
    }

    private static func interval(_ seconds: Double) -> timeval {
        let clamped = max(0.001, seconds)
        let whole = clamped.rounded(.down)
        return timeval(tv_sec: Int(whole), tv_usec: Int((clamped - whole) * 1_000_000))
    }
}
