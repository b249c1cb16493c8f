import CMicroHTTPDShim
import Dispatch
import Imago
import Synchronization

/// Gives memory back after a burst, so a long-running server returns to its baseline: large allocations get mappings
/// of their own that go back to the system when freed (glibc otherwise moves them into its heaps after the first
/// large free, and under varied load a server kept 600 MiB where 350 MiB were ever in use at once); every `interval`
/// seconds pixel buffers idle for longer than that are freed, and, once no image request is in flight, glibc is asked
/// to return its free heap pages (`malloc_trim`). Pixel buffers are pooled, so their mappings are reused, not
/// faulted in afresh.
final class MemoryMaintenance: Sendable {
    // Set once here, then only cancelled: the timer object is not Sendable, its use is.
    private nonisolated(unsafe) let timer: any DispatchSourceTimer
    /// Allocations from this size on are mapped on their own, held fixed (glibc starts at 128 KiB and raises it).
    static let largeAllocation = 1 << 20

    /// Whether requests were in flight at the last tick.
    private final class Busy: Sendable {
        let value = Mutex(true)
    }

    /// Starts the timer; `inflight` tells how many requests are being processed.
    init(interval: Double = 2, pool: PixelBufferPool = .shared, inflight: @escaping @Sendable () -> Int) {
        imago_map_large_allocations(Self.largeAllocation)
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
