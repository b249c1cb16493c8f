import Synchronization

/// Recycles large pixel buffers: a fresh 48 MB allocation costs a third of a JPEG decode in page faults.
///
/// Buffers come back when the last `Raster` using them is released, and are handed out again for an
/// allocation of about the same size. The pool keeps at most `capacityLimit` bytes of idle buffers.
public final class PixelBufferPool: Sendable {
    /// The pool every `Raster` uses unless told otherwise.
    public static let shared = PixelBufferPool()

    /// Buffers smaller than this are left to `malloc`, which already recycles them well.
    public let minimumPooledSize: Int
    /// The most idle bytes the pool keeps (a server lowers it to fit its memory budget).
    public var capacityLimit: Int {
        get { limit.load(ordering: .relaxed) }
        set {
            limit.store(max(0, newValue), ordering: .relaxed)
            trim(idleLongerThan: .infinity)
        }
    }
    private let limit: Atomic<Int>

    /// An idle buffer; only the pool touches it until it hands it out again.
    private struct Idle {
        var buffers: [PooledBuffer] = []
        var bytes = 0
    }
    private let idle = Mutex(Idle())

    /// Creates a pool.
    public init(minimumPooledSize: Int = 256 * 1024, capacityLimit: Int = 192 * 1024 * 1024) {
        self.minimumPooledSize = minimumPooledSize
        self.limit = Atomic(capacityLimit)
    }

    /// Idle bytes held now.
    public var idleBytes: Int { idle.withLock { $0.bytes } }

    /// A buffer of at least `count` bytes (uninitialised); an idle one of a close size when there is one; `nil`
    /// when the memory cannot be had.
    func take(_ count: Int) -> UnsafeMutableRawBufferPointer? {
        if count >= minimumPooledSize {
            let reused: PooledBuffer? = idle.withLock { state in
                // The smallest idle buffer that fits without wasting more than a quarter.
                var best: Int?
                for (index, buffer) in state.buffers.enumerated()
                where buffer.count >= count && buffer.count <= count + count / 4 {
                    if best == nil || buffer.count < state.buffers[best!].count { best = index }
                }
                guard let best else { return nil }
                let buffer = state.buffers.remove(at: best)
                state.bytes -= buffer.count
                return buffer
            }
            if let reused { return reused.pointer }
        }
        return .allocateIfPossible(byteCount: Swift.max(count, 1), alignment: 64)
    }

    /// Takes a buffer back, or frees it when it is small or the pool is full.
    func recycle(_ buffer: UnsafeMutableRawBufferPointer) {
        guard buffer.count >= minimumPooledSize else { return buffer.deallocate() }
        let returned = PooledBuffer(pointer: buffer)
        let capacityLimit = self.capacityLimit
        let evicted: [PooledBuffer] = idle.withLock { state in
            guard buffer.count <= capacityLimit else { return [returned] }
            state.buffers.append(returned)
            state.bytes += returned.count
            var evicted: [PooledBuffer] = []
            while state.bytes > capacityLimit {  // oldest first
                let old = state.buffers.removeFirst()
                state.bytes -= old.count
                evicted.append(old)
            }
            return evicted
        }
        evicted.forEach { $0.pointer.deallocate() }
    }

    /// Frees the idle buffers unused for more than `seconds` (all of them past the capacity when it was lowered);
    /// returns the bytes freed. A long-running process calls it when a burst is over, so memory returns to its
    /// baseline instead of staying at the burst's peak.
    @discardableResult
    public func trim(idleLongerThan seconds: Double) -> Int {
        let now = ContinuousClock.now
        let capacityLimit = self.capacityLimit
        let threshold = seconds.isFinite ? Duration.milliseconds(Int(max(0, seconds) * 1000)) : nil
        let freed: [PooledBuffer] = idle.withLock { state in
            var kept: [PooledBuffer] = []
            var freed: [PooledBuffer] = []
            var keptBytes = 0
            for buffer in state.buffers.reversed() {  // newest first: they are the ones kept within the capacity
                let old = threshold.map { buffer.idleSince.duration(to: now) > $0 } ?? false
                if old || keptBytes + buffer.count > capacityLimit {
                    freed.append(buffer)
                } else {
                    kept.append(buffer)
                    keptBytes += buffer.count
                }
            }
            state.buffers = kept.reversed()
            state.bytes = keptBytes
            return freed
        }
        freed.forEach { $0.pointer.deallocate() }
        return freed.reduce(0) { $0 + $1.count }
    }

    /// Frees every idle buffer (for memory pressure).
    public func drain() {
        let all = idle.withLock { state in
            defer { state = Idle() }
            return state.buffers
        }
        all.forEach { $0.pointer.deallocate() }
    }
}

/// A buffer owned by the pool while idle.
private struct PooledBuffer: @unchecked Sendable {
    let pointer: UnsafeMutableRawBufferPointer
    var idleSince = ContinuousClock.now
    var count: Int { pointer.count }
}

/// Pixel memory shared by rasters; immutable once the raster that filled it is built.
final class PixelStorage: @unchecked Sendable {
    let buffer: UnsafeMutableRawBufferPointer
    let byteCount: Int
    let pool: PixelBufferPool

    init(byteCount: Int, pool: PixelBufferPool) throws {
        guard let buffer = pool.take(byteCount) else {
            throw ImagoError(.limitExceeded, "cannot allocate \(byteCount) bytes of pixels")
        }
        self.byteCount = byteCount
        self.pool = pool
        self.buffer = buffer
    }

    deinit { pool.recycle(buffer) }
}
