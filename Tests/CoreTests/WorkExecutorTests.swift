import Dispatch
import Foundation
import ImagoTestSupport
import Synchronization
import Testing

@testable import ImagoCore

/// A thread-blocking gate: closures on executor threads wait on it (like a long decode) until it opens.
final class ThreadGate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let entered = Atomic(0)
    private let opened = Atomic(false)

    /// How many closures are blocked in `pass()` or went through it.
    var enteredCount: Int { entered.load(ordering: .acquiring) }
    var isOpen: Bool { opened.load(ordering: .acquiring) }

    func pass() {
        entered.add(1, ordering: .acquiringAndReleasing)
        semaphore.wait()
        semaphore.signal()
    }

    func open() {
        if !opened.exchange(true, ordering: .acquiringAndReleasing) { semaphore.signal() }
    }
}

@Suite struct WorkExecutorTests {
    @Test func runsOnItsOwnThreadsAndReturnsTheResult() async throws {
        let executor = WorkExecutor(name: "test.compute", threadCount: 2)
        let names = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<6 { group.addTask { try await executor.run { WorkExecutor.currentName ?? "" } } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(names.count == 6 && names.allSatisfy { $0 == "test.compute" })
        #expect(executor.liveThreadCount <= 2)
        #expect(WorkExecutor.currentName == nil)
        let error = await #expect(throws: ImagoError.self) {
            try await executor.run { throw ImagoError(.decodingFailed(format: .png), "bad") }
        }
        #expect(error?.reason == "bad")
    }

    /// The cooperative pool stays free while every executor thread is held by a long job and more wait: a task
    /// on the pool completes before any of them is let go. (Were the jobs on the pool, this would never finish;
    /// the gate opens by itself after a minute only so that such a failure cannot hang the run.)
    @Test func thePoolStaysResponsiveWhileLongJobsRun() async throws {
        let executor = WorkExecutor(name: "test.busy", threadCount: ProcessInfo.processInfo.activeProcessorCount)
        let gate = ThreadGate()
        let jobs = executor.threadCount * 4
        let running = (0..<jobs).map { _ in Task { try await executor.run { gate.pass() } } }
        await eventually { gate.enteredCount == executor.threadCount }
        #expect(gate.enteredCount == executor.threadCount)
        let fallback = Thread {
            Thread.sleep(forTimeInterval: 60); gate.open()
        }
        fallback.start()
        // Several pool tasks at once, more than the pool has threads.
        let answers = await withTaskGroup(of: Int.self) { group in
            for value in 0..<32 { group.addTask { value * 2 } }
            return await group.reduce(0, +)
        }
        let gateWasClosed = !gate.isOpen
        #expect(answers == 992)
        #expect(gateWasClosed)
        gate.open()
        for task in running { try await task.value }
        #expect(gate.enteredCount == jobs)
    }

    /// A finished job's closure is let go at once: it may hold a whole decoded image (the queue kept dozens).
    @Test func keepsNothingAJobCapturedOnceItRan() async throws {
        final class Payload: Sendable {}
        let executor = WorkExecutor(name: "test.release", threadCount: 1)
        weak var watched: Payload?
        for _ in 0..<3 {
            let payload = Payload()
            watched = payload
            try await executor.run { _ = payload }
        }
        // The worker lets the closure go right after it runs, which can be a moment after the caller resumes; a
        // queue that kept it would keep it for good.
        await eventually { watched == nil }
        #expect(watched == nil)
    }

    @Test func aJobCancelledBeforeItStartsNeverRuns() async throws {
        let executor = WorkExecutor(name: "test.cancel", threadCount: 1)
        let gate = ThreadGate()
        let blocker = Task { try await executor.run { gate.pass() } }
        await eventually { gate.enteredCount == 1 }
        let ran = Updates<Bool>()
        let queued = Task { try await executor.run { ran.append(true) } }
        await eventually { executor.pendingCount == 1 }
        queued.cancel()
        await #expect(throws: CancellationError.self) { try await queued.value }
        gate.open()
        try await blocker.value
        // The executor is empty again, and the cancelled job's body never ran.
        try await executor.run {}
        #expect(ran.values.isEmpty)
    }

    @Test func aStartedJobFinishesAndReturnsItsResultAfterCancellation() async throws {
        let executor = WorkExecutor(name: "test.started", threadCount: 1)
        let gate = ThreadGate()
        let task = Task {
            try await executor.run {
                gate.pass(); return 7
            }
        }
        await eventually { gate.enteredCount == 1 }
        task.cancel()
        gate.open()
        #expect(try await task.value == 7)
    }
}
