import Foundation
import ImagoCore
import Synchronization

extension ImageInterceptorContract {
    func keepsItsPlace() async throws {
        let rig = try InterceptorRig(makeInterceptor(), downstream: downstream)
        _ = try? await rig.loader.image(for: request)
        let log = rig.log.entries
        try contractRequire(log.first == "outer>" && log.last == "<outer", "the chain's first link ran as \(log)")
        let inner = log.filter { $0.hasSuffix("inner>") || $0.hasPrefix("<inner") }
        try contractRequire(
            inner.count % 2 == 0 && log.dropFirst().dropLast().count == inner.count,
            "links ran outside the interceptor's place: \(log)")
    }

    func proceedsAtMostAsDeclared() async throws {
        for failing in [false, true] {
            let rig = try InterceptorRig(makeInterceptor(), downstream: downstream)
            rig.inner.failing = failing
            _ = try? await rig.loader.image(for: request)
            let proceeds = rig.inner.proceeds
            try contractRequire(
                proceeds <= maxProceedsPerLoad,
                "one load\(failing ? " that failed downstream" : "") was passed on \(proceeds) times "
                    + "(declared at most \(maxProceedsPerLoad))")
        }
    }

    func letsCancellationThrough() async throws {
        let rig = try InterceptorRig(makeInterceptor(), downstream: downstream)
        rig.inner.blocking = true
        let load = Task { [request] in try await rig.loader.image(for: request) }
        // Wait until the load is held downstream (or was answered without passing it on).
        for _ in 0..<2000 where rig.inner.proceeds == 0 && !rig.log.entries.contains("<outer") {
            try await Task.sleep(nanoseconds: 1_000_000)
        }
        let passedOn = rig.inner.proceeds
        load.cancel()
        let result = await load.result
        guard passedOn > 0 else { return }  // answered itself: nothing downstream to cancel
        guard case .failure(let error) = result, (error as? ImagoError)?.kind == .cancelled else {
            throw ContractFailure("a cancelled load ended with \(Describe.outcome(result)) instead of cancelled")
        }
        try contractRequire(
            rig.outer.lastError != nil || rig.outer.lastForeignError != nil,
            "the interceptor answered a cancelled load instead of letting the cancellation through")
        try contractRequire(
            rig.inner.proceeds == passedOn, "the interceptor passed a cancelled load on again (\(rig.inner.proceeds))")
    }

    func letsErrorsThroughTyped() async throws {
        let rig = try InterceptorRig(makeInterceptor(), downstream: downstream)
        rig.inner.failing = true
        do {
            _ = try await rig.loader.image(for: request)
        } catch {
            guard rig.outer.lastError != nil else {
                throw ContractFailure(
                    "the interceptor threw \(Describe.error(rig.outer.lastForeignError ?? error)), not an ImagoError")
            }
        }
    }

    func servesConcurrentLoads() async throws {
        let rig = try InterceptorRig(makeInterceptor(), downstream: downstream)
        let request = request
        let outcomes = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    do {
                        _ = try await rig.loader.image(for: request)
                        return nil
                    } catch let error as ImagoError {
                        return error.kind == .cancelled ? "cancelled" : nil
                    } catch {
                        return Describe.error(error)
                    }
                }
            }
            return await group.reduce(into: [String]()) { if let outcome = $1 { $0.append(outcome) } }
        }
        try contractRequire(outcomes.isEmpty, "concurrent loads ended with \(outcomes)")
        try contractRequire(
            rig.inner.proceeds <= 8 * maxProceedsPerLoad, "8 loads were passed on \(rig.inner.proceeds) times")
    }

    func endsAsExpected() async throws {
        guard let expected else { return }
        let rig = try InterceptorRig(makeInterceptor(), downstream: downstream)
        let result: Result<ImageResponse, any Error>
        do {
            result = .success(try await rig.loader.image(for: request))
        } catch {
            result = .failure(error)
        }
        let outcome: InterceptorOutcome? =
            switch result {
            case .success(let response): .image(origin: response.origin)
            case .failure(let error as ImagoError): .failure(error.kind)
            case .failure: nil
            }
        try contractRequire(
            outcome == expected, "the load ended with \(Describe.outcome(result)), expected \(expected)")
    }
}
