import ImagoCore
import ImagoTestSupport
import Testing

@testable import ImagoUI

@Suite struct ProgressCoalescerTests {
    /// Ten thousand chunks reported as fast as they come give a handful of main-actor updates, never more than
    /// one per 16 ms interval, and the last one carries the final count.
    @Test func manyReportsBecomeAFewUpdatesEndingWithTheLatest() async throws {
        let delivered = Updates<Int64>()
        let coalescer = ProgressCoalescer { progress in
            MainActor.assertIsolated()
            delivered.append(progress.received)
        }
        let start = ContinuousClock.now
        await Task.detached {
            for chunk in 1...10_000 { coalescer.report(FetchProgress(received: Int64(chunk), expected: 10_000)) }
        }.value
        await eventually { delivered.values.last == 10_000 }
        let elapsed = start.duration(to: .now)
        #expect(delivered.values.last == 10_000)
        #expect(delivered.values == delivered.values.sorted(), "in order")
        #expect(coalescer.deliveryCount == delivered.values.count)
        // Updates are at least an interval apart, so there can be at most one per interval elapsed (plus the first).
        let intervals = Int(elapsed / ProgressCoalescer.interval)
        #expect(delivered.values.count <= intervals + 1)
        #expect(delivered.values.count < 100)
    }
}
