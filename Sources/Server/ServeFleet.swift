import Foundation
import Imago
import Synchronization

/// What the processes of a fleet share: the coordinator of leases (`serve.fleet`), and the counts of the shared
/// parts' failures for `/metrics`. Without a coordinator every process works alone, as a single server does.
///
/// A failure of the coordinator (down, slow, refusing the login) never fails a request: the work is done here,
/// the failure is counted, and the coordinator is left alone for `retryInterval` seconds, then asked again, so
/// sharing resumes by itself when it is back.
public final class ServeFleet: Sendable {
    /// The leases, if any.
    public let coordinator: (any FleetCoordinator)?
    /// The lease settings.
    public let settings: FleetSettings
    /// How long a waiter waits for a holder that keeps renewing before it does the work itself, seconds.
    let maxWait: Double
    private let state = Mutex(State())
    /// Leaves the coordinator alone for `retryInterval` after a failure.
    private let outage: OutageGate

    private struct State {
        var errors: [String: Int] = [:]
        var sourceCopies = 0
    }

    /// The fleet `settings.fleet` describes (Redis leases when `fleet.redis` is set), or one with `coordinator`.
    public init(settings: ServeSettings, coordinator: (any FleetCoordinator)? = nil) throws {
        self.settings = settings.fleet
        maxWait = settings.sourceTimeout + 2 * Double(settings.fleet.leaseMilliseconds) / 1000
        outage = OutageGate(retryInterval: settings.fleet.retryInterval)
        if let coordinator {
            self.coordinator = coordinator
        } else if let url = settings.fleet.redis {
            let endpoint = try RedisEndpoint(url: url, path: "serve.fleet.redis")
            self.coordinator = RedisLease(
                endpoint: endpoint, keyPrefix: settings.fleet.keyPrefix, timeout: settings.fleet.timeout)
        } else {
            self.coordinator = nil
        }
    }

    /// Whether leases are in use.
    var shares: Bool { coordinator != nil }

    /// Counts a failure of a shared part: `store` is `lease`, `results` or `sources`, `op` what was asked.
    func recordError(store: String, op: String) {
        state.withLock { $0.errors["\(store)|\(op)", default: 0] += 1 }
    }

    /// A fetch answered with the copy another process fetched (the loader counted it as a transport attempt).
    func recordSourceCopy() { state.withLock { $0.sourceCopies += 1 } }

    var sourceCopies: Int { state.withLock { $0.sourceCopies } }
    var errors: [(store: String, op: String, count: Int)] {
        state.withLock { $0.errors }.sorted { $0.key < $1.key }.map { key, count in
            let parts = key.split(separator: "|", maxSplits: 1).map(String.init)
            return (parts[0], parts[1], count)
        }
    }

    // MARK: Doing work once per fleet

    /// `work`'s value, done by one process of the fleet at a time under the lease `name`: the holder first asks
    /// `lookup` (a waiter before it may have finished), then works; the others wait until the lease is free and
    /// do the same, so they find the holder's result. Without a coordinator, or when it fails, `work` runs here.
    func once<Value: Sendable>(
        _ name: String, lookup: @escaping @Sendable () async -> Value?,
        work: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        guard let coordinator else { return try await work() }
        let started = ContinuousClock.now
        var pause = Duration.milliseconds(5)
        while true {
            guard let outcome = await acquire(name, coordinator) else { return try await work() }
            if let token = outcome {
                return try await holding(name, token: token, coordinator) {
                    if let found = await lookup() { return found }
                    return try await work()
                }
            }
            // Held elsewhere. A holder that keeps renewing for longer than a fetch and a render take is stuck.
            if started.duration(to: .now) > .seconds(maxWait) { return try await work() }
            try await Task.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(50))
        }
    }

    /// `.some(token)`: acquired; `.some(nil)`: held by another; `nil`: the coordinator is unavailable.
    private func acquire(_ name: String, _ coordinator: any FleetCoordinator) async -> String?? {
        guard outage.enter() else { return nil }
        do {
            return .some(try await coordinator.acquire(name, milliseconds: settings.leaseMilliseconds))
        } catch {
            failed(op: "acquire", error)
            return nil
        }
    }

    /// Runs `body` holding the lease, renewed every third of its life, and releases it after (success or not).
    private func holding<Value: Sendable>(
        _ name: String, token: String, _ coordinator: any FleetCoordinator,
        _ body: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let milliseconds = settings.leaseMilliseconds
        let renewal = Task {
            while !Task.isCancelled {
                try await Task.sleep(for: .milliseconds(milliseconds / 3))
                do {
                    // A lease lost (it expired, Redis restarted) is not taken back: the work goes on regardless.
                    guard try await coordinator.renew(name, token: token, milliseconds: milliseconds) else { return }
                } catch {
                    failed(op: "renew", error)
                }
            }
        }
        let result: Result<Value, any Error>
        do {
            result = .success(try await body())
        } catch {
            result = .failure(error)
        }
        renewal.cancel()
        do {
            try await coordinator.release(name, token: token)
        } catch {
            failed(op: "release", error)
        }
        return try result.get()
    }

    private func failed(op: String, _ error: any Error) {
        state.withLock { $0.errors["lease|\(op)", default: 0] += 1 }
        _ = outage.failed(ImagoError.wrapping(error))
    }
}
