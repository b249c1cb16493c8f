import Dispatch
import Foundation
import ImagoContracts
import Synchronization
import Testing

/// A check's own behaviour: synchronous plugin work runs off the cooperative pool, and a hung check fails as hung.
@Suite struct ContractCheckTests {
    /// More blocked checks at once than the pool has threads: were their bodies on the pool, this test's own task
    /// could not run to release them, and only the safety timer would.
    @Test func blockingChecksLeaveThePoolFree() async {
        let count = ProcessInfo.processInfo.activeProcessorCount + 2
        let gate = DispatchSemaphore(value: 0)
        let releasedBy = Mutex<String?>(nil)
        let release = { @Sendable (who: String) in
            let first = releasedBy.withLock { by in
                if by != nil { return false }
                by = who
                return true
            }
            if first { for _ in 0..<count { gate.signal() } }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + 30) { release("the safety timer") }
        let results = await withTaskGroup(of: ContractResult.self) { group in
            for index in 0..<count {
                group.addTask { await ContractCheck.blocking("blocked \(index)") { gate.wait() }.run() }
            }
            group.addTask {
                try? await Task.sleep(for: .milliseconds(300))
                release("the test's task")
                return ContractResult(name: "releaser", reason: nil)
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(releasedBy.withLock { $0 } == "the test's task")
        #expect(results.count == count + 1 && results.allSatisfy { $0.passed }, "\(results)")
    }

    @Test func aBlockingCheckThatHangsFailsAsHungAndTheRunGoesOn() async {
        let gate = DispatchSemaphore(value: 0)
        defer { gate.signal() }  // lets the abandoned thread end
        let result = await ContractCheck.blocking("hangs", timeout: 0.5) { gate.wait() }.run()
        #expect(result.reason?.contains("did not finish within") == true, "\(result)")
        let next = await ContractCheck.blocking("throws") { throw ContractFailure("broken on purpose") }.run()
        #expect(next.reason == "broken on purpose")
    }
}
