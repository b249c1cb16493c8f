import ImagoTestSupport
import Testing

@testable import ImagoCore

@Suite struct WorkLimiterTests {
    /// A cancellation that arrives just after the waiter was granted its slot must not leave its id behind (it
    /// used to be kept for ever, one per race).
    @Test func aCancellationRacingAGrantLeavesNothingBehind() async throws {
        let limiter = WorkLimiter(limit: 1)
        let priority = PriorityBox(.normal)
        for _ in 0..<200 {
            try await limiter.acquire(group: nil, priority: priority)
            let waiter = Task {
                try await limiter.acquire(group: nil, priority: priority)
                limiter.release(group: nil)
            }
            await eventually { limiter.waitingCount == 1 }
            limiter.release(group: nil)
            waiter.cancel()
            _ = try? await waiter.value
        }
        #expect(limiter.rememberedCancellations == 0)
        #expect(limiter.activeCount == 0 && limiter.waitingCount == 0)
    }

    @Test func aWaiterCancelledInTheQueueIsRemoved() async throws {
        let limiter = WorkLimiter(limit: 1)
        let priority = PriorityBox(.normal)
        try await limiter.acquire(group: nil, priority: priority)
        let waiter = Task { try await limiter.acquire(group: nil, priority: priority) }
        await eventually { limiter.waitingCount == 1 }
        waiter.cancel()
        let error = await #expect(throws: ImagoError.self) { try await waiter.value }
        #expect(error?.kind == .cancelled)
        #expect(limiter.waitingCount == 0 && limiter.rememberedCancellations == 0)
        limiter.release(group: nil)
        #expect(limiter.activeCount == 0)
    }
}
