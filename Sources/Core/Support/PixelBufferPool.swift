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
    /// The most idle bytes the pool keeps.
    public let capacityLimit: Int

    /// An idle buffer; only the pool touches it until it hands it out again.
    private struct Idle {
        var buffers: [PooledBuffer] = []
        var bytes = 0
    }
    private let idle = Mutex(Idle())

    /// Creates a pool.
    public init(minimumPooledSize: Int = 256 * 1024, capacityLimit: Int = 192 * 1024 * 1024) {
        self.minimumPooledSize = minimumPooledSize
        self.capacityLimit = capacityLimit
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
