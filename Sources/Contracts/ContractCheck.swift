/// One named promise of a plugin protocol, and the code that checks it.
public struct ContractCheck: Sendable {
    /// What is promised, for example `"response arrives once, before any bytes"`.
    public let name: String
    /// Seconds after which a check that has not finished fails as hung (a hang detector, not a speed test: generous,
    /// since a busy machine running many suites at once starves a check for a long while).
    public let timeout: Double
    private let body: @Sendable () async throws -> Void

    /// Creates a check; `body` throws a `ContractFailure` (or any error) when the promise is broken.
    public init(_ name: String, timeout: Double = 300, body: @escaping @Sendable () async throws -> Void) {
        self.name = name
        self.timeout = timeout
        self.body = body
    }

    /// A check whose `body` is synchronous (it decodes, encodes or detects): it runs on a thread of its own, so the
    /// cooperative pool only awaits and a plugin that hangs holds that thread, not one of the pool's.
    public static func blocking(_ name: String, timeout: Double = 300, body: @escaping @Sendable () throws -> Void)
        -> ContractCheck
    {
        ContractCheck(name, timeout: timeout) { try await Blocking.run(body) }
    }

    /// Runs the check and says whether the promise held, and if not, why.
    public func run() async -> ContractResult {
        do {
            try await Deadline.run(seconds: timeout, body)
            return ContractResult(name: name, reason: nil)
        } catch let failure as ContractFailure {
            return ContractResult(name: name, reason: failure.reason)
        } catch is DeadlineExceeded {
            return ContractResult(name: name, reason: "did not finish within \(Int(timeout)) s (hung?)")
        } catch {
            return ContractResult(name: name, reason: "threw an unexpected error: \(error)")
        }
    }
}

/// A broken promise: the reason says what was expected and what happened.
public struct ContractFailure: Error, Sendable, CustomStringConvertible {
    /// What was expected and what happened instead.
    public let reason: String

    /// Creates a failure.
    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}

/// Fails the current check with `reason` unless `condition` holds.
public func contractRequire(_ condition: Bool, _ reason: @autoclosure () -> String) throws {
    if !condition { throw ContractFailure(reason()) }
}
