import Foundation

/// Limits the loader imposes on every fetch, whatever transport serves it.
///
/// The loader checks them itself (the source against `policy` before anything is read, the byte cap on what
/// arrives, the deadline over every attempt and the waits between them) and hands them to the transport in
/// `TransportRequest.limits`, so that a transport which follows redirects or opens connections can refuse a hop or
/// an address before anything is sent, and stop at the deadline without being cancelled.
public struct FetchLimits: Sendable {
    /// Most body bytes accepted.
    public var maxBytes: Int
    /// When the whole fetch must have ended, retries included; `nil` for no deadline.
    public var deadline: ContinuousClock.Instant?
    /// What may be fetched and connected to; `nil` allows anything.
    public var policy: (any SourceAccessPolicy)?

    /// Creates limits; the defaults limit nothing.
    public init(maxBytes: Int = .max, deadline: ContinuousClock.Instant? = nil, policy: (any SourceAccessPolicy)? = nil)
    {
        self.maxBytes = maxBytes
        self.deadline = deadline
        self.policy = policy
    }

    /// Seconds left before the deadline (at least 0), or `nil` without one.
    public func secondsLeft(now: ContinuousClock.Instant = .now) -> Double? {
        deadline.map { max(0, now.duration(to: $0).seconds) }
    }

    /// The URL to fetch for `target`, a redirect's target: normalised by `policy`, or `target` itself without one.
    /// Throws the policy's refusal, naming the hop. Transports that follow redirects call it for every hop before
    /// sending anything to it.
    public func checkRedirect(to target: URL, source: String) throws -> URL {
        guard let policy else { return target }
        do {
            return try policy.check(target)
        } catch {
            let refusal = ImagoError.wrapping(error, source: source)
            throw ImagoError(
                refusal.kind, "refused redirect to \(target.absoluteString): \(refusal.reason)", source: source)
        }
    }

    /// Throws `addressRefused` unless `policy` allows connecting to the numeric address `ip`.
    public func checkConnection(to ip: String, host: String, source: String) throws {
        guard let policy, !policy.allowsConnection(to: ip) else { return }
        throw ImagoError(.addressRefused, "refused connection to \(host) (\(ip))", source: source)
    }
}

/// Decides which sources may be fetched and which addresses connected to: `imago serve`'s allow-list and
/// private-address rule, or an app's own. Given to the loader (`ImageLoader(…, sourcePolicy:)`), it applies to every
/// transport: the loader checks the source, and transports check every redirect hop (`check`) and every address they
/// connect to (`allowsConnection`), so no transport can be talked into reading what the policy refuses.
public protocol SourceAccessPolicy: Sendable {
    /// The URL to fetch for `url`, normalised (`SourceURL.normalized`: dot segments removed, symlinks resolved for
    /// files); throws `ImagoError` `addressRefused` (or `invalidSource` when malformed) when it may not be fetched.
    /// Called for the source and for every redirect's target, before anything is sent.
    func check(_ url: URL) throws -> URL

    /// Whether a connection to the numeric address `ip` (IPv4 dotted or IPv6, as resolved) may be opened.
    func allowsConnection(to ip: String) -> Bool
}
