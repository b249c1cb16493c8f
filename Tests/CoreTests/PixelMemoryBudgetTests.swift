import ImagoTestSupport
import Testing

@testable import ImagoCore

@Suite struct PixelMemoryBudgetTests {
    @Test func admitsByBytesAndWaitsForRoom() async throws {
        let budget = PixelMemoryBudget(capacity: 100)
        let first = try await budget.reserve(bytes: 60)
        let second = try await budget.reserve(bytes: 40)
        #expect(budget.usedBytes == 100)
        let third = Task { try await budget.reserve(bytes: 30) }
        await eventually { budget.waitingCount == 1 }
        #expect(budget.waitingCount == 1 && budget.usedBytes == 100)
        second.release()
        let admitted = try await third.value
        #expect(budget.usedBytes == 90)
        first.release()
        admitted.release()
        admitted.release()  // once only
        #expect(budget.usedBytes == 0)
    }

    @Test func anImageLargerThanTheBudgetLoadsAlone() async throws {
        let budget = PixelMemoryBudget(capacity: 100)
        let small = try await budget.reserve(bytes: 10)
        let huge = Task { try await budget.reserve(bytes: 500) }
        await eventually { budget.waitingCount == 1 }
        // First come, first served: a later small one waits behind the huge one.
        let later = Task { try await budget.reserve(bytes: 10) }
        await eventually { budget.waitingCount == 2 }
        small.release()
        let alone = try await huge.value
        #expect(budget.usedBytes == 500 && budget.waitingCount == 1)
        alone.release()
        _ = try await later.value
    }

    @Test func dropppingTheLastReferenceGivesTheBytesBack() async throws {
        let budget = PixelMemoryBudget(capacity: 100)
        do {
            let reservation = try await budget.reserve(bytes: 80)
            #expect(reservation.bytes == 80 && budget.usedBytes == 80)
        }
        #expect(budget.usedBytes == 0)
    }

    @Test func aCancelledWaiterLeavesTheQueueAndLeaksNothing() async throws {
        let budget = PixelMemoryBudget(capacity: 10)
        for _ in 0..<200 {
            let holder = try await budget.reserve(bytes: 10)
            let waiter = Task { try await budget.reserve(bytes: 10) }
            await eventually { budget.waitingCount == 1 }
            // Cancelling right after the admission races it: either outcome is fine, no id may stay behind.
            holder.release()
            waiter.cancel()
            _ = try? await waiter.value
        }
        #expect(budget.rememberedCancellations == 0)
        #expect(budget.usedBytes == 0)
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await budget.reserve(bytes: 1)
        }
        await #expect(throws: CancellationError.self) { try await cancelled.value }
    }

    @Test func theDefaultIsATenthOfMemoryAtMostOneGibibyte() {
        #expect(PixelMemoryBudget.defaultCapacity > 0)
        #expect(PixelMemoryBudget.defaultCapacity <= 1 << 30)
    }
}
