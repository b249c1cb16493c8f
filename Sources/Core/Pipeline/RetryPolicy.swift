import Foundation

/// Which failures are retried, how often, and how long to wait between attempts.
///
/// Retryable: what can succeed later: connection failures and resets (`connectionFailed`), timeouts, and HTTP 408,
/// 429, 500, 502, 503 and 504. Never other statuses, TLS or certificate failures, invalid URLs, file errors,
/// decoding errors, limits or cancellation. Delays grow exponentially with jitter up to `maxDelay`; a server's
/// `Retry-After` is honoured within the same cap.
public struct RetryPolicy: Sendable, Hashable, Codable {
    /// Most attempts in all (1 means no retry).
    public var maxAttempts: Int
    /// The delay before the second attempt, in seconds.
    public var initialDelay: Double
    /// The factor each further delay grows by.
    public var multiplier: Double
    /// The longest delay, in seconds, Retry-After included.
    public var maxDelay: Double
    /// The random part of a delay, as a fraction of it (0.2 gives ±20%).
    public var jitter: Double

    /// Creates a policy.
    public init(
        maxAttempts: Int = 3, initialDelay: Double = 0.5, multiplier: Double = 2, maxDelay: Double = 10,
        jitter: Double = 0.2
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.initialDelay = max(0, initialDelay)
        self.multiplier = max(1, multiplier)
        self.maxDelay = max(0, maxDelay)
        self.jitter = min(max(0, jitter), 1)
    }

    /// The defaults: 3 attempts, 0.5 s doubling, capped at 10 s, ±20% jitter.
    public static let `default` = RetryPolicy()
    /// One attempt, no retry.
    public static let none = RetryPolicy(maxAttempts: 1)

    /// Whether `error` is worth another attempt.
    public func isRetryable(_ error: ImagoError) -> Bool {
        switch error.kind {
        case .timedOut, .connectionFailed: return true
        case .transportFailed(let status?): return Self.retryableStatuses.contains(status)
        default: return false
        }
    }

    /// The HTTP statuses worth another attempt.
    public static let retryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504]

    /// The wait before attempt `attempt + 1` after `attempt` failed with `error` (attempts count from 1).
    public func delay(afterAttempt attempt: Int, error: ImagoError? = nil, random: Double = Double.random(in: -1...1))
        -> Double
    {
        if let retryAfter = error?.retryAfter { return min(max(0, retryAfter), maxDelay) }
        let base = initialDelay * pow(multiplier, Double(max(0, attempt - 1)))
        return min(max(0, base * (1 + jitter * random)), maxDelay)
    }
}
