import Foundation
import ImagoCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A regular file opened for reading after its path was resolved and checked against the root.
struct OpenFile {
    /// The source as the caller named it, for errors.
    let source: String
    /// The real path read (symbolic links and `..` resolved).
    let path: String
    /// The size when opened.
    let size: Int64
    /// The last modification when opened, for `Last-Modified`.
    let modified: Date
    private let descriptor: Int32

    /// Resolves `url`'s path, refuses it outside `root`, opens it, and checks it is a regular file of at most
    /// `maxBytes`. Every failure is an `ImagoError` naming the path.
    init(_ url: URL, root: String?, maxBytes: Int) throws {
        source = url.absoluteString
        guard url.isFileURL else {
            throw ImagoError(.unsupportedScheme, "not a file URL", source: source)
        }
        if let host = url.host, !host.isEmpty, host.lowercased() != "localhost" {
            throw ImagoError(
                .invalidSource, "file URLs naming another host (\(host)) are not supported", source: source)
        }
        let requested = url.path
        guard !requested.isEmpty else { throw ImagoError(.invalidSource, "invalid source: empty path", source: source) }

        if let root {
            // Checked on the written form first, so a path outside the root says nothing about what exists there.
            let lexical = URL(fileURLWithPath: requested).standardizedFileURL.path
            let lexicalRoot = URL(fileURLWithPath: root).standardizedFileURL.path
            guard Self.isInside(lexical, root: lexicalRoot) else {
                throw ImagoError(.invalidSource, "\(requested) is outside the allowed root \(root)", source: source)
            }
        }
        let resolved = try Self.realPath(requested, source: source)
        if let root {
            let realRoot = try Self.realPath(root, source: source, what: "file root")
            guard Self.isInside(resolved, root: realRoot) else {
                throw ImagoError(
                    .invalidSource, "\(requested) resolves to \(resolved), outside the allowed root \(root)",
                    source: source)
            }
        }
        path = resolved

        // O_NONBLOCK: opening a FIFO must not hang; it is refused below as not a regular file.
        let descriptor = open(resolved, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
        guard descriptor >= 0 else { throw Self.posixError(errno, path: requested, source: source) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            _ = systemClose(descriptor)
            throw Self.posixError(code, path: requested, source: source)
        }
        let type = info.st_mode & S_IFMT
        guard type == S_IFREG else {
            _ = systemClose(descriptor)
            let what = type == S_IFDIR ? "is a directory" : "is not a regular file"
            throw ImagoError(.invalidSource, "\(requested) \(what)", source: source)
        }
        guard info.st_size <= maxBytes else {
            _ = systemClose(descriptor)
            throw ImagoError(
                .tooLarge, "too large: \(requested) has \(info.st_size) bytes, over the limit of \(maxBytes) bytes",
                source: source)
        }
        self.descriptor = descriptor
        self.size = Int64(info.st_size)
        self.modified = Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec))
    }

    /// Reads up to `count` bytes; empty at the end of the file. The buffer is not zeroed first: the read fills
    /// what is returned.
    func read(upTo count: Int) throws -> Data {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: max(1, count), alignment: 16)
        var got = 0
        while got < count {
            let result = systemRead(descriptor, buffer + got, count - got)
            if result < 0, errno == EINTR { continue }
            guard result >= 0 else {
                buffer.deallocate()
                throw error(.transportFailed(status: nil), "cannot read \(path): \(String(cString: strerror(errno)))")
            }
            if result == 0 { break }
            got += result
        }
        guard got > 0 else {
            buffer.deallocate()
            return Data()
        }
        return Data(bytesNoCopy: buffer, count: got, deallocator: .custom { pointer, _ in pointer.deallocate() })
    }

    /// Whether the file has no byte after what was read (checked with a one-byte read).
    func isAtEnd() throws -> Bool {
        try read(upTo: 1).isEmpty
    }

    func close() { _ = systemClose(descriptor) }

    func error(_ kind: ImagoError.Kind, _ reason: String) -> ImagoError {
        ImagoError(kind, reason, source: source)
    }

    private static func isInside(_ path: String, root: String) -> Bool {
        let root = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
        return path == root || path.hasPrefix(root == "/" ? "/" : root + "/")
    }

    private static func realPath(_ path: String, source: String, what: String = "file") throws -> String {
        guard let resolved = realpath(path, nil) else {
            throw posixError(errno, path: path, source: source, what: what)
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func posixError(_ code: Int32, path: String, source: String, what: String = "file") -> ImagoError {
        let reason: String
        switch code {
        case ENOENT, ENOTDIR: reason = "no such \(what): \(path)"
        case EACCES, EPERM: reason = "permission denied: \(path)"
        case ELOOP: reason = "too many symbolic links: \(path)"
        default: reason = "cannot open \(path): \(String(cString: strerror(code)))"
        }
        // The system's error stays the cause, so a caller tells a missing file by its code, not by the message.
        let cause = POSIXErrorCode(rawValue: code).map { POSIXError($0) }
        return ImagoError(.invalidSource, reason, source: source, underlying: cause)
    }
}

// The methods above are named `read` and `close`; these reach the C functions of whichever libc is imported.
private func systemClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
