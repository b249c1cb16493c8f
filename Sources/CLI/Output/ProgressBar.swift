import Foundation
import Synchronization

/// The live progress line of `load` on a terminal's standard error: done/total, failures, rate.
final class ProgressBar: Sendable {
    private struct State {
        var done = 0
        var failed = 0
        var lastDraw = ContinuousClock.now - .seconds(1)
    }

    private let total: Int
    private let start = ContinuousClock.now
    private let state = Mutex(State())
    private let enabled: Bool

    /// A bar for `total` sources, drawn only when `enabled` (standard error is a terminal).
    init(total: Int, enabled: Bool) {
        self.total = total
        self.enabled = enabled
    }

    /// Counts a finished source and redraws (at most every 50 ms, and always at the end).
    func advance(failed: Bool) {
        guard enabled else { return }
        let line: String? = state.withLock { state in
            state.done += 1
            if failed { state.failed += 1 }
            let now = ContinuousClock.now
            guard state.done == total || now - state.lastDraw > .milliseconds(50) else { return nil }
            state.lastDraw = now
            return render(done: state.done, failed: state.failed)
        }
        if let line { Console.writeError("\r\u{1B}[2K" + line) }
    }

    /// Redraws with the current counts, so the rate stays live while slow loads are in flight.
    func refresh() {
        guard enabled else { return }
        let line = state.withLock { render(done: $0.done, failed: $0.failed) }
        Console.writeError("\r\u{1B}[2K" + line)
    }

    /// Redraws every quarter second until the calling task is cancelled.
    func tick() async {
        guard enabled else { return }
        while !Task.isCancelled {
            refresh()
            try? await Task.sleep(for: .milliseconds(250))
        }
    }

    /// Prints an error line above the bar, which is then redrawn.
    func printAbove(_ report: () -> Void) {
        guard enabled else { return report() }
        Console.writeError("\r\u{1B}[2K")
        report()
        let line = state.withLock { render(done: $0.done, failed: $0.failed) }
        Console.writeError(line)
    }

    /// Removes the bar before the summary is printed.
    func clear() {
        guard enabled else { return }
        Console.writeError("\r\u{1B}[2K")
    }

    private func render(done: Int, failed: Int) -> String {
        let width = 24
        let filled = total == 0 ? width : done * width / total
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let elapsed = max((ContinuousClock.now - start).seconds, 0.001)
        let rate = String(format: "%.1f/s", Double(done) / elapsed)
        let failures = failed == 0 ? "" : " · \(failed) failed"
        let colour = Console.noColor ? bar : (failed == 0 ? "\u{1B}[32m\(bar)\u{1B}[0m" : "\u{1B}[33m\(bar)\u{1B}[0m")
        return "\(colour) \(done)/\(total)\(failures) · \(rate)"
    }
}
