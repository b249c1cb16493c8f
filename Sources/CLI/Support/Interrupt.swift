import Dispatch
import Foundation
import Synchronization

/// Ctrl-C during `load`: the first cancels the work (which then cleans up and exits 130), a second exits at once.
final class Interrupt {
    private final class Presses: Sendable {
        let count = Mutex(0)
    }

    private let presses = Presses()
    private let source: any DispatchSourceSignal

    /// Starts catching SIGINT; `onInterrupt` runs on the first one.
    init(onInterrupt: @escaping @Sendable () -> Void) {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { [presses] in
            let count = presses.count.withLock { count in
                count += 1
                return count
            }
            if count == 1 {
                onInterrupt()
            } else {
                AtomicFile.removeTemporaries()
                exit(ExitStatus.interrupted.rawValue)
            }
        }
        source.resume()
    }

    /// Whether Ctrl-C was pressed.
    var happened: Bool { presses.count.withLock { $0 > 0 } }

    /// Stops catching SIGINT.
    func stop() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}
