import Foundation
import Synchronization
import Testing

@testable import ImagoCore

/// The stand-aside rule the Redis and S3 caches and the fleet's leases share, on a clock the test moves.
@Suite struct OutageGateTests {
    final class TestClock: Sendable {
        private let time = Mutex(Date(timeIntervalSince1970: 1_000_000))
        var now: Date { time.withLock { $0 } }
        func advance(_ seconds: Double) { time.withLock { $0 = $0.addingTimeInterval(seconds) } }
    }

    let clock = TestClock()
    var gate: OutageGate { OutageGate(retryInterval: 5, now: { [clock] in clock.now }) }

    @Test func standsAsideForTheIntervalAndReportsOncePerOutage() {
        let gate = gate
        #expect(gate.enter())
        #expect(gate.failed(ImagoError(.cacheFailed, "first")), "the first failure of an outage is reported")
        #expect(!gate.enter())
        clock.advance(4.9)
        #expect(!gate.enter())
        #expect(gate.skipped == 2)
        clock.advance(0.2)
        #expect(gate.enter(), "tried again after the interval")
        #expect(!gate.failed(ImagoError(.cacheFailed, "second")), "the same outage: not reported again")
        #expect(gate.lastError?.reason == "second")
        clock.advance(5.1)
        gate.succeeded()
        #expect(gate.lastError == nil)
        #expect(gate.failed(ImagoError(.cacheFailed, "third")), "a success ended the outage: a new one is reported")
        #expect(gate.failures == 3)
        #expect(gate.firstError?.reason == "first")
    }

    @Test func aCallThatBeganBeforeAFailureDoesNotEndItBySucceedingLate() {
        let gate = gate
        let before = gate.failures
        _ = gate.failed(ImagoError(.cacheFailed, "meanwhile"))
        gate.succeeded(since: before)
        #expect(!gate.enter(), "still standing aside")
        #expect(gate.lastError != nil)
        gate.succeeded(since: gate.failures)
        #expect(gate.enter())
    }
}
