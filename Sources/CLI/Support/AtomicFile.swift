import Foundation
import ImagoCore
import Synchronization

/// Writes files so that readers see the old file or the whole new one, never a part: temporary file, then rename.
enum AtomicFile {
    /// Temporary files being written, removed by `removeTemporaries()` when the process is interrupted.
    private static let pending = PendingFiles()

    /// Writes `data` to `url` atomically; errors name `url`'s path.
    static func write(_ data: Data, to url: URL) throws(ImagoError) {
        if isDeviceOrPipe(url.path) {
            // `-o /dev/stdout` or a FIFO: renaming over it would replace the node itself (or fail), so write into it.
            try writeInPlace(data, to: url)
            return
        }
        let directory = url.deletingLastPathComponent()
        // The name is cut short in the temporary one, so a DEST name near the 255-byte limit still fits.
        let shortName = String(decoding: url.lastPathComponent.utf8.prefix(128), as: UTF8.self)
        // `isDirectory: false`: without it Foundation asks the file system (a stat) whether the name is a folder.
        let temporary = directory.appendingPathComponent(
            ".\(shortName).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp", isDirectory: false)
        pending.insert(temporary.path)
        defer { pending.remove(temporary.path) }
        // Plain POSIX calls: Foundation's `Data.write(to:)` also flushes every file to the device (fsync), which
        // made a thumbnail batch wait on the disk; the rename alone gives the all-or-nothing view.
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw ImagoError(.cacheFailed, "cannot write: \(String(cString: strerror(errno)))", source: url.path)
        }
        let failure = writeAll(data, to: descriptor)
        let closed = close(descriptor) == 0
        if let failure = failure ?? (closed ? nil : errno) {
            unlink(temporary.path)
            throw ImagoError(.cacheFailed, "cannot write: \(String(cString: strerror(failure)))", source: url.path)
        }
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw ImagoError(.cacheFailed, "cannot write: \(reason)", source: url.path)
        }
    }

    /// Writes every byte of `data` to `descriptor`; the `errno` of a failure, nil on success.
    private static func writeAll(_ data: Data, to descriptor: Int32) -> Int32? {
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
    }

    /// Whether `path` exists and is neither a regular file nor a folder (following symbolic links).
    private static func isDeviceOrPipe(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        let type = info.st_mode & S_IFMT
        return type != S_IFREG && type != S_IFDIR
    }

    private static func writeInPlace(_ data: Data, to url: URL) throws(ImagoError) {
        let descriptor = open(url.path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ImagoError(.cacheFailed, "cannot write: \(String(cString: strerror(errno)))", source: url.path)
        }
        defer { close(descriptor) }
        if let failure = writeAll(data, to: descriptor) {
            throw ImagoError(.cacheFailed, "cannot write: \(String(cString: strerror(failure)))", source: url.path)
        }
    }

    /// Removes every temporary file still being written (called on Ctrl-C, before exiting).
    static func removeTemporaries() {
        for path in pending.all() { unlink(path) }
    }

}

/// POSIX `write`, named apart from `AtomicFile.write`; Darwin and Glibc spell the module differently.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Darwin)
        Darwin.write(descriptor, bytes, count)
    #else
        Glibc.write(descriptor, bytes, count)
    #endif
}

/// A thread-safe set of paths.
final class PendingFiles: Sendable {
    private let paths = Mutex<Set<String>>([])

    func insert(_ path: String) { _ = paths.withLock { $0.insert(path) } }
    func remove(_ path: String) { _ = paths.withLock { $0.remove(path) } }
    func all() -> [String] { paths.withLock { Array($0) } }
}
