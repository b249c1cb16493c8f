import Foundation

/// A response body of announced length gathered in a buffer of the `PixelBufferPool`, handed out as `Data` that
/// gives the buffer back when released. A server maps every allocation over 1 MiB on its own so that its memory
/// returns to the baseline, so a body gathered in fresh memory faulted in every page of every source (a quarter of
/// the CPU of serving a 5 MB PNG); pooled buffers are reused, and trimmed when idle like pixel buffers.
final class PooledBody: @unchecked Sendable {
    // Written by the one fetch that owns it, then handed out read-only inside `Data`.
    private var buffer: UnsafeMutableRawBufferPointer?
    private(set) var count = 0
    private let pool: PixelBufferPool

    /// A buffer for `capacity` bytes, or nil when the body is small (malloc recycles those well) or the memory
    /// cannot be had; the caller then gathers into `Data`.
    init?(capacity: Int, pool: PixelBufferPool = .shared) {
        guard capacity >= pool.minimumPooledSize, let buffer = pool.take(capacity) else { return nil }
        self.buffer = buffer
        self.pool = pool
    }

    /// Appends `chunk`; false (nothing appended) when it would pass the capacity: a body longer than announced.
    func append(_ chunk: Data) -> Bool {
        guard let buffer, let base = buffer.baseAddress, count + chunk.count <= buffer.count else { return false }
        chunk.withUnsafeBytes { bytes in
            if let source = bytes.baseAddress { (base + count).copyMemory(from: source, byteCount: bytes.count) }
        }
        count += chunk.count
        return true
    }

    /// The bytes gathered, as `Data` that owns the buffer from now on (it goes back to the pool with the last copy).
    func take() -> Data {
        guard let buffer, let base = buffer.baseAddress else { return Data() }
        self.buffer = nil
        let pool = self.pool
        return Data(bytesNoCopy: base, count: count, deallocator: .custom { _, _ in pool.recycle(buffer) })
    }

    deinit {
        if let buffer { pool.recycle(buffer) }
    }
}
