import Testing

@testable import ImagoServer

/// Shared renders: cancelled when their last waiter leaves, kept while any stays.
@Suite struct InFlightRendersTests {
    @Test func theLastWaiterToLeaveCancelsTheWork() async throws {
        let renders = InFlightRenders<Int>()
        let started = AsyncStream<Void>.makeStream()
        let cancelled = AsyncStream<Bool>.makeStream()
        let waiter = Task {
            try await renders.value(for: "k") {
                started.continuation.yield()
                do {
                    try await Task.sleep(for: .seconds(30))
                } catch {
                    cancelled.continuation.yield(true)
                    throw error
                }
                return 1
            }
        }
        var iterator = started.stream.makeAsyncIterator()
        await iterator.next()
        waiter.cancel()
        var cancellations = cancelled.stream.makeAsyncIterator()
        #expect(await cancellations.next() == true)
        #expect(renders.count == 0)
    }

    @Test func workGoesOnWhileAnotherWaiterStays() async throws {
        let renders = InFlightRenders<Int>()
        let release = AsyncStream<Void>.makeStream()
        let work: @Sendable () async throws -> Int = {
            var iterator = release.stream.makeAsyncIterator()
            await iterator.next()
            try Task.checkCancellation()
            return 7
        }
        let leaving = Task { try await renders.value(for: "k", work: work) }
        let staying = Task { try await renders.value(for: "k", work: work) }
        while renders.waiters(for: "k") < 2 { try await Task.sleep(for: .milliseconds(5)) }
        leaving.cancel()
        while renders.waiters(for: "k") > 1 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(renders.count == 1, "the render goes on for the one that stays")
        release.continuation.yield()
        let (value, _) = try await staying.value
        #expect(value == 7)
    }
}
