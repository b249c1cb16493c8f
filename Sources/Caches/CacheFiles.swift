import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The POSIX calls of the disk cache, so that I/O failures (a full disk) can be injected in tests.
struct CacheFiles: Sendable {
    /// Writes some of the bytes to a file descriptor, like `write(2)`: the count written, or -1 with `errno` set.
    var write: @Sendable (Int32, UnsafeRawBufferPointer) -> Int = { descriptor, bytes in
        Foundation.write(descriptor, bytes.baseAddress, bytes.count)
    }

    /// What a failed call did, for the error message.
    struct Failure: Error {
        var operation: String
        var path: String
        var code: Int32

        var message: String { "\(operation) \(path): \(String(cString: strerror(code)))" }
    }

    /// What reading an entry file found.
    enum ReadResult {
        /// No such file (or it cannot be read).
        case missing
        /// The file exists but is not a valid entry for the key: partial, damaged or foreign. `identity` tells
        /// whether the path still names that same file when it is removed.
        case invalid(identity: FileIdentity)
        /// A valid entry.
        case entry(DataCacheEntry)
    }

    /// Device and inode of a file.
    struct FileIdentity: Equatable {
        var device: UInt64
        var inode: UInt64
    }

    /// Reads and checks the entry at `path`; when valid, marks it used at `accessTime` (its modification time,
    /// which the cache reads back as the last access: `noatime` mounts do not keep access times).
    func read(_ path: String, key: CacheKey, accessTime: Date) -> ReadResult {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .missing }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .missing }
        let identity = FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        let size = Int(info.st_size)
        var headerBytes = Data(count: CacheEntryCodec.headerSize)
        guard size >= CacheEntryCodec.headerSize, readFully(descriptor, into: &headerBytes, at: 0),
            let header = headerBytes.withUnsafeBytes({ CacheEntryCodec.header($0) }), header.fileSize == size
        else { return .invalid(identity: identity) }
        var rest = Data(count: header.keyLength + header.metadataLength)
        var body = Data(count: header.bodyLength)
        guard readFully(descriptor, into: &rest, at: CacheEntryCodec.headerSize),
            readFully(descriptor, into: &body, at: CacheEntryCodec.headerSize + rest.count),
            let entry = CacheEntryCodec.entry(
                header: header, headerBytes: headerBytes, rest: rest, body: body, key: key)
        else { return .invalid(identity: identity) }
        setModificationTime(descriptor, accessTime)
        return .entry(entry)
    }

    /// Writes `prefix` then `body` to a new temporary file in `directory` and renames it to `path`, so readers
    /// see the old file or the whole new one, never a part. The modification time is set to `accessTime`.
    func writeAtomically(
        prefix: Data, body: Data, to path: String, temporaryPath: String, accessTime: Date, synchronize: Bool
    ) throws(Failure) {
        let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure(operation: "cannot create", path: temporaryPath, code: errno) }
        var failure: Failure?
        for part in [prefix, body] where failure == nil {
            if !writeFully(descriptor, part) {
                failure = Failure(operation: "cannot write", path: temporaryPath, code: errno)
            }
        }
        if failure == nil, synchronize, fsync(descriptor) != 0 {
            failure = Failure(operation: "cannot sync", path: temporaryPath, code: errno)
        }
        setModificationTime(descriptor, accessTime)
        if close(descriptor) != 0, failure == nil {
            failure = Failure(operation: "cannot close", path: temporaryPath, code: errno)
        }
        if failure == nil, rename(temporaryPath, path) != 0 {
            failure = Failure(operation: "cannot rename into", path: path, code: errno)
        }
        if let failure {
            unlink(temporaryPath)
            throw failure
        }
    }

    /// Removes `path` if it still names the file `identity` (another process may have replaced it meanwhile).
    func remove(_ path: String, ifStill identity: FileIdentity) {
        var info = stat()
        guard lstat(path, &info) == 0, UInt64(info.st_dev) == identity.device, UInt64(info.st_ino) == identity.inode
        else { return }
        unlink(path)
    }

    /// Removes `path`; returns whether it existed.
    @discardableResult
    func remove(_ path: String) -> Bool { unlink(path) == 0 }

    /// Size and modification time of a regular file.
    func attributes(_ path: String) -> (size: Int, modified: Date)? {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        #if canImport(Darwin)
            let time = info.st_mtimespec
        #else
            let time = info.st_mtim
        #endif
        let modified = Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        return (Int(info.st_size), Date(timeIntervalSince1970: modified))
    }

    /// Creates `directory` and its parents.
    func createDirectory(_ directory: String) throws(Failure) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            var info = stat()
            let code: Int32 = stat(directory, &info) == 0 ? ENOTDIR : ((error as NSError).underlyingPOSIXCode ?? EIO)
            throw Failure(operation: "cannot create folder", path: directory, code: code)
        }
    }

    /// The names in `directory` (empty when it does not exist).
    func names(in directory: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    }

    private func readFully(_ descriptor: Int32, into data: inout Data, at offset: Int) -> Bool {
        let count = data.count
        return data.withUnsafeMutableBytes { buffer in
            var done = 0
            while done < count {
                let result = pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset + done))
                if result < 0, errno == EINTR { continue }
                guard result > 0 else { return false }
                done += result
            }
            return true
        }
    }

    private func writeFully(_ descriptor: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let result = write(descriptor, UnsafeRawBufferPointer(rebasing: buffer[done...]))
                if result < 0, errno == EINTR { continue }
                guard result > 0 else {
                    if result == 0 { errno = EIO }
                    return false
                }
                done += result
            }
            return true
        }
    }

    private func setModificationTime(_ descriptor: Int32, _ date: Date) {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        let time = timespec(tv_sec: Int(seconds), tv_nsec: Int((date.timeIntervalSince1970 - seconds) * 1e9))
        let times = [time, time]
        _ = futimens(descriptor, times)
    }
}

extension NSError {
    /// The POSIX error code behind a Foundation file error, when there is one.
    fileprivate var underlyingPOSIXCode: Int32? {
        if domain == NSPOSIXErrorDomain { return Int32(code) }
        return (userInfo[NSUnderlyingErrorKey] as? NSError)?.underlyingPOSIXCode
    }
}
