import CMicroHTTPDShim
import Dispatch
import Imago
import Synchronization

/// Gives memory back after a burst, so a long-running server returns to its baseline: every `interval` seconds it
/// frees pixel buffers idle for longer than that, and, once no image request is in flight, asks glibc to return
/// freed heap pages to the system (`malloc_trim`): glibc otherwise keeps what a burst of large decodes freed.
final class MemoryMaintenance: Sendable {
    // Set once here, then only cancelled: the timer object is not Sendable, its use is.
    private nonisolated(unsafe) let timer: any DispatchSourceTimer
    /// Whether requests were in flight at the last tick.
    private final class Busy: Sendable {
        let value = Mutex(true)
    }

    /// Starts the timer; `inflight` tells how many requests are being processed.
    init(interval: Double = 2, pool: PixelBufferPool = .shared, inflight: @escaping @Sendable () -> Int) {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "imago.memory-maintenance"))
        let busy = Busy()
        timer.setEventHandler {
            let freed = pool.trim(idleLongerThan: interval)
            let idle = inflight() == 0
            // Trim after the load ends (and when buffers were just freed): not while requests allocate.
            let wasBusy = busy.value.withLock { busy in
                defer { busy = !idle }
                return busy
            }
            if idle && (wasBusy || freed > 0) {
                _ = imago_release_free_memory()
            }
        }
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(100))
        timer.resume()
        self.timer = timer
    }

    deinit { timer.cancel() }
}
